import { Controller, Get, Param } from '@nestjs/common';
import { type Caller, CurrentCaller } from '#app/identity';
import { pathId } from '#app/platform';
import { type PersonalData, PersonalDataExport } from '../personal-data-export.js';
import { PersonalDataDocs } from './personal-data.openapi.js';

/** docs/privacy.md#access-and-portability: a user's personal data, to themself or their data-protection officer. */
@PersonalDataDocs.controller()
@Controller('api/users')
export class PersonalDataController {
  constructor(private readonly personalData: PersonalDataExport) {}

  @Get('me/personal-data')
  @PersonalDataDocs.mine()
  async mine(@CurrentCaller() caller: Caller): Promise<{ data: PersonalData }> {
    return { data: await this.personalData.forCaller(caller, caller.userId) };
  }

  @Get(':id/personal-data')
  @PersonalDataDocs.ofUser()
  async ofUser(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ data: PersonalData }> {
    return { data: await this.personalData.forCaller(caller, pathId(id, 'User')) };
  }
}

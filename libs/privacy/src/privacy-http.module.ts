import { Module } from '@nestjs/common';
import { AnonymiseController } from './anonymise/anonymise.controller.js';
import { PersonalDataController } from './export/http/personal-data.controller.js';
import { PrivacyModule } from './privacy.module.js';

/** The privacy routes (docs/privacy.md), api role. */
@Module({
  imports: [PrivacyModule],
  controllers: [AnonymiseController, PersonalDataController],
})
export class PrivacyHttpModule {}

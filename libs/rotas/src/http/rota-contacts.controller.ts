import { Body, Controller, Delete, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { type Caller, CurrentCaller, RequirePermission } from '#app/identity';
import { pathId } from '#app/platform';
import { AddContactCommand, type AddedContact } from '../rota/add-contact.command.js';
import { ContactQueries } from '../rota/contacts.queries.js';
import { RemoveContactCommand } from '../rota/remove-contact.command.js';
import { ValidateContactsQuery } from '../rota/validate-contacts.queries.js';
import { ROTA_PERMISSIONS } from '../rotas.policy.js';
import { AddContactBody, ValidateContactsBody } from './contact.dto.js';
import { ContactDto, ContactValidationDto } from './contact.responses.js';
import { RotaContactsDocs } from './rota-contacts.openapi.js';

/** A rota's designated contacts: listed by anyone who sees the rota, changed and validated with manage-rotas. */
@RotaContactsDocs.controller()
@Controller('api/rotas')
export class RotaContactsController {
  constructor(
    private readonly commands: CommandBus,
    private readonly contacts: ContactQueries,
    private readonly validation: ValidateContactsQuery,
  ) {}

  @Post('contacts/validate')
  @HttpCode(200)
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotaContactsDocs.validate()
  async validate(
    @CurrentCaller() caller: Caller,
    @Body() body: ValidateContactsBody,
  ): Promise<{ data: ContactValidationDto }> {
    return {
      data: await this.validation.run(caller, {
        userIds: body.user_ids,
        rotaIds: body.rota_ids,
        teamIds: body.team_ids,
      }),
    };
  }

  @Get(':rota/contacts')
  @RotaContactsDocs.list()
  async list(@CurrentCaller() caller: Caller, @Param('rota') rota: string): Promise<{ data: ContactDto[] }> {
    return { data: await this.contacts.list(caller, pathId(rota, 'Rota')) };
  }

  @Post(':rota/contacts')
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotaContactsDocs.add()
  async add(
    @CurrentCaller() caller: Caller,
    @Param('rota') rota: string,
    @Body() body: AddContactBody,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: ContactDto }> {
    const rotaId = pathId(rota, 'Rota');
    const added: AddedContact = await this.commands.execute(new AddContactCommand(caller, rotaId, body.user_id));
    void reply.status(added.created ? 201 : 200);
    return { data: await this.contacts.get(caller, rotaId, added.contactId) };
  }

  @Delete(':rota/contacts/:id')
  @HttpCode(204)
  @RequirePermission(ROTA_PERMISSIONS.manage)
  @RotaContactsDocs.remove()
  async remove(@CurrentCaller() caller: Caller, @Param('rota') rota: string, @Param('id') id: string): Promise<void> {
    await this.commands.execute(new RemoveContactCommand(caller, pathId(rota, 'Rota'), pathId(id, 'Contact')));
  }
}

import type { Provider, Type } from '@nestjs/common';
import { RotaContactsController } from '../http/rota-contacts.controller.js';
import { RotasBulkController } from '../http/rotas-bulk.controller.js';
import { AddContactHandler } from './add-contact.command.js';
import { BulkActionHandler } from './bulk-action.command.js';
import { ContactQueries } from './contacts.queries.js';
import { RemoveContactHandler } from './remove-contact.command.js';
import { ReplaceRotasHandler } from './replace-rotas.command.js';
import { ValidateContactsQuery } from './validate-contacts.queries.js';

/** Bulk actions, replace and contacts: their handlers and queries (rotas.module.ts lists these). */
export const BULK_PROVIDERS: Provider[] = [
  BulkActionHandler,
  ReplaceRotasHandler,
  AddContactHandler,
  RemoveContactHandler,
  ContactQueries,
  ValidateContactsQuery,
];

/** Their controllers (rotas-http.module.ts). */
export const BULK_CONTROLLERS: Type<unknown>[] = [RotasBulkController, RotaContactsController];

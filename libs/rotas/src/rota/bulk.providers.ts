import type { Provider } from '@nestjs/common';
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

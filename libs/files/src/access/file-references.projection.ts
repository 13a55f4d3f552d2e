import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';

/**
 * The organisation settings that hold an image every member sees (libs/organisation's field
 * table, kind 'image'). Named here rather than imported: organisation imports files, not the
 * other way round. A new image setting must be added here too, or its image stays private to its
 * uploader (the safe way to be wrong).
 */
export const ORGANISATION_IMAGE_SETTINGS: readonly string[] = ['header_logo', 'logo'];

/** The other contexts' events, in the shape this projection reads them (by their type strings). */
type ReferenceEvent =
  | {
      type: 'expenses.AttachmentAdded' | 'expenses.AttachmentRemoved';
      data: { expenseId: number; organisationId: number; fileId: number };
    }
  | { type: 'expenses.ExpenseDeleted'; data: { id: number; organisationId: number } }
  | { type: 'organisation.SettingsChanged'; data: { organisationId: number; changes: Record<string, unknown> } };

const KEY = ['organisation_id', 'referrer', 'referrer_id', 'file_id'];

/**
 * Where each file is referenced: `('expense', expense id)` for an expense attachment,
 * `('organisation', setting name)` for an organisation image. Read by FileReadRule; files never
 * reads the expenses' or the organisation's tables.
 */
@AsProjection()
@Injectable()
export class FileReferencesProjection extends defineProjection<ReferenceEvent>({
  name: 'files.references',
  version: 1,
  tables: ['file_references'],
  on: {
    'expenses.AttachmentAdded': ({ data: d }) => [
      op.upsert('file_references', KEY, {
        organisation_id: d.organisationId,
        referrer: 'expense',
        referrer_id: String(d.expenseId),
        file_id: d.fileId,
      }),
    ],
    'expenses.AttachmentRemoved': ({ data: d }) => [
      op.delete('file_references', {
        organisation_id: d.organisationId,
        referrer: 'expense',
        referrer_id: String(d.expenseId),
        file_id: d.fileId,
      }),
    ],
    'expenses.ExpenseDeleted': ({ data: d }) => [
      op.delete('file_references', {
        organisation_id: d.organisationId,
        referrer: 'expense',
        referrer_id: String(d.id),
      }),
    ],
    'organisation.SettingsChanged': ({ data: { organisationId, changes } }) =>
      // A setting holds one image: the old reference goes, the new one (if any) comes.
      ORGANISATION_IMAGE_SETTINGS.filter((name) => Object.hasOwn(changes, name)).flatMap((name) => {
        const fileId = changes[name];
        const cleared = op.delete('file_references', {
          organisation_id: organisationId,
          referrer: 'organisation',
          referrer_id: name,
        });
        if (typeof fileId !== 'number') return [cleared];
        return [
          cleared,
          op.upsert('file_references', KEY, {
            organisation_id: organisationId,
            referrer: 'organisation',
            referrer_id: name,
            file_id: fileId,
          }),
        ];
      }),
  },
}) {}

import { type Type } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions, ApiSchema, getSchemaPath } from '@nestjs/swagger';
import { ImageDto } from '#app/files';
import { UserBaseDto } from '#app/identity';
import { IdRef } from '#app/platform';
import { FIELDS, type Field, SECRETS } from '../settings/fields.js';

/*
 * The organisation's request and response schemas, generated from the field table the checks and
 * the views use (settings/fields.ts), so the document cannot drift from them: the basic view, the
 * detailed view (each field present only when the caller's permissions reach it), the update body
 * and the change history.
 */

/** `@ApiProperty` options, loosely typed: its own type is a union that spreading cannot satisfy. */
type Options = Record<string, unknown>;

const access = (f: Field) =>
  (f.access === 'read-only' ? 'Read only.' : `Needs ${f.access}.`) + (f.note ? ` ${f.note}` : '');
const byDefault = (f: Field) => (f.default === undefined ? '' : ` Default ${JSON.stringify(f.default)}.`);

/** A field's value as the views answer it (and as the history records it). */
function readSchema(name: string, f: Field): Options {
  const description = `${access(f)}${byDefault(f)}`;
  switch (f.kind.type) {
    case 'boolean':
      return { type: 'boolean', description };
    case 'switch':
      return { type: 'string', enum: ['0', '1'], description };
    case 'digits':
      // A field that may be unset (the on-call durations) reads "" until it is set, and takes "" back.
      return f.kind.unset
        ? {
            type: 'string',
            pattern: '^(\\d+)?$',
            description: `${access(f)} A whole number from ${f.kind.min} to ${f.kind.max}, as a string; empty until set.${byDefault(f)}`,
          }
        : {
            type: 'string',
            pattern: '^\\d+$',
            description: `${access(f)} A whole number from ${f.kind.min} to ${f.kind.max}, as a string.${byDefault(f)}`,
          };
    case 'colour':
      return {
        type: 'string',
        pattern: '^(#[0-9a-f]{6})?$',
        description: `${access(f)} A colour (#rrggbb, lower case) or empty.${byDefault(f)}`,
      };
    case 'email':
      return {
        type: 'string',
        anyOf: [{ format: 'email' }, { maxLength: 0 }],
        description: `${access(f)} An e-mail address or empty.${byDefault(f)}`,
      };
    case 'url':
      return {
        type: 'string',
        anyOf: [{ format: 'uri', pattern: '^https?://' }, { maxLength: 0 }],
        description: `${access(f)} An http(s) URL or empty.${byDefault(f)}`,
      };
    case 'image':
      return { type: ImageDto, nullable: true, description: `${access(f)} The Image record; null when unset.` };
    case 'secret':
      throw new Error(`${name}: a secret is never read`);
    case 'nullable-text':
      return { type: 'string', nullable: true, maxLength: f.kind.max, description };
    case 'text':
      return { type: 'string', maxLength: f.kind.max, description };
  }
}

/** A field of the update body. */
function writeSchema(name: string, f: Field): Options {
  switch (f.kind.type) {
    case 'colour':
      return {
        type: 'string',
        pattern: '^(#[0-9a-fA-F]{6})?$',
        description: `${access(f)} A colour such as #1a2b3c, or empty.${byDefault(f)}`,
      };
    case 'digits':
      return f.kind.unset
        ? {
            type: 'string',
            pattern: '^(\\d{1,6})?$',
            description: `${access(f)} A whole number from ${f.kind.min} to ${f.kind.max}, as a string, or empty to unset it.${byDefault(f)}`,
          }
        : {
            type: 'string',
            pattern: '^\\d{1,6}$',
            description: `${access(f)} A whole number from ${f.kind.min} to ${f.kind.max}, as a string.${byDefault(f)}`,
          };
    case 'image':
      return {
        oneOf: [{ type: 'integer', format: 'int64', minimum: 1, nullable: true }, { $ref: getSchemaPath(IdRef) }],
        description:
          `${access(f)} An uploaded image of the organisation the caller may read, as its id or { "id" }; null ` +
          'clears it. The detailed view answers the Image record.',
      };
    case 'secret':
      return {
        type: 'string',
        nullable: true,
        maxLength: 1024,
        writeOnly: true,
        description: `${access(f)} Write-only: never answered; ${SECRETS[name]} says whether it is set. null or "" clears it.`,
      };
    default:
      return readSchema(name, f);
  }
}

/** Applies `@ApiProperty` to each named field of `target`: the class's schema is the field table's. */
function describeFields<T>(target: Type<T>, fields: [string, Options][]): Type<T> {
  for (const [name, options] of fields) ApiProperty(options as ApiPropertyOptions)(target.prototype as object, name);
  return target;
}

const entries = Object.entries(FIELDS);
const basicNames = entries.filter(([, f]) => f.basic).map(([name]) => name);

/** The basic view: what every user of the organisation reads. */
@ApiSchema({ name: 'OrganisationBasic', description: 'The basic organisation view (every user)' })
export class OrganisationBasicDto {
  [field: string]: unknown;
}
describeFields(
  OrganisationBasicDto,
  entries.filter(([, f]) => f.basic).map(([name, f]) => [name, { ...readSchema(name, f), required: true }]),
);

/** The `*_set` flags of the secrets, with the permission that reads each. */
const flags = Object.entries(SECRETS).map(([secret, flag]): [string, Options] => [
  flag,
  {
    type: 'string',
    enum: ['0', '1'],
    required: false,
    description: `Whether ${secret} is set ("1") or not ("0"). Read only; present with ${FIELDS[secret]!.access}.`,
  },
]);

/**
 * The detailed view: the basic fields, plus each field the caller's permissions reach (so every
 * other field is optional), images as Image records and secrets only as their `*_set` flags.
 */
@ApiSchema({
  name: 'OrganisationDetailed',
  description: 'The detailed organisation view: the basic fields plus those the caller’s permissions reach',
})
export class OrganisationDetailedDto {
  [field: string]: unknown;
}
describeFields(OrganisationDetailedDto, [
  ...entries
    .filter(([name]) => !(name in SECRETS) && !Object.values(SECRETS).includes(name))
    .map(([name, f]): [string, Options] => [name, { ...readSchema(name, f), required: basicNames.includes(name) }]),
  ...flags,
]);

/**
 * The update body: any updatable field; read-only and unknown ones are a 422. A plain schema, not
 * a class: an image field is an id or `{ id }` (oneOf), which a class property cannot say.
 */
export const updateBodySchema = {
  type: 'object',
  description:
    'Any updatable field. Read-only and unknown fields are a 422; fields of a permission the caller lacks, a 403 naming them.',
  additionalProperties: false,
  properties: Object.fromEntries(
    entries.filter(([, f]) => f.access !== 'read-only').map(([name, f]) => [name, writeSchema(name, f)]),
  ),
};

/** The values a change recorded: each field's new value; images as ids, secrets only as "(changed)" or "(cleared)". */
@ApiSchema({ name: 'OrganisationChangeFields', description: 'Field → its new value' })
export class ChangeFieldsDto {
  [field: string]: unknown;
}
describeFields(
  ChangeFieldsDto,
  entries
    .filter(([, f]) => f.access !== 'read-only')
    .map(([name, f]): [string, Options] => [
      name,
      f.kind.type === 'secret'
        ? { type: 'string', enum: ['(changed)', '(cleared)'], required: false }
        : f.kind.type === 'image'
          ? {
              type: 'integer',
              format: 'int64',
              nullable: true,
              required: false,
              description: 'The file id; null: cleared',
            }
          : { ...readSchema(name, f), required: false, description: undefined },
    ]),
);

/** One change of the settings history. */
@ApiSchema({ name: 'OrganisationChange', description: 'One change of the organisation’s settings' })
export class OrganisationChangeDto {
  @ApiProperty({ type: 'string', format: 'date-time', description: 'When it was recorded (UTC)' }) changed_at!: string;
  @ApiProperty({
    type: UserBaseDto,
    nullable: true,
    description: 'Who made it; null for the system (provisioning) or a user since removed',
  })
  changed_by!: UserBaseDto | null;
  @ApiProperty({ type: ChangeFieldsDto }) fields!: Record<string, unknown>;
}

export const ORGANISATION_MODELS = [IdRef, ImageDto, UserBaseDto, ChangeFieldsDto] as const;

import { FIELDS, type Field, SECRETS } from '../settings/fields.js';

const describe = (name: string, f: Field): Record<string, unknown> => {
  const access = f.access === 'read-only' ? 'Read only.' : `Needs ${f.access}.`;
  const def = f.default === undefined ? '' : ` Default ${JSON.stringify(f.default)}.`;
  switch (f.kind.type) {
    case 'boolean':
      return { type: 'boolean', description: `${access}${def}` };
    case 'switch':
      return { type: 'string', enum: ['0', '1'], description: `${access}${def}` };
    case 'digits':
      return { type: 'string', pattern: '^\\d+$', description: `${access} A whole number from ${f.kind.min} to ${f.kind.max}, as a string.${def}` };
    case 'colour':
      return { type: 'string', pattern: '^(#[0-9a-fA-F]{6})?$', description: `${access}${def}` };
    case 'email':
      return { type: 'string', format: 'email', description: `${access} Or empty.${def}` };
    case 'image':
      return { type: 'integer', nullable: true, description: `${access} Id of an uploaded image of the organisation (or { id }); the detailed view returns the Image record.` };
    case 'secret':
      return { type: 'string', nullable: true, writeOnly: true, description: `${access} Write-only: never returned; ${SECRETS[name]} says whether it is set. null or "" clears it.` };
    case 'nullable-text':
      return { type: 'string', nullable: true, maxLength: f.kind.max, description: `${access}${def}` };
    default:
      return { type: 'string', ...('max' in f.kind ? { maxLength: f.kind.max } : {}), description: `${access}${def}` };
  }
};

/** The update body, generated from the same field table the checks use. */
export const updateBodySchema = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(Object.entries(FIELDS).filter(([, f]) => f.access !== 'read-only').map(([n, f]) => [n, describe(n, f)])),
};

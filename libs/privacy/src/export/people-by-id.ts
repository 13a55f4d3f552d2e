/**
 * Another person in a personal-data export appears by id only (docs/privacy.md#access-and-portability):
 * every user summary (UserBase: an object with `id`, `display_name` and `can_manage`) that names
 * someone other than `subjectId` becomes `{ id }`, wherever the rendered records hold one. The
 * records are the routes' own renderings; this is applied after them, so a field a renderer adds
 * later is covered without a change here.
 */
export function peopleById<T>(value: T, subjectId: number): T {
  return replace(value, subjectId) as T;
}

function replace(value: unknown, subjectId: number): unknown {
  if (Array.isArray(value)) return value.map((v) => replace(v, subjectId));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (isUserBase(record) && record.id !== subjectId) return { id: record.id };
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, replace(v, subjectId)]));
}

const isUserBase = (o: Record<string, unknown>): o is { id: number } =>
  typeof o.id === 'number' && 'display_name' in o && 'can_manage' in o;

/**
 * Tenant-scoped reads: the one way the contexts write a query over their organisation's rows.
 *
 *     const q = tenantSql(caller)`SELECT id FROM expenses e WHERE ${tenantScope('e')} AND e.user_id = ${userId}`;
 *     // q.text:   SELECT id FROM expenses e WHERE e.organisation_id = $1 AND e.user_id = $2
 *     // q.values: [caller.organisationId, userId]
 *     const rows = await dataSource.query(q.text, q.values);
 *
 * - The organisation id is always `$1`; `tenantScope(alias)` writes `<alias>.organisation_id = $1`
 *   wherever the statement needs it (twice is fine).
 * - A statement without a `tenantScope` throws when it is built, so forgetting the scope fails the
 *   first test that runs the query instead of reading every organisation's rows.
 * - Every other `${value}` is a bound parameter, numbered in order: no `$n` counting by hand.
 *   Fragments made with `sql` compose (filters, joins) and are numbered when the statement is built;
 *   `sql.raw` inserts trusted text (a column list, an ORDER BY column from a fixed map), never input.
 * - The same template and fragment shape always give the same text, so statements keep working
 *   with PreparedStatements' one name per text.
 *
 * Reads that are deliberately not scoped to a caller (log-in by e-mail, a signed download, the
 * event store) do not use this.
 */

/** Whoever a read is for: identity's Caller, or a worker's stand-in for one organisation. */
export interface Tenant {
  readonly organisationId: number;
}

/** A built statement, in `pg`'s own `{ text, values }` shape. */
export interface TenantStatement {
  readonly text: string;
  readonly values: unknown[];
}

/** SQL text with its values; numbered only when a statement is built. */
export class Sql {
  /** Use `sql`, `sql.raw`, `sql.join` or `tenantScope`. */
  constructor(
    readonly strings: readonly string[],
    readonly values: readonly unknown[],
  ) {
    if (strings.length !== values.length + 1) throw new Error('Sql: strings must surround the values');
  }
}

/** The marker `tenantScope` returns: rendered as `<alias>.organisation_id = $1`. */
class TenantScope extends Sql {
  constructor(readonly alias: string | undefined) {
    super([''], []);
    if (alias !== undefined && !/^[a-z_][a-z0-9_]*$/i.test(alias))
      throw new Error(`tenantScope: not an alias: ${alias}`);
  }
}

/** A fragment: `${value}`s are bound parameters, `${sql...}`s are inserted as SQL. */
export function sql(strings: TemplateStringsArray | readonly string[], ...values: unknown[]): Sql {
  return new Sql([...strings], values);
}

/** Trusted text inserted as it is: a constant column list, a column from a fixed map. Never input. */
sql.raw = (text: string): Sql => new Sql([text], []);

/** Fragments joined by `separator` (text, not a parameter). */
sql.join = (parts: readonly Sql[], separator: string): Sql => {
  if (parts.length === 0) return sql.raw('');
  const strings: string[] = [''];
  const values: unknown[] = [];
  parts.forEach((part, i) => {
    if (i > 0) strings[strings.length - 1] += separator;
    values.push(part);
    strings.push('');
  });
  return new Sql(strings, values);
};

/** `<alias>.organisation_id = $1` (or `organisation_id = $1` without an alias): the caller's organisation. */
export function tenantScope(alias?: string): Sql {
  return new TenantScope(alias);
}

/**
 * A tag building one statement over the tenant's rows: `$1` is the organisation id, and the
 * statement must contain at least one `tenantScope(...)`.
 */
export function tenantSql(tenant: Tenant): (strings: TemplateStringsArray, ...values: unknown[]) => TenantStatement {
  const organisationId = tenant.organisationId;
  if (!Number.isSafeInteger(organisationId) || organisationId <= 0)
    throw new Error(`tenantSql: not an organisation id: ${String(organisationId)}`);
  return (strings, ...values) => {
    const params: unknown[] = [organisationId];
    let scoped = false;
    const render = (fragment: Sql): string => {
      if (fragment instanceof TenantScope) {
        scoped = true;
        return `${fragment.alias ? `${fragment.alias}.` : ''}organisation_id = $1`;
      }
      let text = fragment.strings[0]!;
      fragment.values.forEach((value, i) => {
        if (value instanceof Sql) text += render(value);
        else {
          params.push(value);
          text += `$${params.length}`;
        }
        text += fragment.strings[i + 1]!;
      });
      return text;
    };
    const text = render(sql(strings, ...values));
    if (!scoped)
      throw new Error(
        `tenantSql: the statement has no tenantScope(): ${text.replace(/\s+/g, ' ').trim().slice(0, 120)}`,
      );
    return { text, values: params };
  };
}

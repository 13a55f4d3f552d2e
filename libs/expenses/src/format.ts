/** SQL fragments that give the interface's shapes (docs/expense-rules.md#record-shapes) straight from Postgres. */
export const sqlDate = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
/** The `YYYY-MM-DD HH:MM:SS` shape, in UTC. */
export const sqlStamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;
export const sqlIso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

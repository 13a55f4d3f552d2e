/** SQL fragments that give the spec's shapes straight from Postgres (no time-zone guessing in JS). */
export const sqlDate = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
/** The `YYYY-MM-DD HH:MM:SS` shape, in UTC. */
export const sqlStamp = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')`;
export const sqlIso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`;

export const num = (v: string | number | null): number | null => (v === null ? null : Number(v));

import type { MigrationInterface, QueryRunner } from 'typeorm';
import { PersonalDataKeys, personalData } from '#app/event-store';
import { migrationConfig } from '#app/platform';
// The contexts declare their events' personal fields when they load (`<context>.personal-data.ts`).
import '#app/expenses';
import '#app/files';
import '#app/identity';
import '#app/organisation';
import '#app/rotas';
import '#app/webhooks';

const BATCH = 1_000;

/**
 * Issue 32, docs/adr/0013-sealing-personal-data.md: the personal data already in the log in clear
 * is sealed with its owner's key, as the store seals it on append since the previous migration.
 * The one rewrite of the log this project allows: the append-only trigger is off for this
 * transaction only. Values already sealed are left alone, so running it again changes nothing.
 * An event whose data does not name its owner (a claim's change, approval or rejection from before
 * the claimant's `userId` was written) takes the owner of its stream's other events.
 */
export class SealPersonalData1763700027100 implements MigrationInterface {
  name = 'SealPersonalData1763700027100';

  async up(q: QueryRunner): Promise<void> {
    const types = personalData.personalTypes();
    if (types.length === 0) return;
    // Made at the first row to seal: a database whose log holds none (a new one) needs no SECRETS_KEY here.
    let keys: PersonalDataKeys | undefined;
    const query = (text: string, params: unknown[]) => q.query(text, params) as Promise<unknown[]>;
    const streamOwners = new Map<string, number | undefined>();
    const streamOwner = async (streamId: string): Promise<number | undefined> => {
      if (streamOwners.has(streamId)) return streamOwners.get(streamId);
      const rows: { type: string; data: unknown }[] = await q.query(
        `SELECT type, data FROM events WHERE stream_id = $1 ORDER BY stream_version`,
        [streamId],
      );
      const owner = rows.map((r) => personalData.fieldsOf(r.type)?.owner(r.data)).find((o) => Number.isSafeInteger(o));
      streamOwners.set(streamId, owner ?? undefined);
      return owner ?? undefined;
    };
    await q.query(`ALTER TABLE events DISABLE TRIGGER events_append_only`);
    for (let after = '0'; ;) {
      const rows: { position: string; stream_id: string; type: string; data: unknown }[] = await q.query(
        `SELECT position, stream_id, type, data FROM events WHERE type = ANY($1::text[]) AND position > $2
          ORDER BY position LIMIT ${BATCH}`,
        [types, after],
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1]!.position;
      const events = [];
      for (const r of rows) {
        const own = personalData.fieldsOf(r.type)!.owner(r.data);
        events.push({
          type: r.type,
          data: r.data,
          owner: Number.isSafeInteger(own) ? own! : await streamOwner(r.stream_id),
        });
      }
      const sealed = (await (keys ??= new PersonalDataKeys(migrationConfig())).seal(events, query, true))!;
      const changed = rows.flatMap((r, i) => (sealed[i] === r.data ? [] : [{ position: r.position, data: sealed[i] }]));
      if (changed.length > 0)
        await q.query(
          `UPDATE events e SET data = v.data FROM jsonb_to_recordset($1::jsonb) AS v(position bigint, data jsonb)
            WHERE e.position = v.position`,
          [JSON.stringify(changed)],
        );
    }
    await q.query(`ALTER TABLE events ENABLE TRIGGER events_append_only`);
  }

  async down(): Promise<void> {
    // Sealed fields stay sealed: opening them back into the log would undo what the keys are for.
  }
}

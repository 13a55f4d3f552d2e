import { describe, expect, it } from '@jest/globals';
import { DataSource } from 'typeorm';
import { EventStore, ProjectionRegistry, ProjectionReplayer } from '#app/event-store';
import { SealPersonalData1763700027100 } from '../migrations/1763700027100-seal-personal-data.js';
import { contexts } from '../apps/common/core.js';
import { contextFixture } from './support/test-context.js';

/** Strings of one user's personal data, as a log written before issue 32 held them. */
const CLEAR = {
  email: 'zebedee.quux@example.org',
  displayName: 'Zebedee Quux',
  phone: '07700 900123',
  passwordHash: '$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo',
  description: 'Taxi to Kirkcaldy',
  notes: 'For the January fair',
  approval: 'Looks fine to me',
  fileName: 'receipt-of-zebedee.pdf',
  destination: 'zebedee.2fa@example.org',
};

/** Events with the old shape, in clear, as a log written before the sealing holds them. */
const OLD_LOG: [stream: string, type: string, data: Record<string, unknown>][] = [
  [
    'identity.Organisation-1',
    'identity.OrganisationProvisioned',
    { id: 1, slug: 'acme', name: 'Acme', timezone: 'Europe/London', features: [], settings: {} },
  ],
  [
    'identity.User-7',
    'identity.UserRegistered',
    {
      id: 7,
      organisationId: 1,
      email: CLEAR.email,
      passwordHash: CLEAR.passwordHash,
      displayName: CLEAR.displayName,
      title: 'Dr',
      phone: CLEAR.phone,
      status: 'active',
      twoFactor: null,
      totpSecret: null,
      permissions: [],
    },
  ],
  [
    'identity.User-8',
    'identity.UserRegistered',
    {
      id: 8,
      organisationId: 1,
      email: 'other@example.org',
      passwordHash: 'x',
      displayName: 'Other Person',
      title: null,
      phone: null,
      status: 'active',
      twoFactor: null,
      totpSecret: null,
      permissions: [],
    },
  ],
  [
    'identity.PreAuth-00000000-0000-4000-8000-000000000001',
    'identity.TwoFactorChallengeIssued',
    {
      id: '00000000-0000-4000-8000-000000000001',
      userId: 7,
      method: 'email',
      destination: CLEAR.destination,
      keyHash: 'h',
      sealedKey: 'v1.a.b.c',
      expiresAt: '2026-01-01T00:10:00.000Z',
    },
  ],
  [
    'expenses.Expense-3',
    'expenses.ExpenseRecorded',
    {
      id: 3,
      organisationId: 1,
      userId: 7,
      typeId: 1,
      rateId: null,
      roleId: null,
      amount: 12.5,
      description: CLEAR.description,
      submitted: null,
      date: '2026-01-02',
      miles: null,
      passengers: null,
    },
  ],
  [
    'expenses.Claim-4',
    'expenses.ClaimCreated',
    {
      id: 4,
      organisationId: 1,
      userId: 7,
      assignedTo: 8,
      roleId: null,
      amount: 12.5,
      notes: CLEAR.notes,
      expenseIds: [3],
    },
  ],
  // Before issue 32 a claim's approval did not name the claimant: the migration finds them in the stream.
  [
    'expenses.Claim-4',
    'expenses.ClaimApproved',
    { id: 4, organisationId: 1, approvedBy: 8, approvedAt: '2026-01-03T10:00:00.000Z', note: CLEAR.approval },
  ],
  [
    'files.File-5',
    'files.FileUploaded',
    {
      id: 5,
      organisationId: 1,
      ownerId: 7,
      storageKey: 'org-1/5',
      originalName: CLEAR.fileName,
      size: 10,
      mime: 'application/pdf',
      thumbnails: {},
    },
  ],
];

describe('migration: sealing the personal data already in the log', () => {
  const ctx = contextFixture({
    extra: contexts.domain,
    also: (app) => ({ replayer: app.get(ProjectionReplayer), registry: app.get(ProjectionRegistry) }),
  });

  /** Every projection's tables, rebuilt by a replay, as sorted JSON rows. */
  async function replayedTables(): Promise<Record<string, string[]>> {
    await ctx.replayer.replay([]);
    const tables = [...new Set(ctx.registry.all().flatMap((p) => p.tables))].sort();
    const out: Record<string, string[]> = {};
    for (const table of tables) {
      const rows: { r: string }[] = await ctx.ds.query(`SELECT to_jsonb(t)::text AS r FROM ${table} t`);
      out[table] = rows.map((r) => r.r).sort();
    }
    return out;
  }

  const logText = async () =>
    ((await ctx.ds.query(`SELECT string_agg(data::text, ' ') AS t FROM events`)) as { t: string }[])[0]!.t;

  it('seals every personal field in place, and a replay of every projection gives identical tables', async () => {
    const versions = new Map<string, number>();
    for (const [stream, type, data] of OLD_LOG) {
      const version = (versions.get(stream) ?? 0) + 1;
      versions.set(stream, version);
      await ctx.ds.query(
        `INSERT INTO events (event_id, stream_id, stream_version, type, schema_version, data, metadata, recorded_at)
         VALUES (gen_random_uuid(), $1, $2, $3, 1, $4::jsonb, '{}', '2026-01-03T12:00:00Z')`,
        [stream, version, type, JSON.stringify(data)],
      );
    }
    const before = await replayedTables();
    expect(before['users']!.join()).toContain(CLEAR.displayName);
    for (const s of Object.values(CLEAR)) expect(await logText()).toContain(s);

    const runner = ctx.app.get(DataSource).createQueryRunner();
    try {
      await runner.startTransaction();
      await new SealPersonalData1763700027100().up(runner);
      await runner.commitTransaction();
    } finally {
      await runner.release();
    }

    const text = await logText();
    for (const s of Object.values(CLEAR)) expect(text).not.toContain(s);
    expect(text).toContain('"$sealed"');
    expect(await replayedTables()).toEqual(before);
    const [created, approved] = await ctx.app.get(EventStore).readStream('expenses.Claim-4');
    expect([(created!.data as { notes: string }).notes, (approved!.data as { note: string }).note]).toEqual([
      CLEAR.notes,
      CLEAR.approval,
    ]);
    // The log stays append-only after it.
    await expect(ctx.ds.query(`UPDATE events SET data = '{}' WHERE stream_id = 'files.File-5'`)).rejects.toThrow(
      /append-only/,
    );
    // Run again: nothing left to seal, nothing changes.
    const sealedText = await logText();
    const again = ctx.app.get(DataSource).createQueryRunner();
    try {
      await new SealPersonalData1763700027100().up(again);
    } finally {
      await again.release();
    }
    expect(await logText()).toBe(sealedText);
  });
});

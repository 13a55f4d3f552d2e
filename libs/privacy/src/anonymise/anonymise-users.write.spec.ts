import { describe, expect, it } from '@jest/globals';
import type { StreamEvents, WriteQuery } from '#app/event-store';
import { evolveUser, identityGateOf, identityStreamOf } from '#app/identity';
import { registered as registeredEvent } from './anonymise.fixtures.js';
import { anonymisedIn, type AnonymiseReads, anonymiseUsersWrite } from './anonymise-users.write.js';

const registered = evolveUser(null, registeredEvent as never);
const NOW = Date.parse('2026-03-02T10:00:00.000Z');
const cancelled: StreamEvents = { streamId: 'rotas.Shift-9', events: [{ type: 'rotas.ShiftCancelled', data: {} }] };
const removed: StreamEvents = { streamId: 'expenses.Expense-3', events: [{ type: 'expenses.X', data: {} }] };
const shiftsPlan = { streams: {}, decide: (_: unknown, now: number) => (now === NOW ? [cancelled] : []) };
const seen: string[] = [];
const reads: AnonymiseReads = {
  destroyKeys: async (ids) => seen.push(`keys ${ids.join()}`),
  shiftsPlan: async (users, at) => (
    seen.push(`shifts ${users.map((u) => u.userId).join()} ${at.toISOString()}`),
    shiftsPlan
  ),
  attachmentRemovals: async (ids) => (seen.push(`attachments ${ids.join()}`), [removed]),
};
const anonymisation = {
  organisationId: 1,
  users: [{ id: 5, organisationId: 1, anonymisedAt: null }],
  requestedBy: 'manager' as const,
  actor: { type: 'system', name: 'test' } as never,
};

describe('anonymiseUsersWrite', () => {
  it('given no instant fixed by the caller, then the store instant, the gates of the users advanced', async () => {
    const write = anonymiseUsersWrite(anonymisation, reads);
    expect(await write.plan({ now: NOW, read: async () => ({}) as never })).toBe(NOW);
    expect(write.gates()).toEqual({ advance: [identityGateOf.user(5)] });
  });

  it('when the facts are read, then the keys go first, then the shifts as of the instant, then the attachments', async () => {
    seen.length = 0;
    await anonymiseUsersWrite(anonymisation, reads).facts({} as WriteQuery, NOW);
    expect(seen).toEqual(['keys 5', `shifts 5 ${new Date(NOW).toISOString()}`, 'attachments 5']);
  });

  it('given a registered user, then anonymised, their shifts ended and attachments removed, together', () => {
    const write = anonymiseUsersWrite(anonymisation, reads);
    const facts = { shiftsPlan, attachments: [removed] };
    expect(Object.keys(write.streams(NOW, facts))).toEqual(['user-5', 'expense-expenses.Expense-3']);
    const out = write.decide({ 'user-5': registered }, { plan: NOW, facts });
    expect(out.map((a) => a.streamId)).toEqual([identityStreamOf.user(5), cancelled.streamId, removed.streamId]);
    expect(anonymisedIn(out.flatMap((a) => a.events) as never)).toEqual([
      { id: 5, anonymised_at: new Date(NOW).toISOString() },
    ]);
  });

  it('given the user anonymised meanwhile, then nothing at all is appended', () => {
    const write = anonymiseUsersWrite(anonymisation, reads);
    const facts = { shiftsPlan, attachments: [removed] };
    const [done] = write.decide({ 'user-5': registered }, { plan: NOW, facts });
    const again = done!.events.reduce(evolveUser as never, registered);
    expect(write.decide({ 'user-5': again }, { plan: NOW, facts })).toEqual([]);
  });

  it('given an instant fixed by the caller, then that one', async () => {
    const at = new Date('2026-01-01T00:00:00Z');
    const write = anonymiseUsersWrite({ ...anonymisation, at }, reads);
    expect(await write.plan({ now: NOW, read: async () => ({}) as never })).toBe(at.getTime());
  });
});

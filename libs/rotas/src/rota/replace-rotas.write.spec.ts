import { describe, expect, it } from '@jest/globals';
import { ValidationError } from '#app/platform';
import { MAX_BULK_ROTAS } from '../domain/rota-rules.js';
import { mondaySlot, rotaSeven } from './rota.fixtures.js';
import { replaceRotasChange } from './replace-rotas.write.js';

const command = (rotaIds: number[], patternId = 5) => ({
  organisationId: 1,
  rotaIds,
  patternId,
  startDate: '2026-12-07',
});
const context = { today: '2026-11-20', manages: new Set([3]), pattern: null, timeslotIds: [] };
const pattern = { id: 5, timeslots: [mondaySlot('10:00', '12:00', 9)], archived: false };

describe('replaceRotasChange', () => {
  it('given ids listed twice, then each rota is read once; over the limit, none is read (the decision refuses the list)', () => {
    expect(replaceRotasChange(command([7, 7, 8]), context, 'Europe/London').rotaIds).toEqual([7, 8]);
    const many = Array.from({ length: MAX_BULK_ROTAS + 1 }, (_, i) => i + 1);
    expect(replaceRotasChange(command(many), context, 'Europe/London').rotaIds).toEqual([]);
  });

  it('given no pattern of the organisation, then 422 on pattern_id', () => {
    const change = replaceRotasChange(command([7]), context, 'Europe/London');
    expect(() => change.decide({ rotas: new Map([[7, rotaSeven()]]), teams: new Map() })).toThrow(ValidationError);
  });

  it('given a managed rota and a pattern, then the rota’s pattern is replaced from the start date', () => {
    const change = replaceRotasChange(command([7]), { ...context, pattern, timeslotIds: [300] }, 'Europe/London');
    const events = change.decide({ rotas: new Map([[7, rotaSeven()]]), teams: new Map() });
    expect(events.map((e) => e.type)).toEqual(['rotas.RotaPatternReplaced']);
  });
});

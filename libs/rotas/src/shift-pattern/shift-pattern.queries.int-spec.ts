import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { CommandBus } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { EventStore } from '#app/event-store';
import type { Caller, ProvisionResult } from '#app/identity';
import { bootStandalone, provision, TEST_PASSWORD } from '../../../../test/support/test-app.js';
import { testEnvironment, type TestEnvironment } from '../../../../test/support/test-config.js';
import { evolve } from '../rota/rota.js';
import { type RotaEvent, streamOf } from '../rotas.events.js';
import { ArchiveShiftPatternCommand } from './archive-shift-pattern.command.js';
import { CreateShiftPatternCommand } from './create-shift-pattern.command.js';
import { SHIFT_PATTERN_INCLUDES, ShiftPatternQueries } from './shift-pattern.queries.js';

/**
 * ShiftPatternQueries against PostgreSQL: what rota create and replace read of a pattern
 * (`forRota`), and a list whose includes cost the same few statements whatever the page size.
 */
describe('shift pattern queries', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let org: ProvisionResult;
  let caller: Caller;
  let queries: ShiftPatternQueries;
  const ids: number[] = [];

  beforeAll(async () => {
    env = await testEnvironment();
    app = await bootStandalone(env.config);
    ds = app.get(DataSource);
    queries = app.get(ShiftPatternQueries);
    org = await provision(app, {
      organisation: { name: 'Q', slug: 'q', timezone: 'Europe/London' },
      role_profiles: [{ key: 'p', name: 'P' }],
      categories: [{ key: 'c', name: 'C' }],
      teams: [
        { key: 'a', name: 'A' },
        { key: 'b', name: 'B', parent: 'a' },
      ],
      users: [
        {
          key: 'm',
          email: 'm@q.example',
          password: TEST_PASSWORD,
          display_name: 'm',
          permissions: ['manage-rotas'],
          roles: [{ team: 'a', role_profile: 'p' }],
        },
      ],
    });
    caller = {
      userId: org.users.m!,
      organisationId: org.organisation.id,
      permissions: new Set(['manage-rotas']),
      sessionId: 's',
      jti: 'j',
    };
    const slot = (hour: number) => ({
      weekday_start: 'monday',
      start_time: `${String(hour).padStart(2, '0')}:00`,
      weekday_end: 'monday',
      end_time: `${String(hour).padStart(2, '0')}:30`,
    });
    for (let i = 0; i < 6; i++) {
      ids.push(
        await app.get(CommandBus).execute(
          new CreateShiftPatternCommand(caller, {
            name: `P${i}`,
            max: 4,
            category: { id: org.categories.c },
            pattern: [slot(9 + i), slot(20)],
          }),
        ),
      );
    }
    await app.get(CommandBus).execute(new ArchiveShiftPatternCommand(caller, ids[5]!));
    // One rota per pattern, written to the log as rota create writes it (the rotas area's projection makes the rows).
    for (const [i, id] of ids.entries()) {
      const [drawn] = await ds.query(`SELECT nextval('rotas_rota_ids') AS rota`);
      const created: RotaEvent = {
        type: 'rotas.RotaCreated',
        data: {
          id: Number(drawn.rota),
          organisationId: org.organisation.id,
          teamId: i % 2 ? org.teams.a! : org.teams.b!,
          patternId: id,
          startDate: '2026-01-05',
          endDate: null,
          timeslots: [],
          name: `R${i}`,
          colour: '#000000',
          selfManage: false,
          allowSameDayAdd: true,
          allowSameDayCancel: false,
          allowSameDayEdit: false,
          restrictedByRole: false,
          roleProfileIds: [],
          requireFullTimeslot: false,
        },
      };
      await app
        .get(EventStore)
        .handle(streamOf.rota(Number(drawn.rota)), evolve, () => [created], { expect: 'no_stream' });
    }
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  it(
    'forRota gives the timeslots with their ids, in week order, and whether the pattern is archived; ' +
      'null for another organisation or an unknown id',
    async () => {
      const p0 = await queries.forRota(caller, ids[0]!);
      expect(p0).toEqual({
        id: ids[0],
        archived: false,
        timeslots: [
          {
            id: expect.any(Number),
            weekday_start: 'monday',
            start_time: '09:00',
            weekday_end: 'monday',
            end_time: '09:30',
            min: 1,
            ideal: 1,
            max: 4,
          },
          {
            id: expect.any(Number),
            weekday_start: 'monday',
            start_time: '20:00',
            weekday_end: 'monday',
            end_time: '20:30',
            min: 1,
            ideal: 1,
            max: 4,
          },
        ],
      });
      expect(p0!.timeslots[0]!.id).toBeLessThan(p0!.timeslots[1]!.id);
      expect(await queries.forRota(caller, ids[5]!)).toMatchObject({ id: ids[5], archived: true });
      expect(await queries.forRota({ organisationId: org.organisation.id + 1000 }, ids[0]!)).toBeNull();
      expect(await queries.forRota(caller, 987_654_321)).toBeNull();
    },
  );

  it('reads each include once for the page: the same number of statements for a page of 2 as of 5', async () => {
    const statements = async (perPage: number) => {
      const spy = jest.spyOn(ds, 'query');
      try {
        const { items, total } = await queries.list(
          caller,
          { archived: false },
          { page: 1, perPage, sort: 'teams', direction: 'asc', include: new Set(SHIFT_PATTERN_INCLUDES) },
        );
        expect(total).toBe(5);
        expect(items).toHaveLength(perPage);
        expect(
          items.every(
            (p) =>
              p.pattern!.length === 2 && p.category!.name === 'C' && p.teams!.length === 1 && p.rotas!.length === 1,
          ),
        ).toBe(true);
        // Only the list's own statements: the worker's pollers share the DataSource.
        return spy.mock.calls.filter(([text]) =>
          /shift_patterns|rotas r|teams|activity_categories|organisations/.test(String(text)),
        ).length;
      } finally {
        spy.mockRestore();
      }
    };
    expect(await statements(5)).toBe(await statements(2));
  });
});

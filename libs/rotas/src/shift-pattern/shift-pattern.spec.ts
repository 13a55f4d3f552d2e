import { describe, expect, it } from '@jest/globals';
import { ConflictError, NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { ShiftPatternEvent } from '../rotas.events.js';
import {
  type CreateContext,
  type CreateShiftPattern,
  decideArchive,
  decideCreate,
  evolve,
  patternStaffing,
  type ShiftPatternBody,
} from './shift-pattern.js';

const slot = (
  weekday_start: string,
  start_time: string,
  weekday_end: string,
  end_time: string,
  numbers: object = {},
) => ({ weekday_start, start_time, weekday_end, end_time, ...numbers });
const known: CreateContext = { categoryKnown: true };
const create = (body: ShiftPatternBody, timeslotIds: number[] = [101, 102]): CreateShiftPattern => ({
  id: 7,
  organisationId: 1,
  body,
  timeslotIds,
});
const body: ShiftPatternBody = {
  name: 'Weekday shop',
  min: 1,
  ideal: 2,
  max: 3,
  category: { id: 4 },
  // Sent out of week order: the pattern keeps them in week order.
  pattern: [
    slot('sunday', '22:00', 'monday', '06:00', { min: 0, ideal: 1, max: 1 }),
    slot('tuesday', '09:00', 'tuesday', '17:00'),
  ],
};
const created: ShiftPatternEvent = {
  type: 'rotas.ShiftPatternCreated',
  data: {
    id: 7,
    organisationId: 1,
    name: 'Weekday shop',
    min: 1,
    ideal: 2,
    max: 3,
    categoryId: 4,
    timeslots: [
      {
        id: 101,
        weekday_start: 'tuesday',
        start_time: '09:00',
        weekday_end: 'tuesday',
        end_time: '17:00',
        min: 1,
        ideal: 2,
        max: 3,
      },
      {
        id: 102,
        weekday_start: 'sunday',
        start_time: '22:00',
        weekday_end: 'monday',
        end_time: '06:00',
        min: 0,
        ideal: 1,
        max: 1,
      },
    ],
  },
};
const archived: ShiftPatternEvent = { type: 'rotas.ShiftPatternArchived', data: { id: 7, organisationId: 1 } };

describe('creating a shift pattern (docs/rota-domain.md#shift-patterns)', () => {
  const pattern = testDecider({ evolve, decide: decideCreate });

  it('given no pattern, when a valid one is created, then it is recorded with its timeslots in week order, each with an id drawn for it', () => {
    pattern.given([]).when(create(body), known).then([created]);
  });

  it('given a pattern with that id, when it is created again, then it is a conflict', () => {
    pattern.given([created]).when(create(body), known).thenThrows(ConflictError);
  });

  it('given no category (absent or null), then the pattern has none, whatever the lookup said', () => {
    const { category: _category, ...withoutCategory } = body;
    const none = { ...created, data: { ...created.data, categoryId: null } } as ShiftPatternEvent;
    pattern.given([]).when(create(withoutCategory), { categoryKnown: false }).then([none]);
    pattern
      .given([])
      .when(create({ ...body, category: null }), { categoryKnown: false })
      .then([none]);
  });

  it('given a category that is not one of the organisation, then it is a 422 on category.id; a malformed one on category', () => {
    pattern.given([]).when(create(body), { categoryKnown: false }).thenThrows(ValidationError, ['category.id']);
    for (const category of [4, 'x', [{ id: 4 }], { id: 0 }, { id: 4, name: 'x' }])
      pattern
        .given([])
        .when(create({ ...body, category }), known)
        .thenThrows(ValidationError, ['category']);
  });

  it('given a missing, blank, null, non-string or 256-character name, then it is a 422 on name; 255 characters are fine', () => {
    for (const name of [undefined, '', '   ', null, 5])
      pattern
        .given([])
        .when(create({ ...body, name }), known)
        .thenThrows(ValidationError, ['name']);
    pattern
      .given([])
      .when(create({ ...body, name: 'é'.repeat(256) }), known)
      .thenThrows(ValidationError, ['name']);
    expect(decideCreate(null, create({ ...body, name: 'é'.repeat(255) }), known)).toHaveLength(1);
  });

  it('given null for the pattern or its numbers, then each is a 422 (none of them is nullable)', () => {
    pattern
      .given([])
      .when(create({ ...body, min: null, ideal: null, max: null, pattern: null }), known)
      .thenThrows(ValidationError, ['min', 'ideal', 'max', 'pattern']);
  });

  it('given no pattern, an empty one, or more than 200 timeslots, then it is a 422 on pattern', () => {
    const many = Array.from({ length: 201 }, (_, i) =>
      slot(
        'monday',
        `${String(Math.floor(i / 60)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}`,
        'monday',
        '23:59',
      ),
    );
    for (const p of [undefined, [], many, 'x'])
      pattern
        .given([])
        .when(create({ ...body, pattern: p }), known)
        .thenThrows(ValidationError, ['pattern']);
  });

  it('given timeslots that overlap across the week’s wrap-around, end where they start, or carry unknown fields, then every one is named in one 422', () => {
    const bad = {
      ...body,
      name: '',
      pattern: [
        slot('sunday', '22:00', 'monday', '06:00'),
        slot('monday', '05:00', 'monday', '07:00'),
        slot('friday', '09:00', 'friday', '09:00'),
        { ...slot('saturday', '09:00', 'saturday', '10:00'), colour: 'red' },
        slot('someday', '25:00', 'saturday', '9am', { min: 3, ideal: 2 }),
      ],
    };
    pattern
      .given([])
      .when(create(bad), known)
      .thenThrows(ValidationError, [
        'name',
        'pattern.1',
        'pattern.2.end_time',
        'pattern.3.colour',
        'pattern.4.weekday_start',
        'pattern.4.start_time',
        'pattern.4.end_time',
        'pattern.4.min',
      ]);
  });

  it('given the pattern’s numbers out of order or max 0, then they are a 422 under their own names', () => {
    pattern
      .given([])
      .when(create({ ...body, min: 3, ideal: 2, max: 5 }), known)
      .thenThrows(ValidationError, ['min']);
    pattern
      .given([])
      .when(create({ ...body, min: 0, ideal: 0, max: 0 }), known)
      .thenThrows(ValidationError, ['max']);
    // A timeslot that would take a refused number has none to take (checkPattern names it too).
    pattern
      .given([])
      .when(create({ ...body, min: -1, ideal: 1.5, max: '3' }), known)
      .thenThrows(ValidationError, ['min', 'ideal', 'max', 'pattern.1.min', 'pattern.1.ideal', 'pattern.1.max']);
  });

  it('given ids drawn for another number of timeslots, then the handler is wrong and nothing is decided', () => {
    expect(() => decideCreate(null, create(body, [1]), known)).toThrow(/2 timeslots, 1 ids drawn/);
  });
});

describe('the pattern’s own numbers (decision: optional, defaulting to 1 within min ≤ ideal ≤ max)', () => {
  const numbers = (b: ShiftPatternBody) => patternStaffing(b).numbers;

  it('given none, then 1/1/1, which timeslots without numbers take', () => {
    expect(numbers({})).toEqual({ min: 1, ideal: 1, max: 1 });
    const [event] = decideCreate(
      null,
      create({ name: 'x', pattern: [slot('monday', '09:00', 'monday', '10:00')] }, [5]),
      known,
    );
    expect(event!.data).toMatchObject({ min: 1, ideal: 1, max: 1, timeslots: [{ id: 5, min: 1, ideal: 1, max: 1 }] });
  });

  it('given some, then the others default to 1 moved only as far as order needs', () => {
    expect(numbers({ max: 5 })).toEqual({ min: 1, ideal: 1, max: 5 });
    expect(numbers({ min: 3 })).toEqual({ min: 3, ideal: 3, max: 3 });
    expect(numbers({ ideal: 0 })).toEqual({ min: 0, ideal: 0, max: 1 });
    expect(numbers({ ideal: 4 })).toEqual({ min: 1, ideal: 4, max: 4 });
    expect(numbers({ min: 2, max: 6 })).toEqual({ min: 2, ideal: 2, max: 6 });
    expect(numbers({ min: 0 })).toEqual({ min: 0, ideal: 1, max: 1 });
  });

  it('given a wrong number, then it stays as sent for the rules to refuse', () => {
    expect(numbers({ min: 'x' })).toEqual({ min: 'x', ideal: 1, max: 1 });
  });
});

describe('archiving a shift pattern', () => {
  const pattern = testDecider({ evolve, decide: decideArchive });

  it('given a pattern, when it is archived, then it is recorded as archived', () => {
    pattern.given([created]).when({ organisationId: 1 }).then([archived]);
  });

  it('given an archived pattern, when it is archived again, then nothing changes (a repeated DELETE is a 204 that records nothing)', () => {
    pattern.given([created, archived]).when({ organisationId: 1 }).then([]);
  });

  it('given no pattern, or one of another organisation, then it is not found', () => {
    pattern.given([]).when({ organisationId: 1 }).thenThrows(NotFoundError, 'Shift pattern not found');
    pattern.given([created]).when({ organisationId: 2 }).thenThrows(NotFoundError);
  });
});

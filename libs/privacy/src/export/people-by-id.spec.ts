import { describe, expect, it } from '@jest/globals';
import { peopleById } from './people-by-id.js';

const base = (id: number) => ({
  id,
  display_name: `User ${id}`,
  title: null,
  profile_photo_url: null,
  can_manage: false,
  role_name: 'Shop',
  team_name: 'North',
  status: { id: 'active', name: 'Active', contactable: true },
});

describe('peopleById', () => {
  it('given records naming the subject and others, then others become { id } and the subject stays whole', () => {
    const shift = {
      id: 1,
      user: base(7),
      attendance: { status: 'attended', recorded_by: base(12) },
      team: { id: '3' },
    };
    expect(peopleById([shift], 7)).toEqual([
      { id: 1, user: base(7), attendance: { status: 'attended', recorded_by: { id: 12 } }, team: { id: '3' } },
    ]);
  });

  it('given objects that are not user summaries (ids, teams, nulls, dates), then they are left as they are', () => {
    const claim = { id: 4, user_id: 7, assigned_to_id: 12, approved_by_id: null, team: { id: 5, name: 'North' } };
    expect(peopleById({ claims: [claim], n: 0, s: 'x' }, 7)).toEqual({ claims: [claim], n: 0, s: 'x' });
  });
});

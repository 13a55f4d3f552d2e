import { describe, expect, it } from '@jest/globals';
import { validateProvisioningFile } from './provisioning-file.js';
import { checkSettings, provisionWrite } from './provision.write.js';

const file = validateProvisioningFile({
  organisation: { name: 'Riverside', slug: 'riverside', timezone: 'Europe/London', features: [] },
  role_profiles: [{ key: 'shop', name: 'Shop volunteer' }],
  categories: [{ key: 'retail', name: 'Retail' }],
  teams: [
    { key: 'north', name: 'North region' },
    { key: 'north-shop', name: 'North shop', parent: 'north' },
  ],
  users: [
    {
      key: 'alice',
      email: 'alice@riverside.example',
      password: 'correct horse battery staple',
      display_name: 'Alice',
      permissions: ['manage-organisation'],
      roles: [{ team: 'north-shop', role_profile: 'shop' }],
    },
  ],
}).file!;
const IDS = { organisation: 5, teams: [10, 11], roleProfiles: [20], categories: [30], users: [40], roles: [[50]] };
const SECRETS = { hashes: ['hash'], sealedTotpSecrets: [null] };

describe('provisionWrite', () => {
  it('given a valid file and its drawn ids, then one new stream per record, nothing read, no retry', () => {
    const write = provisionWrite(file, IDS, SECRETS);
    const appends = write.decide();
    expect(appends.map((a) => a.streamId)).toEqual(Object.keys(write.streams()));
    expect(Object.values(write.streams()).every((s) => s.expect === 'no_stream')).toBe(true);
    expect(appends.map((a) => a.events[0]!.type)).toEqual([
      'identity.OrganisationProvisioned',
      'identity.TeamCreated',
      'identity.TeamCreated',
      'identity.RoleProfileCreated',
      'identity.ActivityCategoryCreated',
      ...appends.slice(5).map((a) => a.events[0]!.type),
    ]);
    expect(write.retries).toBe(0);
    expect(write.metadata.organisationId).toBe(5);
  });

  it('when a team names its parent by key, then the parent is its drawn id', () => {
    const team = provisionWrite(file, IDS, SECRETS)
      .decide()
      .find((a) => (a.events[0]!.data as { id?: number }).id === 11 && a.events[0]!.type === 'identity.TeamCreated');
    expect(team!.events[0]!.data).toMatchObject({ parentId: 10, organisationId: 5 });
  });

  it('then the result maps every key to its id', () => {
    expect(provisionWrite(file, IDS, SECRETS).result).toEqual({
      organisation: { id: 5, slug: 'riverside' },
      teams: { north: 10, 'north-shop': 11 },
      role_profiles: { shop: 20 },
      categories: { retail: 30 },
      users: { alice: 40 },
      roles: { alice: [50] },
    });
  });
});

describe('checkSettings', () => {
  it('given no settings, then no problem even without a policy', () => {
    expect(checkSettings({}, undefined)).toEqual({ problems: [], prepared: {} });
  });

  it('given settings but no policy in this process, then one problem on organisation.settings', () => {
    expect(checkSettings({ a: 1 }, undefined).problems).toEqual([
      { path: ['organisation', 'settings'], message: 'this process cannot apply organisation settings' },
    ]);
  });

  it('given a policy, then each setting is asked alone and its problems named by it, prefix dropped', () => {
    const policy = {
      prepare: (s: Record<string, unknown>) =>
        'bad' in s ? { problems: ['bad: is wrong'], settings: {} } : { problems: [], settings: s },
    };
    expect(checkSettings({ good: 1, bad: 2 }, policy as never)).toEqual({
      problems: [{ path: ['organisation', 'settings', 'bad'], message: 'is wrong' }],
      prepared: { good: 1 },
    });
  });
});

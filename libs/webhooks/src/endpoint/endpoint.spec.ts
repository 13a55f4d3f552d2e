import { describe, it } from '@jest/globals';
import { NotFoundError, testDecider, ValidationError } from '#app/platform';
import type { EndpointEvent } from '../webhooks.events.js';
import { decideCreate, decideDelete, decideRotate, decideUpdate, evolve } from './endpoint.js';

const settings = { url: 'https://hooks.example/uvol', events: ['shift.booked'], description: '', enabled: true };
const created: EndpointEvent = {
  type: 'webhooks.EndpointCreated',
  data: { id: 4, organisationId: 1, ...settings, sealedSecret: 'v1.s' },
};
const deleted: EndpointEvent = { type: 'webhooks.EndpointDeleted', data: { id: 4, organisationId: 1 } };
const now = '2026-05-01T10:00:00.000Z';

describe('webhook endpoint: create', () => {
  const create = testDecider({ evolve, decide: decideCreate });
  const command = (s: Partial<typeof settings>) => ({
    id: 4,
    organisationId: 1,
    settings: { ...settings, ...s },
    sealedSecret: 'v1.s',
  });

  it('given nothing, when created with an https url and known events, then EndpointCreated carries the sealed secret', () => {
    create.given([]).when(command({})).then([created]);
  });
  it('given nothing, when the url is not http(s) or too long, then a 422 names url', () => {
    create
      .given([])
      .when(command({ url: 'ftp://hooks.example/' }))
      .thenThrows(ValidationError, ['url']);
    create
      .given([])
      .when(command({ url: 'not a url' }))
      .thenThrows(ValidationError, ['url']);
    create
      .given([])
      .when(command({ url: `https://h.example/${'a'.repeat(2040)}` }))
      .thenThrows(ValidationError, ['url']);
  });
  it('given nothing, when events is empty, names an unknown type or mixes "*" with names, then a 422 names events', () => {
    create
      .given([])
      .when(command({ events: [] }))
      .thenThrows(ValidationError, ['events']);
    create
      .given([])
      .when(command({ events: ['shift.exploded'] }))
      .thenThrows(ValidationError, ['events']);
    create
      .given([])
      .when(command({ events: ['*', 'ping'] }))
      .thenThrows(ValidationError, ['events']);
  });
  it('given nothing, when events is ["*"], then it is accepted', () => {
    create
      .given([])
      .when(command({ events: ['*'] }))
      .then([{ ...created, data: { ...created.data, events: ['*'] } } as EndpointEvent]);
  });
});

describe('webhook endpoint: update', () => {
  const update = testDecider({ evolve, decide: decideUpdate });

  it('given an endpoint, when some settings change, then EndpointChanged carries only those', () => {
    update
      .given([created])
      .when({ organisationId: 1, changes: { enabled: false, url: settings.url } })
      .then([{ type: 'webhooks.EndpointChanged', data: { id: 4, organisationId: 1, changes: { enabled: false } } }]);
  });
  it('given an endpoint, when nothing changes, then nothing is recorded', () => {
    update
      .given([created])
      .when({ organisationId: 1, changes: { events: ['shift.booked'] } })
      .then([]);
  });
  it('given another organisation’s or a deleted endpoint, when updated, then it is not found', () => {
    update
      .given([created])
      .when({ organisationId: 2, changes: { enabled: false } })
      .thenThrows(NotFoundError);
    update
      .given([created, deleted])
      .when({ organisationId: 1, changes: { enabled: false } })
      .thenThrows(NotFoundError);
  });
  it('given an endpoint, when the new events name an unknown type, then a 422 names events', () => {
    update
      .given([created])
      .when({ organisationId: 1, changes: { events: ['nope'] } })
      .thenThrows(ValidationError, ['events']);
  });
});

describe('webhook endpoint: rotate and delete', () => {
  const rotate = testDecider({ evolve, decide: decideRotate });
  const remove = testDecider({ evolve, decide: decideDelete });

  it('given an endpoint, when its secret rotates, then the old one keeps signing for 24 hours', () => {
    rotate
      .given([created])
      .when({ organisationId: 1, sealedSecret: 'v1.n', previousSealedSecret: 'v1.s' }, { now })
      .then([
        {
          type: 'webhooks.EndpointSecretRotated',
          data: {
            id: 4,
            organisationId: 1,
            sealedSecret: 'v1.n',
            previousSealedSecret: 'v1.s',
            previousUntil: '2026-05-02T10:00:00.000Z',
          },
        },
      ]);
  });
  it('given another organisation’s endpoint, when rotated, then it is not found', () => {
    rotate
      .given([created])
      .when({ organisationId: 2, sealedSecret: 'x', previousSealedSecret: 'y' }, { now })
      .thenThrows(NotFoundError);
  });
  it('given an endpoint, when deleted, then EndpointDeleted; deleted again, not found', () => {
    remove.given([created]).when({ organisationId: 1 }).then([deleted]);
    remove.given([created, deleted]).when({ organisationId: 1 }).thenThrows(NotFoundError);
  });
});

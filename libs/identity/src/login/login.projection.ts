import { Injectable } from '@nestjs/common';
import { AsProjection, defineProjection, op } from '#app/event-store';
import type { UserAnonymisedEvent } from '../directory/directory.events.js';
import type { PreAuthEvent, SessionEvent } from './login.events.js';

/** Pre-authentication tokens by hash (to find their stream) and sessions (checked on every request). */
@AsProjection()
@Injectable()
export class LoginProjection extends defineProjection<PreAuthEvent | SessionEvent | UserAnonymisedEvent>({
  name: 'identity.login',
  version: 1,
  tables: ['pre_auth_tokens', 'sessions'],
  on: {
    'identity.PreAuthTokenIssued': ({ data: d }) => [
      op.upsert('pre_auth_tokens', ['id'], {
        id: d.id,
        token_hash: d.tokenHash,
        user_id: d.userId,
        organisation_id: d.organisationId,
        two_factor: d.twoFactor,
        expires_at: d.expiresAt,
        status: 'pending',
        failures: 0,
      }),
    ],
    // The challenge goes out through the outbox (TwoFactorMessagesReactor); no table shows it.
    'identity.TwoFactorChallengeIssued': null,
    'identity.TwoFactorKeyRejected': ({ data: d }) => [
      op.update('pre_auth_tokens', { id: d.id }, { failures: d.failures }),
    ],
    'identity.PreAuthTokenBurned': ({ data: d }) => [op.update('pre_auth_tokens', { id: d.id }, { status: 'burned' })],
    'identity.PreAuthTokenRedeemed': ({ data: d }) => [
      op.update('pre_auth_tokens', { id: d.id }, { status: 'redeemed' }),
    ],
    'identity.SessionStarted': ({ data: d }) => [
      op.upsert('sessions', ['id'], {
        id: d.id,
        user_id: d.userId,
        organisation_id: d.organisationId,
        current_jti: d.jti,
        issued_at: d.issuedAt,
        revoked_at: null,
        revoked_reason: null,
      }),
    ],
    'identity.TokenRefreshed': ({ data: d }) => [op.update('sessions', { id: d.id }, { current_jti: d.jti })],
    'identity.SessionRevoked': ({ data: d, recordedAt }) => [
      op.update('sessions', { id: d.id }, { revoked_at: recordedAt, revoked_reason: d.reason }),
    ],
    // docs/privacy.md#anonymising-a-user: every log-in of theirs ends (JWT, refresh) and no pending
    // pre-authentication token or magic link can be redeemed.
    'identity.UserAnonymised': ({ data: d, recordedAt }) => [
      op.update('sessions', { user_id: d.userId }, { revoked_at: recordedAt, revoked_reason: 'anonymised' }),
      op.update('pre_auth_tokens', { user_id: d.userId, status: 'pending' }, { status: 'burned' }),
    ],
  },
}) {}

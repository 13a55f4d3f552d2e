import { Injectable } from '@nestjs/common';
import { AsProjection, op, type Projection, type ProjectionOp, type StoredEvent } from '#app/event-store';
import type { PreAuthEvent, SessionEvent } from './login.events.js';

/** Pre-authentication tokens by hash (to find their stream) and sessions (checked on every request). */
@AsProjection()
@Injectable()
export class LoginProjection implements Projection {
  readonly name = 'identity.login';
  readonly version = 1;
  readonly tables = ['pre_auth_tokens', 'sessions'];
  readonly handles = [
    'identity.PreAuthTokenIssued',
    'identity.TwoFactorKeyRejected',
    'identity.PreAuthTokenBurned',
    'identity.PreAuthTokenRedeemed',
    'identity.SessionStarted',
    'identity.TokenRefreshed',
    'identity.SessionRevoked',
  ];

  project(stored: StoredEvent): ProjectionOp[] {
    const e = stored as unknown as PreAuthEvent | SessionEvent;
    switch (e.type) {
      case 'identity.PreAuthTokenIssued': {
        const d = e.data;
        return [op.upsert('pre_auth_tokens', ['id'], { id: d.id, token_hash: d.tokenHash, user_id: d.userId, organisation_id: d.organisationId, two_factor: d.twoFactor, expires_at: d.expiresAt, status: 'pending', failures: 0 })];
      }
      case 'identity.TwoFactorKeyRejected':
        return [op.update('pre_auth_tokens', { id: e.data.id }, { failures: e.data.failures })];
      case 'identity.PreAuthTokenBurned':
        return [op.update('pre_auth_tokens', { id: e.data.id }, { status: 'burned' })];
      case 'identity.PreAuthTokenRedeemed':
        return [op.update('pre_auth_tokens', { id: e.data.id }, { status: 'redeemed' })];
      case 'identity.SessionStarted': {
        const d = e.data;
        return [op.upsert('sessions', ['id'], { id: d.id, user_id: d.userId, organisation_id: d.organisationId, current_jti: d.jti, issued_at: d.issuedAt, revoked_at: null, revoked_reason: null })];
      }
      case 'identity.TokenRefreshed':
        return [op.update('sessions', { id: e.data.id }, { current_jti: e.data.jti })];
      case 'identity.SessionRevoked':
        return [op.update('sessions', { id: e.data.id }, { revoked_at: stored.recordedAt, revoked_reason: e.data.reason })];
      default:
        return [];
    }
  }
}

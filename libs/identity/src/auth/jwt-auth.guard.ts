import { type ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { DomainError, ForbiddenError, InvalidTokenError, PUBLIC_ROUTE } from '#app/platform';
import type { Caller } from './caller.js';
import { REQUIRED_PERMISSIONS } from './decorators.js';

/** A bearer token as passport-jwt reads one (`ExtractJwt.fromAuthHeaderAsBearerToken`). */
const BEARER = /^bearer\s+\S/i;

/** Global: every route needs a live JWT unless marked @Public(); @RequirePermission adds a 403 check. */
@Injectable()
export class JwtAuthGuard extends AuthGuard('jwt') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets)) return true;
    await super.canActivate(context);
    const required = this.reflector.getAllAndOverride<string[]>(REQUIRED_PERMISSIONS, targets) ?? [];
    const caller = context.switchToHttp().getRequest<{ user: Caller }>().user;
    const missing = required.filter((p) => !caller.permissions.has(p));
    if (missing.length) throw new ForbiddenError(`This action needs the ${missing.join(', ')} permission.`);
    return true;
  }

  /**
   * passport-jwt reports a bad, expired or revoked token as "no user" and everything else (the
   * sessions table not answering) as `err`: only the first is a 401. The rest goes to the global
   * filter, so a database outage is a 503 (docs/http-conventions.md#dependency-outages). A request
   * that sent a bearer token is told the token is invalid (RFC 6750 3.1); one that sent none is not.
   */
  override handleRequest<T>(err: unknown, user: T, _info: unknown, context: ExecutionContext): T {
    if (err) throw err;
    if (user) return user;
    const { authorization } = context.switchToHttp().getRequest<{ headers: Record<string, unknown> }>().headers;
    throw typeof authorization === 'string' && BEARER.test(authorization)
      ? new InvalidTokenError()
      : new DomainError('unauthorized', 'Unauthenticated.');
  }
}

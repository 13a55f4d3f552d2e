import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The authenticated user of a request, as the JWT guard found it (current permissions, not the token's). */
export interface Caller {
  readonly userId: number;
  readonly organisationId: number;
  readonly permissions: ReadonlySet<string>;
  readonly sessionId: string;
  readonly jti: string;
  /** The request's id (X-Request-Id, or one made for it), set as the JWT is checked: the correlation of the events it causes. */
  readonly requestId?: string;
  /**
   * What the log-in check read with the session, so the request's rules read the caller's standing
   * once (issue 33): absent where a caller is made otherwise (the worker, tests), and then read on demand.
   */
  readonly standing?: CallerStanding;
}

/** The caller's organisation and standing, as the JWT check read them in its one statement. */
export interface CallerStanding {
  readonly timezone: string;
  readonly features: readonly string[];
  /** The caller's status is `on_hold`. */
  readonly onHold: boolean;
  /** Teams the caller sees: those they hold a role in, and every team below them (Teams.seenBy). */
  readonly seen: readonly number[];
}

/** `@CurrentCaller() caller: Caller` in a controller method. */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Caller => ctx.switchToHttp().getRequest<{ user: Caller }>().user,
);

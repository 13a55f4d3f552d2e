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
}

/** `@CurrentCaller() caller: Caller` in a controller method. */
export const CurrentCaller = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Caller => ctx.switchToHttp().getRequest<{ user: Caller }>().user,
);

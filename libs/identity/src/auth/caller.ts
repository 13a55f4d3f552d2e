import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/** The authenticated user of a request, as the JWT guard found it (current permissions, not the token's). */
export interface Caller {
  readonly userId: number;
  readonly organisationId: number;
  readonly permissions: ReadonlySet<string>;
  readonly sessionId: string;
  readonly jti: string;
}

/** `@CurrentCaller() caller: Caller` in a controller method. */
export const CurrentCaller = createParamDecorator((_: unknown, ctx: ExecutionContext): Caller => ctx.switchToHttp().getRequest<{ user: Caller }>().user);

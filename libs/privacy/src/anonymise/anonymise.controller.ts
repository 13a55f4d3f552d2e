import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { DataSource } from 'typeorm';
import { userActor } from '#app/event-store';
import { type Caller, CurrentCaller, Hierarchy, PasswordCheck, subjectIn } from '#app/identity';
import { ConflictError, ForbiddenError, NotFoundError, pathId, ValidationError } from '#app/platform';
import { type AnonymisedUser, AnonymiseUsersCommand } from './anonymise-users.command.js';
import type { AnonymisedUserDto } from './anonymise.dto.js';
import { AnonymiseDocs } from './anonymise.openapi.js';

const ALREADY = 'The user is anonymised already.';

/** docs/privacy.md#anonymising-a-user: a user's own request, and a data-protection officer's. */
@AnonymiseDocs.controller()
@Controller('api/users')
export class AnonymiseController {
  constructor(
    private readonly commands: CommandBus,
    private readonly hierarchy: Hierarchy,
    private readonly passwords: PasswordCheck,
    private readonly dataSource: DataSource,
  ) {}

  @Post('me/anonymise')
  @HttpCode(200)
  @AnonymiseDocs.self()
  async self(
    @CurrentCaller() caller: Caller,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<{ data: AnonymisedUserDto }> {
    const password = (body as { password?: unknown } | null | undefined)?.password;
    if (typeof password !== 'string' || password === '')
      throw new ValidationError({ password: ['Give your password.'] });
    if (!(await this.passwords.matches(caller.userId, password, req.ip)))
      throw new ValidationError({ password: ['The password is wrong.'] });
    return { data: await this.anonymise(caller, caller.userId, 'self') };
  }

  @Post(':id/anonymise')
  @HttpCode(200)
  @AnonymiseDocs.user()
  async user(@CurrentCaller() caller: Caller, @Param('id') raw: string): Promise<{ data: AnonymisedUserDto }> {
    const id = pathId(raw, 'User');
    const subject = await subjectIn(this.dataSource, caller.organisationId, id);
    if (!subject) throw new NotFoundError('User');
    if (id === caller.userId)
      throw new ValidationError({ id: ['That is you: ask with POST /api/users/me/anonymise and your password.'] });
    if (!(await this.hierarchy.canManage(caller, id, 'manage-data-protection'))) throw new ForbiddenError();
    if (subject.anonymisedAt) throw new ConflictError(ALREADY);
    return { data: await this.anonymise(caller, id, 'manager') };
  }

  private async anonymise(caller: Caller, id: number, requestedBy: 'self' | 'manager'): Promise<AnonymisedUser> {
    const [done]: AnonymisedUser[] = await this.commands.execute(
      new AnonymiseUsersCommand({ userIds: [id], requestedBy, actor: userActor(caller.userId) }),
    );
    // Another request anonymised them between the check and the write.
    if (!done) throw new ConflictError(ALREADY);
    return done;
  }
}

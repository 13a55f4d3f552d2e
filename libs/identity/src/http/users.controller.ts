import { Controller, Get, Param } from '@nestjs/common';
import { NotFoundError, pathId } from '#app/platform';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { UserBases } from '../hierarchy/user-base.js';
import { CurrentUserDto, UserBaseDto } from './user.responses.js';
import { UsersDocs } from './users.openapi.js';

/** Not in the interface spec: lets a client show who is logged in, and name a user it holds the id of. */
@UsersDocs.controller()
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UserBases) {}

  @Get('me')
  @UsersDocs.me()
  async me(@CurrentCaller() caller: Caller): Promise<{ data: CurrentUserDto }> {
    const user = (await this.users.of(caller, [caller.userId], 'any')).get(caller.userId);
    if (!user) throw new NotFoundError('User');
    return { data: { ...user, permissions: [...caller.permissions].sort() } };
  }

  @Get(':id')
  @UsersDocs.get()
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ data: UserBaseDto }> {
    const userId = pathId(id, 'User');
    const user = (await this.users.of(caller, [userId], 'any')).get(userId);
    if (!user) throw new NotFoundError('User');
    return { data: user };
  }
}

import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { NotFoundError, pathId } from '#app/platform';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { UserBases } from '../hierarchy/user-base.js';

/** Not in the interface spec: lets a client show who is logged in, and name a user it holds the id of. */
@ApiTags('users')
@ApiBearerAuth()
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UserBases) {}

  @Get('me')
  @ApiOperation({ summary: 'The caller as a UserBase, with its permissions' })
  async me(@CurrentCaller() caller: Caller) {
    const user = (await this.users.of(caller, [caller.userId], 'any')).get(caller.userId);
    if (!user) throw new NotFoundError('User');
    return { data: { ...user, permissions: [...caller.permissions].sort() } };
  }

  @Get(':id')
  @ApiOperation({ summary: 'One user of the caller’s organisation as a UserBase' })
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string) {
    const userId = pathId(id, 'User');
    const user = (await this.users.of(caller, [userId], 'any')).get(userId);
    if (!user) throw new NotFoundError('User');
    return { data: user };
  }
}

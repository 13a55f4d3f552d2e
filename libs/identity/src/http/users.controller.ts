import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiData, ApiErrors, ApiIdParam, NotFoundError, pathId } from '#app/platform';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { UserBases } from '../hierarchy/user-base.js';
import { CurrentUserDto, UserBaseDto } from './user.responses.js';

/** Not in the interface spec: lets a client show who is logged in, and name a user it holds the id of. */
@ApiTags('users')
@ApiBearerAuth()
@Controller('api/users')
export class UsersController {
  constructor(private readonly users: UserBases) {}

  @Get('me')
  @ApiOperation({
    summary: 'The caller as a UserBase, with its permissions',
    description:
      'Not in the interface spec. Permission: any logged-in user. `can_manage`: whether any of the caller’s permissions reaches its own team.',
  })
  @ApiData(CurrentUserDto)
  @ApiErrors(400, 401, 404, 406, { 404: 'The caller’s user no longer exists.' })
  async me(@CurrentCaller() caller: Caller): Promise<{ data: CurrentUserDto }> {
    const user = (await this.users.of(caller, [caller.userId], 'any')).get(caller.userId);
    if (!user) throw new NotFoundError('User');
    return { data: { ...user, permissions: [...caller.permissions].sort() } };
  }

  @Get(':id')
  @ApiOperation({
    summary: 'One user of the caller’s organisation as a UserBase',
    description:
      'Not in the interface spec. Permission: any logged-in user; `can_manage` says whether the caller manages the user through any permission. A user of another organisation is a 404.',
  })
  @ApiIdParam('id', 'User id')
  @ApiData(UserBaseDto)
  @ApiErrors(400, 401, 404, 406)
  async get(@CurrentCaller() caller: Caller, @Param('id') id: string): Promise<{ data: UserBaseDto }> {
    const userId = pathId(id, 'User');
    const user = (await this.users.of(caller, [userId], 'any')).get(userId);
    if (!user) throw new NotFoundError('User');
    return { data: user };
  }
}

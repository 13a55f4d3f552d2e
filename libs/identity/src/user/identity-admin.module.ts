import { Module } from '@nestjs/common';
import { PasswordHasher } from '../login/password-hasher.js';
import { AddUsersHandler } from './add-users.command.js';
import { GrantPermissionsHandler } from './grant-permissions.command.js';
import { HoldUserHandler } from './hold-user.command.js';
import { ReleaseUserHandler } from './release-user.command.js';
import { RevokePermissionsHandler } from './revoke-permissions.command.js';

/**
 * The administrators' commands on users after provisioning (`users:add`, `users:grant`,
 * `users:revoke`, `users:hold`, `users:release`). Only the command line loads them: no route
 * executes them. Their events are the directory's, projected by IdentityModule's projections.
 */
@Module({
  providers: [
    PasswordHasher,
    AddUsersHandler,
    GrantPermissionsHandler,
    RevokePermissionsHandler,
    HoldUserHandler,
    ReleaseUserHandler,
  ],
})
export class IdentityAdminModule {}

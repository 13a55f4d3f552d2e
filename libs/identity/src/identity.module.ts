import { createSecretKey } from 'node:crypto';
import { Module } from '@nestjs/common';
import { JwtModule } from '@nestjs/jwt';
import { APP_CONFIG, type AppConfig } from '#app/platform';
import { DirectoryProjection } from './directory/directory.projection.js';
import { Hierarchy } from './hierarchy/hierarchy.js';
import { OrganisationFactsReader } from './hierarchy/organisation-facts.js';
import { UserAccounts } from './hierarchy/user-accounts.js';
import { Teams } from './hierarchy/teams.js';
import { Roles } from './hierarchy/roles.js';
import { UserBases } from './hierarchy/user-base.js';
import { CreateJwtHandler } from './login/create-jwt.command.js';
import { IssuePreAuthTokenHandler } from './login/issue-pre-auth-token.command.js';
import { JwtTokens } from './login/jwt-tokens.js';
import { LoginProjection } from './login/login.projection.js';
import { LogoutHandler } from './login/logout.command.js';
import { PasswordCheck } from './login/password-check.js';
import { PasswordHasher } from './login/password-hasher.js';
import { RefreshJwtHandler } from './login/refresh-jwt.command.js';
import { MessagePurgeReactor } from './messages/message-purge.reactor.js';
import { TwoFactorMessagesReactor } from './messages/two-factor-messages.reactor.js';
import { ProvisionHandler } from './provisioning/provision.command.js';
import { PersonalDataOfUsers } from './privacy/personal-data.js';
// Declares which fields of identity's events are whose personal data (sealed in the log).
import './identity.personal-data.js';

/** The identity context's domain: commands, projections and the queries other contexts use. */
@Module({
  imports: [
    JwtModule.registerAsync({
      inject: [APP_CONFIG],
      // A KeyObject spares jsonwebtoken a failed public-key parse on every sign and verify.
      useFactory: (config: AppConfig) => ({
        secret: createSecretKey(Buffer.from(config.auth.jwtSecret)) as never,
        signOptions: { algorithm: 'HS256' },
        verifyOptions: { algorithms: ['HS256'] },
      }),
    }),
  ],
  providers: [
    PasswordHasher,
    PasswordCheck,
    JwtTokens,
    Hierarchy,
    UserBases,
    Roles,
    Teams,
    OrganisationFactsReader,
    PersonalDataOfUsers,
    UserAccounts,
    DirectoryProjection,
    LoginProjection,
    ProvisionHandler,
    IssuePreAuthTokenHandler,
    CreateJwtHandler,
    RefreshJwtHandler,
    LogoutHandler,
    // Reactors are known everywhere (projections:status lists them); only the worker runs them.
    TwoFactorMessagesReactor,
    MessagePurgeReactor,
  ],
  exports: [
    Hierarchy,
    UserBases,
    Roles,
    Teams,
    OrganisationFactsReader,
    UserAccounts,
    JwtTokens,
    PersonalDataOfUsers,
    PasswordCheck,
  ],
})
export class IdentityModule {}

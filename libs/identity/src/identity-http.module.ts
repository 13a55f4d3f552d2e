import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { JwtAuthGuard } from './auth/jwt-auth.guard.js';
import { JwtStrategy } from './auth/jwt.strategy.js';
import { AddressRateLimit } from './http/address-rate-limit.js';
import { AuthController } from './http/auth.controller.js';
import { MagicLinkController } from './http/magic-link.controller.js';
import { UsersController } from './http/users.controller.js';
import { IdentityModule } from './identity.module.js';

/** Log-in routes and the global JWT guard every other controller relies on. */
@Module({
  imports: [IdentityModule, PassportModule],
  controllers: [AuthController, MagicLinkController, UsersController],
  providers: [JwtStrategy, AddressRateLimit, { provide: APP_GUARD, useClass: JwtAuthGuard }],
})
export class IdentityHttpModule {}

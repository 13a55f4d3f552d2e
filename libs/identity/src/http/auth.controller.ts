import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiOkResponse, ApiOperation, ApiTags, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { Public } from '#app/platform';
import { AddressRateLimited } from './address-rate-limit.js';
import { CreateJwtCommand } from '../login/create-jwt.command.js';
import { IssuePreAuthTokenCommand } from '../login/issue-pre-auth-token.command.js';
import { LogoutCommand } from '../login/logout.command.js';
import { RefreshJwtCommand } from '../login/refresh-jwt.command.js';
import { CreateJwtBody, JwtResponse, PreAuthTokenBody, PreAuthTokenResponse, RefreshJwtBody } from './auth.dto.js';

@ApiTags('authentication')
@Controller('auth/api')
export class AuthController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post('pre-auth-token')
  @HttpCode(200)
  @AddressRateLimited('login')
  @ApiOperation({
    summary: 'Create pre-authentication token',
    description:
      'Rate limited (429 with Retry-After): AUTH_RATE_LIMIT attempts a minute for one account from one client address, twenty times that per 15 minutes ' +
      'for one account from anywhere, and AUTH_RATE_LIMIT_PER_ADDRESS requests a minute from one address, refused bodies included. ' +
      'The response names the two-factor method, whose key has already been sent.',
  })
  @ApiOkResponse({ type: PreAuthTokenResponse })
  @ApiTooManyRequestsResponse({ description: 'Too many attempts; Retry-After says when to try again.' })
  preAuthToken(@Body() body: PreAuthTokenBody, @Req() req: FastifyRequest) {
    return this.commands.execute(new IssuePreAuthTokenCommand(body.email, body.password, req.ip));
  }

  @Public()
  @Post('token')
  @HttpCode(200)
  @AddressRateLimited('token')
  @ApiOperation({ summary: 'Create JWT', description: 'Five wrong two-factor keys burn the pre-authentication token. AUTH_RATE_LIMIT_PER_ADDRESS requests a minute from one address (429).' })
  @ApiOkResponse({ type: JwtResponse })
  token(@Body() body: CreateJwtBody) {
    return this.commands.execute(new CreateJwtCommand(body.token, body.key, body.minimal ?? false));
  }

  @Public()
  @Post('token/refresh')
  @HttpCode(200)
  @AddressRateLimited('refresh')
  @ApiOperation({
    summary: 'Refresh JWT',
    description:
      'Once per token, within JWT_REFRESH_TTL of its issue: of several refreshes of one token (a double submit, parallel tabs) exactly one succeeds. ' +
      'Presenting the refreshed token again within JWT_REFRESH_GRACE seconds (default 5) of that refresh is a 409 with no token, and the token the ' +
      'refresh answered keeps working; presenting it later revokes every token of that log-in (401). AUTH_RATE_LIMIT_PER_ADDRESS requests a minute from one address (429).',
  })
  @ApiOkResponse({ type: JwtResponse })
  @ApiConflictResponse({ description: 'The token was refreshed less than JWT_REFRESH_GRACE seconds ago: use the token that refresh answered. Nothing is revoked.' })
  @ApiUnauthorizedResponse({ description: 'Invalid, revoked or too old a token, or a reuse of a refreshed token after the grace (which revokes the log-in).' })
  refresh(@Body() body: RefreshJwtBody) {
    return this.commands.execute(new RefreshJwtCommand(body.token, body.minimal ?? false));
  }

  @Post('logout')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Log out', description: 'Not in the interface spec: revokes the caller’s token and any token refreshed from it.' })
  async logout(@CurrentCaller() caller: Caller): Promise<void> {
    await this.commands.execute(new LogoutCommand(caller.sessionId, caller.jti, caller.userId, caller.organisationId, caller.requestId));
  }
}

import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { Public } from '#app/platform';
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
  @ApiOperation({ summary: 'Create pre-authentication token', description: 'Rate limited per account and per address (429). The response names the two-factor method, whose key has already been sent.' })
  @ApiOkResponse({ type: PreAuthTokenResponse })
  preAuthToken(@Body() body: PreAuthTokenBody, @Req() req: FastifyRequest) {
    return this.commands.execute(new IssuePreAuthTokenCommand(body.email, body.password, req.ip));
  }

  @Public()
  @Post('token')
  @HttpCode(200)
  @ApiOperation({ summary: 'Create JWT', description: 'Five wrong two-factor keys burn the pre-authentication token.' })
  @ApiOkResponse({ type: JwtResponse })
  token(@Body() body: CreateJwtBody, @Req() req: FastifyRequest) {
    return this.commands.execute(new CreateJwtCommand(body.token, body.key, body.minimal ?? false, req.ip));
  }

  @Public()
  @Post('token/refresh')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Refresh JWT',
    description: 'Once per token, within JWT_REFRESH_TTL of its issue. Presenting a refreshed token again revokes every token of that log-in.',
  })
  @ApiOkResponse({ type: JwtResponse })
  refresh(@Body() body: RefreshJwtBody, @Req() req: FastifyRequest) {
    return this.commands.execute(new RefreshJwtCommand(body.token, body.minimal ?? false, req.ip));
  }

  @Post('logout')
  @HttpCode(204)
  @ApiBearerAuth()
  @ApiOperation({ summary: 'Log out', description: 'Not in the interface spec: revokes the caller’s token and any token refreshed from it.' })
  async logout(@CurrentCaller() caller: Caller): Promise<void> {
    await this.commands.execute(new LogoutCommand(caller.sessionId, caller.jti, caller.userId, caller.organisationId));
  }
}

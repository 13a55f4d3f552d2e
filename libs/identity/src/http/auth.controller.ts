import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { type Caller, CurrentCaller } from '../auth/caller.js';
import { Public } from '#app/platform';
import { AddressRateLimited } from './address-rate-limit.js';
import { CreateJwtCommand } from '../login/create-jwt.command.js';
import { IssuePreAuthTokenCommand } from '../login/issue-pre-auth-token.command.js';
import { LogoutCommand } from '../login/logout.command.js';
import { RefreshJwtCommand } from '../login/refresh-jwt.command.js';
import { CreateJwtBody, PreAuthTokenBody, RefreshJwtBody } from './auth.dto.js';
import { JwtDto, PreAuthTokenDto } from './auth.responses.js';
import { AuthDocs } from './auth.openapi.js';

@AuthDocs.controller()
@Controller('auth/api')
export class AuthController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post('pre-auth-token')
  @HttpCode(200)
  @AddressRateLimited('login')
  @AuthDocs.preAuthToken()
  preAuthToken(@Body() body: PreAuthTokenBody, @Req() req: FastifyRequest): Promise<PreAuthTokenDto> {
    return this.commands.execute(new IssuePreAuthTokenCommand(body.email, body.password, req.ip));
  }

  @Public()
  @Post('token')
  @HttpCode(200)
  @AddressRateLimited('token')
  @AuthDocs.token()
  token(@Body() body: CreateJwtBody): Promise<JwtDto> {
    return this.commands.execute(new CreateJwtCommand(body.token, body.key, body.minimal ?? false));
  }

  @Public()
  @Post('token/refresh')
  @HttpCode(200)
  @AddressRateLimited('refresh')
  @AuthDocs.refresh()
  refresh(@Body() body: RefreshJwtBody): Promise<JwtDto> {
    return this.commands.execute(new RefreshJwtCommand(body.token, body.minimal ?? false));
  }

  @Post('logout')
  @HttpCode(204)
  @AuthDocs.logout()
  async logout(@CurrentCaller() caller: Caller): Promise<void> {
    await this.commands.execute(
      new LogoutCommand(caller.sessionId, caller.jti, caller.userId, caller.organisationId, caller.requestId),
    );
  }
}

import { Controller, Get } from '@nestjs/common';
import { Public } from '../http/public.decorator.js';
import { ServiceIndexDto } from './health.responses.js';
import { RootDocs } from './root.openapi.js';

/** `GET /`: where to go from the bare address a newcomer opens first. */
const INDEX: ServiceIndexDto = { name: 'uvol', docs: '/api/docs', openapi: '/api/docs-json', health: '/health' };

@RootDocs.controller()
@Public()
@Controller()
export class RootController {
  @Get()
  @RootDocs.index()
  index(): ServiceIndexDto {
    return INDEX;
  }
}

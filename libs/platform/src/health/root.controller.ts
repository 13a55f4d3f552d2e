import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';
import { Public } from '../http/public.decorator.js';

/** `GET /`: where to go from the bare address a newcomer opens first. */
@ApiSchema({
  name: 'ServiceIndex',
  description: 'What answers at the root: the service and where its documentation and health check are.',
})
export class ServiceIndexDto {
  @ApiProperty({ type: 'string', enum: ['uvol'], example: 'uvol' }) name!: 'uvol';
  @ApiProperty({
    type: 'string',
    enum: ['/api/docs'],
    description: 'The API documentation page (the OpenAPI document: /api/docs-json)',
    example: '/api/docs',
  })
  docs!: '/api/docs';
  @ApiProperty({
    type: 'string',
    enum: ['/api/docs-json'],
    description: 'The OpenAPI document itself',
    example: '/api/docs-json',
  })
  openapi!: '/api/docs-json';
  @ApiProperty({
    type: 'string',
    enum: ['/health'],
    description: 'Liveness of the database and the queue backend',
    example: '/health',
  })
  health!: '/health';
}

const INDEX: ServiceIndexDto = { name: 'uvol', docs: '/api/docs', openapi: '/api/docs-json', health: '/health' };

@ApiTags('health')
@Public()
@Controller()
export class RootController {
  @Get()
  @ApiOperation({
    summary: 'Where the documentation and the health check are',
    description:
      'Permission: none (no JWT). Always the same small JSON object, with paths relative to the service’s address. Not under /api: the Accept rule does not apply.',
  })
  @ApiOkResponse({
    type: ServiceIndexDto,
    description: 'The service’s name and the paths of its documentation and health check',
  })
  index(): ServiceIndexDto {
    return INDEX;
  }
}

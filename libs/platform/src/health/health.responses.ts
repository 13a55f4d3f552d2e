import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** One dependency's answer: up, or down with why. */
@ApiSchema({ name: 'HealthCheck' })
export class HealthCheckDto {
  @ApiProperty({ type: 'string', enum: ['up', 'down'] }) status!: 'up' | 'down';
  @ApiPropertyOptional({
    type: 'string',
    description: 'Why it is down (only when down)',
    example: 'no answer in 2000 ms',
  })
  error?: string;
  @ApiProperty({
    type: 'boolean',
    description: 'Whether this process needs it to be ready (an API process does not need Redis)',
    example: true,
  })
  required!: boolean;
}

@ApiSchema({ name: 'HealthDetails' })
export class HealthDetailsDto {
  @ApiProperty({ type: HealthCheckDto, description: 'PostgreSQL (or the embedded PGlite) answers SELECT 1' })
  database!: HealthCheckDto;
  @ApiProperty({
    type: HealthCheckDto,
    description: 'The queue backend answers: Redis PING, or, with the queues on PostgreSQL, the database check',
  })
  queue!: HealthCheckDto;
  @ApiPropertyOptional({
    type: HealthCheckDto,
    description:
      'The S3 bucket of the files answers HeadBucket; only with S3_BUCKET set, and never required (only file routes need it)',
  })
  storage?: HealthCheckDto;
}

/** `GET /health/live`. */
@ApiSchema({ name: 'Liveness' })
export class LivenessDto {
  @ApiProperty({ type: 'string', enum: ['ok'] }) status!: 'ok';
}

/** `GET /health`, `GET /health/ready`: the same body for 200 and 503. */
@ApiSchema({ name: 'Health' })
export class HealthDto {
  @ApiProperty({ type: 'string', enum: ['ok', 'error'], description: 'ok with 200, error with 503' }) status!:
    'ok' | 'error';
  @ApiProperty({ type: HealthDetailsDto }) details!: HealthDetailsDto;
}

/** `GET /` (root.controller.ts): where to go from the bare address a newcomer opens first. */
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
    description: 'Readiness of this process (also /health/ready; liveness: /health/live)',
    example: '/health',
  })
  health!: '/health';
}

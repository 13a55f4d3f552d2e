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
}

@ApiSchema({ name: 'HealthDetails' })
export class HealthDetailsDto {
  @ApiProperty({ type: HealthCheckDto, description: 'PostgreSQL (or the embedded PGlite) answers SELECT 1' })
  database!: HealthCheckDto;
  @ApiProperty({ type: HealthCheckDto, description: 'The queue backend (Redis, or BullMQ on the database) answers' })
  queue!: HealthCheckDto;
}

/** `GET /health`: the same body for 200 and 503. */
@ApiSchema({ name: 'Health' })
export class HealthDto {
  @ApiProperty({ type: 'string', enum: ['ok', 'error'], description: 'ok with 200, error with 503' }) status!:
    'ok' | 'error';
  @ApiProperty({ type: HealthDetailsDto }) details!: HealthDetailsDto;
}

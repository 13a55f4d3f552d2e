import { ApiProperty, ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsBoolean, IsDefined, IsString, MaxLength } from 'class-validator';
import { IsOptionalNotNull, type PageRequest, parseListQuery, type RawQuery, ValidationError } from '#app/platform';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../delivery/deliveries.js';
import { ALL_EVENTS, PUBLIC_EVENT_TYPES } from '../event-types.js';
import { MAX_URL_LENGTH } from '../endpoint/endpoint.js';

// Types and presence here; the url's scheme and host and the events' names are the decision's
// (endpoint/endpoint.ts) and the host check's (endpoint/url-check.ts).

const URL_DOC = {
  type: 'string',
  maxLength: MAX_URL_LENGTH,
  example: 'https://hooks.example.org/uvol',
  description:
    'http or https. A host that is localhost (or a name under it), or an address that is not public unicast ' +
    '(loopback, private, carrier-grade NAT, link-local, unique-local, reserved, benchmarking, documentation, ' +
    'multicast, broadcast; an IPv6 form of an IPv4 address is judged by that address), or a name any of whose ' +
    'addresses is one, is a 422 (unless the operator sets WEBHOOK_ALLOW_PRIVATE=true). A name that does not ' +
    'resolve is accepted: its attempts fail, and are retried, until it does. Each attempt resolves the name once, ' +
    'checks the addresses and connects only to them. Redirects are not followed.',
} as const;
const EVENTS_DOC: ApiPropertyOptions = {
  type: 'array',
  items: { type: 'string', enum: [ALL_EVENTS, ...PUBLIC_EVENT_TYPES] },
  minItems: 1,
  example: ['shift.booked', 'shift.cancelled'],
  description: 'Event types to receive, or ["*"] for all',
};

export class CreateEndpointBody {
  @ApiProperty(URL_DOC) @IsDefined() @IsString() @MaxLength(MAX_URL_LENGTH) url!: string;
  @ApiProperty(EVENTS_DOC) @IsDefined() @IsArray() @ArrayMaxSize(100) @IsString({ each: true }) events!: string[];
  @ApiPropertyOptional({ type: 'string', maxLength: 1000, description: 'Free text; default empty' })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(1000)
  description?: string;
  @ApiPropertyOptional({ type: 'boolean', description: 'Default true; a disabled endpoint gets nothing but pings' })
  @IsOptionalNotNull()
  @IsBoolean()
  enabled?: boolean;
}

export class UpdateEndpointBody {
  @ApiPropertyOptional(URL_DOC) @IsOptionalNotNull() @IsString() @MaxLength(MAX_URL_LENGTH) url?: string;
  @ApiPropertyOptional(EVENTS_DOC)
  @IsOptionalNotNull()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  events?: string[];
  @ApiPropertyOptional({ type: 'string', maxLength: 1000 })
  @IsOptionalNotNull()
  @IsString()
  @MaxLength(1000)
  description?: string;
  @ApiPropertyOptional({ type: 'boolean' }) @IsOptionalNotNull() @IsBoolean() enabled?: boolean;
}

/** `GET /api/webhooks/{id}/deliveries`: a page, and `status` (pending, delivered or failed). */
export class DeliveryListQuery implements PageRequest {
  readonly page!: number;
  readonly perPage!: number;
  readonly status?: DeliveryStatus;

  static fromQuery(query: RawQuery): DeliveryListQuery {
    const { page, perPage } = parseListQuery(query);
    const status = query.status;
    if (status === undefined) return { page, perPage };
    if (typeof status !== 'string' || !DELIVERY_STATUSES.includes(status as DeliveryStatus))
      throw new ValidationError({ status: ['The status field must be one of pending, delivered, failed.'] });
    return { page, perPage, status: status as DeliveryStatus };
  }
}

import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiParam,
  ApiProperty,
  ApiPropertyOptional,
  ApiQuery,
  ApiResponse,
  ApiSchema,
  getSchemaPath,
  type SchemaObject,
} from '@nestjs/swagger';
import type { FieldErrors } from '../errors/domain-error.js';
import type { ErrorBody } from './error-body.js';
import type { ListQuerySpec } from './list-query.js';
import { PER_PAGE } from './pagination.js';

/**
 * The reusable pieces that make the served OpenAPI document say what a route really answers:
 * the error body, the pagination envelope, the `{ data }` envelope and the list query parameters
 * (docs/http-conventions.md#errors, #pagination, #envelopes). Response DTOs are plain classes with
 * `@ApiProperty` on every field (there is no swagger compiler plugin); a route names them through
 * these decorators.
 */

/**
 * The documentation of one route (or of a controller, on its class), written as the decorators
 * would stand above it: `@RotasDocs.list()` with `list: () => ApiDocs(ApiOperation(…), ApiQuery(…),
 * ApiErrors(…))` in the controller's *.openapi.ts. Applied as TypeScript applies stacked
 * decorators, the last first, so the document lists the parameters as it did when they stood on
 * the route.
 */
export function ApiDocs(
  ...decorators: (ClassDecorator | MethodDecorator | PropertyDecorator)[]
): ReturnType<typeof applyDecorators> {
  return applyDecorators(...[...decorators].reverse());
}

/** The one error shape (docs/http-conventions.md#the-error-body), as a schema (`ErrorBody` in the document). */
@ApiSchema({
  name: 'ErrorBody',
  description: 'Every error: `{ message, status_code, errors? }` (docs/http-conventions.md#errors).',
})
export class ErrorBodyDto implements ErrorBody {
  @ApiProperty({ example: 'The given data was invalid.' }) message!: string;
  @ApiProperty({ type: 'integer', example: 422 }) status_code!: number;
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'array', items: { type: 'string' } },
    description: 'Field name → messages; present on 422s that name fields.',
    example: { date: ['The date may not be in the future.'] },
  })
  errors?: FieldErrors;
}

/** The statuses of the error table (docs/http-conventions.md#status-codes), each with what it means. */
export const ERROR_STATUSES = {
  400: 'Malformed JSON, wrong content type, or an Accept naming another API version.',
  401: 'Missing, malformed, expired, wrongly signed or blacklisted JWT.',
  403: 'Authenticated, but the permission or hierarchy rule refuses it.',
  404: 'Unknown route or id, or a record of another organisation.',
  406: 'The Accept header names nothing this route produces.',
  409: 'The record’s state refuses the change, or a concurrent write won the race.',
  413: 'The body is over the size limit.',
  414: 'A path parameter is over the router’s length limit (2,048 characters).',
  422: 'A body or query field is missing, of the wrong type, out of range or breaks a rule; `errors` names the fields.',
  429: 'Too many attempts; Retry-After says in how many seconds to try again.',
} as const;

/** Headers an error status always carries. */
const ERROR_HEADERS: Partial<Record<ErrorStatus, Record<string, { description: string; schema: SchemaObject }>>> = {
  401: {
    'WWW-Authenticate': {
      description:
        '`Bearer`; `Bearer error="invalid_token"` when the request sent a bearer token that is not valid (RFC 6750)',
      schema: { type: 'string' },
    },
  },
  429: {
    'Retry-After': { description: 'Seconds to wait before the next attempt', schema: { type: 'integer', minimum: 1 } },
  },
};

export type ErrorStatus = keyof typeof ERROR_STATUSES;

/** The 503 every operation may answer (docs/http-conventions.md#dependency-outages); http-app.ts adds it to each. */
export const OUTAGE_RESPONSE = {
  description:
    'PostgreSQL or Redis cannot be reached for the moment; nothing was changed. Retry-After says when to try again.',
  headers: {
    'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 1 } },
  },
  content: {
    'application/json': {
      schema: { $ref: getSchemaPath(ErrorBodyDto) },
      example: {
        message: 'Service unavailable: a server it depends on cannot be reached. Retry shortly.',
        status_code: 503,
      },
    },
  },
};

/**
 * Documents each error status with the ErrorBody schema: `@ApiErrors(400, 401, 404)`. An object
 * among the statuses replaces the generic text of a status where the route can say more:
 * `@ApiErrors(404, 409, { 409: 'The expense is claimed.' })`.
 */
export function ApiErrors(
  ...args: (ErrorStatus | Partial<Record<ErrorStatus, string>>)[]
): MethodDecorator & ClassDecorator {
  const descriptions: Partial<Record<ErrorStatus, string>> = Object.assign(
    {},
    ...args.filter((a) => typeof a === 'object'),
  );
  const statuses = args.filter((a): a is ErrorStatus => typeof a === 'number');
  return applyDecorators(
    ApiExtraModels(ErrorBodyDto),
    ...statuses.map((status) =>
      // Content given, not a schema: an error is JSON even on a route that produces another type (a CSV export).
      ApiResponse({
        status,
        description: descriptions[status] ?? ERROR_STATUSES[status],
        content: { 'application/json': { schema: { $ref: getSchemaPath(ErrorBodyDto) } } },
        ...(ERROR_HEADERS[status] && { headers: ERROR_HEADERS[status] }),
      }),
    ),
  );
}

/** `links` of the pagination envelope: absolute URLs, each omitted when there is no such page. */
@ApiSchema({ name: 'PaginationLinks' })
export class PaginationLinksDto {
  @ApiPropertyOptional({
    format: 'uri',
    description: 'Absent on the last page',
    example: 'https://volunteers.example/api/expenses/types?page=3&per_page=15',
  })
  next?: string;
  @ApiPropertyOptional({
    format: 'uri',
    description: 'Absent on the first page',
    example: 'https://volunteers.example/api/expenses/types?page=1&per_page=15',
  })
  previous?: string;
}

const COUNT = { type: 'string', pattern: '^[0-9]+$' } as const;

/** `meta.pagination`: counts as strings, as the interface declares them (docs/http-conventions.md#pagination). */
@ApiSchema({ name: 'Pagination' })
export class PaginationDto {
  @ApiProperty({ ...COUNT, description: 'Records in the whole list', example: '42' }) total!: string;
  @ApiProperty({ ...COUNT, description: 'Records on this page', example: '15' }) count!: string;
  @ApiProperty({ ...COUNT, example: '15' }) per_page!: string;
  @ApiProperty({ ...COUNT, example: '2' }) current_page!: string;
  @ApiProperty({ ...COUNT, description: 'At least 1, even for an empty list', example: '3' }) total_pages!: string;
  @ApiProperty({ type: PaginationLinksDto }) links!: PaginationLinksDto;
}

@ApiSchema({ name: 'PaginationMeta' })
export class PaginationMetaDto {
  @ApiProperty({ type: PaginationDto }) pagination!: PaginationDto;
}

/** Options of the envelope decorators: the success status (200 unless said) and its description. */
export interface EnvelopeOptions {
  readonly status?: 200 | 201;
  readonly description?: string;
}

/**
 * The pagination envelope (docs/http-conventions.md#pagination) around `item`:
 * `{ data: Item[], meta: { pagination } }`.
 */
export function paginatedSchema(item: Type<unknown>): SchemaObject {
  return {
    type: 'object',
    required: ['data', 'meta'],
    properties: {
      data: { type: 'array', items: { $ref: getSchemaPath(item) } },
      meta: { $ref: getSchemaPath(PaginationMetaDto) },
    },
  };
}

/** `{ data: Item }`, or `{ data: Item[] }` with `isArray`. */
export function dataSchema(item: Type<unknown>, isArray = false): SchemaObject {
  const ref = { $ref: getSchemaPath(item) };
  return { type: 'object', required: ['data'], properties: { data: isArray ? { type: 'array', items: ref } : ref } };
}

/** The success response of a list route: the pagination envelope of `item`. */
export function ApiPaginated(item: Type<unknown>, options: EnvelopeOptions = {}): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(item, PaginationMetaDto, PaginationDto, PaginationLinksDto),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'A page of the list',
      schema: paginatedSchema(item),
    }),
  );
}

/** The success response `{ data: Item }` (or `{ data: Item[] }` with `isArray`). */
export function ApiData(
  item: Type<unknown>,
  options: EnvelopeOptions & { readonly isArray?: boolean } = {},
): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(item),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? '',
      schema: dataSchema(item, options.isArray),
    }),
  );
}

/**
 * The list query of `parseListQuery(query, spec)`: page, per_page, its alias limit, and s, o and
 * include when `spec` offers them (an unknown value of any is a 422). Pass the same `spec` the
 * route parses with, so the document cannot drift from the code.
 */
export function ApiListQuery(
  spec: ListQuerySpec = {},
  options: { readonly sortDescription?: string } = {},
): MethodDecorator {
  const decorators: MethodDecorator[] = [
    ApiQuery({ name: 'page', required: false, schema: { type: 'integer', minimum: 1, default: 1 } }),
    ApiQuery({
      name: 'per_page',
      required: false,
      schema: { type: 'integer', minimum: 1, maximum: PER_PAGE.max, default: PER_PAGE.default },
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      description: 'Alias of per_page (per_page wins when both are given)',
      schema: { type: 'integer', minimum: 1, maximum: PER_PAGE.max },
    }),
  ];
  if (spec.sorts?.length) {
    const byDefault = spec.defaultSort ?? spec.sorts[0];
    decorators.push(
      ApiQuery({
        name: 's',
        required: false,
        description: options.sortDescription ?? 'Sort column',
        schema: { type: 'string', enum: [...spec.sorts], default: byDefault },
      }),
      ApiQuery({
        name: 'o',
        required: false,
        description: 'Direction: a/asc ascending, d/desc descending',
        schema: {
          type: 'string',
          enum: ['a', 'd', 'asc', 'desc'],
          default: spec.defaultDirection === 'desc' ? 'd' : 'a',
        },
      }),
    );
  }
  if (spec.includes?.length) decorators.push(ApiIncludeQuery(spec.includes));
  return applyDecorators(...decorators);
}

/** `include`: a comma-separated list of relation names (`include=user,type`). */
export function ApiIncludeQuery(includes: readonly string[]): MethodDecorator {
  return ApiQuery({
    name: 'include',
    required: false,
    description: `Comma-separated relations to embed: ${includes.join(', ')}`,
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'string', enum: [...includes] } },
  });
}

/** A boolean filter of `parseBooleanQuery`: `true`/`false`/`1`/`0`, anything else a 422; absent means both. */
export function ApiBooleanQuery(name: string, description: string): MethodDecorator {
  return ApiQuery({
    name,
    required: false,
    description,
    schema: { type: 'string', enum: ['true', 'false', '1', '0'] },
  });
}

/** A comma-separated list of ids (`user=3,7`). */
export function ApiIdListQuery(name: string, description: string): MethodDecorator {
  return ApiQuery({
    name,
    required: false,
    description,
    style: 'form',
    explode: false,
    schema: { type: 'array', items: { type: 'integer', minimum: 1 } },
  });
}

/**
 * A path id: a positive 64-bit integer; anything else names nothing (404, see pathId). A path
 * parameter over the router's length limit is a 414 on every such route, so it is declared here.
 */
export function ApiIdParam(name: string, description?: string): MethodDecorator {
  return applyDecorators(
    ApiParam({ name, required: true, description, schema: { type: 'integer', format: 'int64', minimum: 1 } }),
    ApiErrors(414),
  );
}

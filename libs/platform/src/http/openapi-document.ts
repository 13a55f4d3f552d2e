import type { OpenAPIObject } from '@nestjs/swagger';

type Node = Record<string, unknown>;

/**
 * The last pass over the built document (docs/http-conventions.md#the-openapi-document), so that
 * strict tools (openapi-backend and Ajv as they come, generated typed clients) read it as the
 * service answers:
 * - a nullable embedded record, which @nestjs/swagger writes as `nullable: true` beside
 *   `allOf: [{ $ref }]` (OpenAPI 3.0 lets `nullable` widen only the `type` beside it, so validators
 *   read that form as never null), becomes `oneOf: [{ $ref }, { type: object, nullable, enum: [null] }]`;
 * - every operation documents the two refusals any route can meet below the application, 408 and
 *   431 (docs/http-conventions.md#status-codes);
 * - every answer declares the `X-Request-Id` header it carries.
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  const components = (document.components ??= {});
  components.headers = { ...components.headers, [REQUEST_ID_HEADER]: REQUEST_ID };
  const withNullableRefs = nullableRefs({ paths: document.paths, components }) as Node;
  document.paths = withNullableRefs.paths as OpenAPIObject['paths'];
  document.components = withNullableRefs.components as OpenAPIObject['components'];
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.has(method) || !operation || typeof operation !== 'object' || !('responses' in operation)) continue;
      const responses = operation.responses as Record<string, Node>;
      for (const [status, response] of Object.entries(BELOW_THE_APPLICATION)) responses[status] ??= response;
      for (const [status, response] of Object.entries(responses)) {
        if ('$ref' in response) continue;
        responses[status] = {
          ...response,
          headers: {
            [REQUEST_ID_HEADER]: { $ref: `#/components/headers/${REQUEST_ID_HEADER}` },
            ...(response.headers as Node),
          },
        };
      }
    }
  }
  return document;
}

const errorAnswer = (status: number, description: string, message: string) => ({
  description,
  content: {
    'application/json': {
      schema: { $ref: '#/components/schemas/ErrorBody' },
      example: { message, status_code: status },
    },
  },
});
const BELOW_THE_APPLICATION: Record<string, Node> = {
  408: errorAnswer(408, 'The request took too long to arrive.', 'The request took too long to arrive.'),
  431: errorAnswer(431, 'The request headers are too large.', 'The request headers are too large.'),
};

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace']);

const REQUEST_ID_HEADER = 'X-Request-Id';
const REQUEST_ID = {
  description:
    'The id of this request: the one the client sent when it is 1 to 128 letters, digits or `._:-`, else a new UUID. ' +
    'The log records of the request carry it (docs/http-conventions.md#the-error-body).',
  schema: { type: 'string', maxLength: 128, example: '4f2a6f0e-8c1d-4d7b-9a55-0c3e2b1f7a10' },
};

/** The null alternative of a nullable record: what OpenAPI 3.0 validators accept as "or null". */
const NULL_ALTERNATIVE = { type: 'object', nullable: true, enum: [null] };

function nullableRefs(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(nullableRefs);
  if (!node || typeof node !== 'object') return node;
  const out: Node = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === 'example' || k === 'examples' ? v : nullableRefs(v);
  if (out.nullable === true && Array.isArray(out.allOf) && out.allOf.length === 1) {
    // `type: object` is what @nestjs/swagger puts beside the allOf; the $ref says it already.
    const { nullable: _nullable, allOf, type: _type, ...rest } = out;
    return { ...rest, oneOf: [allOf[0], NULL_ALTERNATIVE] };
  }
  return out;
}

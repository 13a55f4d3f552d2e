import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Body, Controller, Get, HttpCode, Module, Param, Post, Put, Query } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, Max, Min, ValidateNested } from 'class-validator';
import request from 'supertest';
import { ConflictError, NotFoundError, paginate, parseBooleanQuery, parseListQuery, Public } from '#app/platform';
import { testEnvironment, type TestEnvironment } from '../support/test-config.js';
import { bootApi } from '../support/test-http.js';

class RefDto {
  @IsInt() id!: number;
}
class CreateItemDto {
  @IsString() @IsNotEmpty() name!: string;
  @IsInt() @Min(1) @Max(10) count!: number;
  @ValidateNested() @Type(() => RefDto) type!: RefDto;
}

const ITEMS = Array.from({ length: 42 }, (_, i) => ({ id: i + 1, name: `item ${i + 1}` }));

/** Routes that exercise each convention; the bounded contexts use the same building blocks. */
@Public()
@Controller('api/test-items')
class TestItemsController {
  @Get()
  list(@Query() query: Record<string, string>) {
    const q = parseListQuery(query, { sorts: ['name', 'id'], includes: ['owner'] });
    parseBooleanQuery(query, 'archived');
    const items = ITEMS.slice((q.page - 1) * q.perPage, q.page * q.perPage);
    return paginate(items, ITEMS.length, q, 'http://api.test', `/api/test-items?${new URLSearchParams(query)}`);
  }

  @Post()
  create(@Body() body: CreateItemDto) {
    return { id: 43, ...body };
  }

  @Get('boom')
  boom(): never {
    throw new TypeError('database password is hunter2');
  }

  @Get(':id')
  get(@Param('id') id: string) {
    const item = ITEMS.find((i) => String(i.id) === id);
    if (!item) throw new NotFoundError('Item');
    return item;
  }

  @Put(':id')
  @HttpCode(200)
  update() {
    throw new ConflictError('A claimed expense cannot be changed.');
  }
}

@Module({ controllers: [TestItemsController] })
class TestItemsModule {}

describe('HTTP conventions (docs/http-conventions.md)', () => {
  let env: TestEnvironment;
  let app: NestFastifyApplication;
  const http = () => request(app.getHttpServer());
  // Error records only (a 5xx's request line, the filter's stack).
  const logLines: string[] = [];

  beforeAll(async () => {
    env = await testEnvironment();
    const log = { ...env.config.log, level: 'error', destination: { write: (line: string) => logLines.push(line) } };
    app = await bootApi({ ...env.config, log }, [TestItemsModule]);
  });
  afterAll(async () => {
    await app?.close();
    await env?.cleanup();
  });

  const errorShape = (status: number) => ({ message: expect.any(String), status_code: status });

  describe('errors always carry { message, status_code, errors? }', () => {
    it('404 for an unknown route', async () => {
      const res = await http().get('/api/no-such-thing').expect(404);
      expect(res.body).toEqual(errorShape(404));
      expect(res.headers['content-type']).toMatch(/application\/json/);
    });

    it('404 for an unknown route outside /api too', async () => {
      expect((await http().post('/nowhere').expect(404)).body).toEqual(errorShape(404));
    });

    it('404 for an unknown id', async () => {
      expect((await http().get('/api/test-items/999').expect(404)).body).toEqual({
        message: 'Item not found',
        status_code: 404,
      });
    });

    it('400 for malformed JSON', async () => {
      const res = await http()
        .post('/api/test-items')
        .set('content-type', 'application/json')
        .send('{"name": ')
        .expect(400);
      expect(res.body).toEqual(errorShape(400));
    });

    it('400 for a body that is not JSON', async () => {
      const res = await http().post('/api/test-items').set('content-type', 'text/plain').send('name=x').expect(400);
      expect(res.body).toEqual({ message: 'Unsupported content type; send application/json.', status_code: 400 });
    });

    it('413 for a body over the limit', async () => {
      const res = await http()
        .post('/api/test-items')
        .set('content-type', 'application/json')
        .send(JSON.stringify({ name: 'x'.repeat(1_100_000) }))
        .expect(413);
      expect(res.body).toEqual(errorShape(413));
    });

    it('422 naming every bad field, nested ones by path', async () => {
      const res = await http()
        .post('/api/test-items')
        .send({ count: 99, type: { id: 'x' } })
        .expect(422);
      expect(res.body).toEqual({
        message: 'The given data was invalid.',
        status_code: 422,
        errors: { name: expect.any(Array), count: expect.any(Array), 'type.id': expect.any(Array) },
      });
    });

    it('422 for a field the body may not have', async () => {
      const res = await http()
        .post('/api/test-items')
        .send({ name: 'a', count: 1, type: { id: 1 }, admin: true })
        .expect(422);
      expect(Object.keys(res.body.errors)).toEqual(['admin']);
    });

    it('409 for a state conflict', async () => {
      expect((await http().put('/api/test-items/1').send({}).expect(409)).body).toEqual({
        message: 'A claimed expense cannot be changed.',
        status_code: 409,
      });
    });

    it('a bare 500 that leaks nothing for an unexpected error', async () => {
      const res = await http().get('/api/test-items/boom').expect(500);
      expect(res.body).toEqual({ message: 'Server error.', status_code: 500 });
      expect(JSON.stringify(res.body)).not.toMatch(/hunter2/);
      // The log has it: the request's line names the error, and the filter's line holds its stack.
      const records = logLines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const requestLine = records.find((r) => r.msg === 'request completed' && r.reqId === res.headers['x-request-id']);
      expect(requestLine).toMatchObject({ status: 500, error: 'TypeError: database password is hunter2' });
      expect(records.some((r) => String(r.msg).includes('TypeError: database password is hunter2\n    at '))).toBe(
        true,
      );
    });

    it('accepts a valid body', async () => {
      const res = await http()
        .post('/api/test-items')
        .send({ name: 'a', count: 2, type: { id: 1 } })
        .expect(201);
      expect(res.body).toEqual({ id: 43, name: 'a', count: 2, type: { id: 1 } });
    });
  });

  describe('the Accept rule', () => {
    it.each(['application/json', '*/*', 'application/x.uvol.v3+json'])('serves %s', async (accept) => {
      await http().get('/api/test-items/1').set('accept', accept).expect(200);
    });

    it('serves a request with no Accept header', async () => {
      await http().get('/api/test-items/1').unset('accept').expect(200);
    });

    it('refuses another API version with 400', async () => {
      const res = await http().get('/api/test-items/1').set('accept', 'application/x.uvol.v9+json').expect(400);
      expect(res.body).toEqual(errorShape(400));
    });

    it('refuses a type it never produces with 406', async () => {
      expect((await http().get('/api/test-items/1').set('accept', 'text/csv').expect(406)).body).toEqual(
        errorShape(406),
      );
    });
  });

  describe('lists', () => {
    it('use the pagination envelope with string counts and absolute links', async () => {
      const res = await http().get('/api/test-items?page=2&per_page=10&s=name').expect(200);
      expect(res.body.data).toHaveLength(10);
      expect(res.body.data[0]).toEqual({ id: 11, name: 'item 11' });
      expect(res.body.meta.pagination).toEqual({
        total: '42',
        count: '10',
        per_page: '10',
        current_page: '2',
        total_pages: '5',
        links: {
          next: 'http://api.test/api/test-items?page=3&per_page=10&s=name',
          previous: 'http://api.test/api/test-items?page=1&per_page=10&s=name',
        },
      });
    });

    it('take limit as an alias of per_page and refuse more than 100', async () => {
      expect((await http().get('/api/test-items?limit=5').expect(200)).body.data).toHaveLength(5);
      expect((await http().get('/api/test-items?per_page=101').expect(422)).body.errors).toHaveProperty('per_page');
    });

    it('refuse an unknown sort column, direction, include or boolean with 422', async () => {
      const res = await http()
        .get('/api/test-items?s=secret&o=sideways&include=owner,password&archived=maybe')
        .expect(422);
      expect(Object.keys(res.body.errors).sort()).toEqual(['include', 'o', 's']);
      const bool = await http().get('/api/test-items?archived=maybe').expect(422);
      expect(bool.body.errors).toHaveProperty('archived');
    });
  });

  describe('operations', () => {
    it('GET /health and /health/ready report the database and the queue backend (an API needs only the database); /health/live', async () => {
      const ready = {
        status: 'ok',
        details: { database: { status: 'up', required: true }, queue: { status: 'up', required: false } },
      };
      expect((await http().get('/health').expect(200)).body).toEqual(ready);
      expect((await http().get('/health/ready').expect(200)).body).toEqual(ready);
      expect((await http().get('/health/live').expect(200)).body).toEqual({ status: 'ok' });
    });

    it('serves the OpenAPI document and its page', async () => {
      const doc = await http().get('/api/docs-json').expect(200);
      expect(doc.body.openapi).toMatch(/^3\./);
      expect(doc.body.paths).toHaveProperty('/health');
      const page = await http().get('/api/docs').set('accept', 'text/html').expect(200);
      expect(page.text).toMatch(/swagger/i);
    });

    it('echoes a sane X-Request-Id and makes one otherwise', async () => {
      expect((await http().get('/health').set('x-request-id', 'abc-123')).headers['x-request-id']).toBe('abc-123');
      const made = (await http().get('/health').set('x-request-id', 'bad id with spaces')).headers['x-request-id'];
      expect(made).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('sets the helmet security headers', async () => {
      const res = await http().get('/health');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toBeDefined();
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      // An early refusal (the Accept rule) carries them too.
      const refused = await http().get('/api/organisation').set('accept', 'text/html');
      expect(refused.status).toBe(406);
      expect(refused.headers['x-content-type-options']).toBe('nosniff');
    });
  });
});

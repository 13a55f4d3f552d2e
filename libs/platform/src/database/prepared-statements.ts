import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type pg from 'pg';
import { DataSource, type EntityManager } from 'typeorm';
import { DATABASE_ENDPOINT, type DatabaseEndpoint } from './database-endpoint.js';

/**
 * Hot paths' statements as named (prepared) statements. `DataSource.query` sends every statement
 * unnamed, so Postgres parses and plans it on every call: for the one-statement append that was
 * over two thirds of its cost on the server (bench/README.md). A named statement is parsed once per
 * connection and, after a few runs, planned once too. Postgres re-checks a prepared statement after
 * DDL on its tables, so a projection replay's table swap is safe.
 *
 * `query` borrows a pooled connection per call (outside transactions); `queryIn` uses a transaction's
 * own. Only for texts from a fixed set: each pooled connection keeps every statement it has prepared.
 *
 * Embedded, statements stay unnamed: PGlite is one session behind every socket connection, so a
 * name prepared by one pooled connection already exists for the next, which Postgres refuses.
 */
@Injectable()
export class PreparedStatements {
  private readonly names = new Map<string, string>();

  constructor(
    private readonly dataSource: DataSource,
    @Inject(DATABASE_ENDPOINT) private readonly endpoint: Pick<DatabaseEndpoint, 'embedded'>,
  ) {}

  async query<T = Record<string, unknown>>(text: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.endpoint.embedded) return this.dataSource.query(text, params as unknown[]);
    const result = await this.pool().query({ name: this.nameOf(text), text, values: params as unknown[] });
    return result.rows as T[];
  }

  /**
   * `query` on a transaction's own connection (the event store's locked writes): named there, so a
   * write's fixed statements (its gates, its facts, its append) are planned once per connection too.
   */
  async queryIn<T = Record<string, unknown>>(
    tx: EntityManager,
    text: string,
    params: readonly unknown[] = [],
  ): Promise<T[]> {
    const client = (tx.queryRunner as { databaseConnection?: pg.PoolClient } | undefined)?.databaseConnection;
    if (this.endpoint.embedded || !client) return tx.query(text, params as unknown[]);
    const result = await client.query({ name: this.nameOf(text), text, values: params as unknown[] });
    return result.rows as T[];
  }

  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (!name) {
      name = `s_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
      this.names.set(text, name);
    }
    return name;
  }

  private pool(): pg.Pool {
    // TypeORM's Postgres driver keeps its pg.Pool as `master` (it also runs no replicas here).
    return (this.dataSource.driver as unknown as { master: pg.Pool }).master;
  }
}

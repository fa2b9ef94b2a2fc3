import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type pg from 'pg';

interface Statement {
  name: string;
  text: string;
}

/** `?` placeholders (knex's, used everywhere here) to `$n`, and a stable name per statement: computed once each. */
const statements = new Map<string, Statement>();

function statementFor(sql: string): Statement {
  let statement = statements.get(sql);
  if (!statement) {
    let n = 0;
    statement = {
      name: `forum_${createHash('sha1').update(sql).digest('hex').slice(0, 16)}`,
      text: sql.replace(/\?/g, () => `$${++n}`),
    };
    statements.set(sql, statement);
  }
  return statement;
}

/**
 * Raw SQL for repositories and read models. Outside a transaction, statements run as named prepared statements
 * on a pg pool of their own: PostgreSQL parses and plans each once per connection instead of on every request,
 * and pg's pool costs less per query than knex's (both measured; see docs/performance.md). Inside a unit of work
 * they go through the transaction's connection, so they see (and belong to) its writes.
 */
export class Sql {
  constructor(
    private readonly em: EntityManager,
    private readonly pool: pg.Pool,
  ) {}

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.em.isInTransaction()) return this.em.execute<T[]>(sql, params as unknown[]);
    const { name, text } = statementFor(sql);
    return (await this.pool.query({ name, text, values: params as unknown[] })).rows as T[];
  }

  async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | null> {
    return (await this.all<T>(sql, params))[0] ?? null;
  }
}

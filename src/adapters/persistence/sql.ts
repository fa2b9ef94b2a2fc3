import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

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

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/**
 * Raw SQL for repositories and read models. Outside a transaction, statements run as named prepared statements
 * on a connection of MikroORM's own pool: PostgreSQL parses and plans each once per connection instead of on
 * every request (measured: the largest single cost on the read paths; see docs/performance.md). Inside a unit
 * of work they go through the transaction's connection, so they see (and belong to) its writes.
 */
export class Sql {
  constructor(private readonly em: EntityManager) {}

  async all<T>(sql: string, params: readonly unknown[] = []): Promise<T[]> {
    if (this.em.isInTransaction()) return this.em.execute<T[]>(sql, params as unknown[]);
    const client = this.em.getKnex().client as unknown as KnexClient;
    const connection = await client.acquireConnection();
    try {
      const { name, text } = statementFor(sql);
      return (await connection.query({ name, text, values: params as unknown[] })).rows as T[];
    } finally {
      await client.releaseConnection(connection);
    }
  }

  async one<T>(sql: string, params: readonly unknown[] = []): Promise<T | null> {
    return (await this.all<T>(sql, params))[0] ?? null;
  }
}

import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { EmbeddedPostgres } from '../../src/adapters/persistence/database/embedded-postgres.js';

/**
 * A throwaway database for one test run: on the server that TEST_DATABASE_URL (or DATABASE_URL) names when set,
 * otherwise on an embedded PostgreSQL in a temporary folder. Always a fresh database whose name says `test`.
 */
export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `forum_test_${process.pid}_${randomBytes(3).toString('hex')}`;
  const serverUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  if (serverUrl) return onServer(serverUrl, name);

  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'forum-test-'));
  const cluster = new EmbeddedPostgres(dataDir, 'postgres');
  await cluster.ensureRunning();
  const url = await cluster.urlFor(name);
  return {
    url,
    async drop() {
      await cluster.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function onServer(serverUrl: string, name: string): Promise<TestDatabase> {
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`create database ${pg.escapeIdentifier(name)}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  if (!url.pathname.includes('test')) throw new Error('refusing to test against a database whose name lacks "test"');
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: admin.toString() });
      await client.connect();
      await client.query(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
      await client.end();
    },
  };
}

import { expect } from 'chai';
import pg from 'pg';
import { PgEventFeed } from '../../src/adapters/persistence/events/event-feed.js';
import { testEnv } from '../support/env.js';
import { until } from '../support/wait.js';

/**
 * The event feed behind a gap: an id taken by a transaction that rolled back is waited for (it might still
 * commit), but what comes after it must not wait with it, however many events follow the gap.
 */
describe('PgEventFeed', () => {
  let feed: PgEventFeed | null = null;

  afterEach(async () => {
    await feed?.close();
    feed = null;
  });

  it('delivers a new event at once while an earlier id is still missing, even past a batch of events', async () => {
    const env = testEnv();
    const client = new pg.Client({ connectionString: env.config.databaseUrl! });
    await client.connect();
    try {
      // A gap among the recent events: an id taken, and rolled back (a reply refused after its event was written).
      await client.query(`insert into events (type, payload) select 'test.filler', '{}' from generate_series(1, 10)`);
      await client.query('begin');
      await client.query(`insert into events (type, payload) values ('test.rolled_back', '{}')`);
      await client.query('rollback');
      // More events after it than the feed reads at once, all of them already there when it starts.
      await client.query(`insert into events (type, payload) select 'test.filler', '{}' from generate_series(1, 700)`);
    } finally {
      await client.end();
    }
    const seen: { type: string }[] = [];
    feed = new PgEventFeed(env.config.databaseUrl!);
    feed.subscribe((events) => seen.push(...events));
    await feed.ready();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await env.sql(`insert into events (type, payload) values ('test.fresh', '{"n":1}')`);
    await until(() => seen.some((event) => event.type === 'test.fresh'), 5_000);
    expect(Date.now() - started).to.be.below(1_000);
    expect(seen.filter((event) => event.type === 'test.filler')).to.deep.equal([]);
  });

  it('delivers, once, an event whose transaction commits after later ones did', async () => {
    const env = testEnv();
    const seen: { type: string }[] = [];
    feed = new PgEventFeed(env.config.databaseUrl!);
    feed.subscribe((events) => seen.push(...events));
    await feed.ready();
    const slow = new pg.Client({ connectionString: env.config.databaseUrl! });
    await slow.connect();
    try {
      await slow.query('begin');
      await slow.query(`insert into events (type, payload) values ('test.slow', '{}')`);
      await env.sql(`insert into events (type, payload) values ('test.quick', '{}')`);
      await until(() => seen.some((event) => event.type === 'test.quick'), 2_000);
      await slow.query('commit');
      await until(() => seen.some((event) => event.type === 'test.slow'), 2_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(seen.map((event) => event.type).filter((type) => type.startsWith('test.'))).to.deep.equal([
        'test.quick',
        'test.slow',
      ]);
    } finally {
      await slow.end();
    }
  });
});

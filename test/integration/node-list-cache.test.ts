import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { pino } from 'pino';
import { buildContainer } from '../../src/container.js';
import type { Database } from '../../src/adapters/persistence/database/database.js';
import { NodeReadModel } from '../../src/application/read-models.js';
import type { CallerRef } from '../../src/application/actor.js';
import type { EventFeed, PublishedEvent } from '../../src/application/events.js';
import { RECENT_ANSWER_TTL_MS } from '../../src/application/recent-answers.js';
import { CachedNodeReadModel } from '../../src/adapters/persistence/read-models/cached-nodes.js';
import { SqlNodeReadModel } from '../../src/adapters/persistence/read-models/nodes.js';
import { makeGroup, makeNode, makeTopic, makeUser, setNodeAccess, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { announcedFeed } from '../support/announced-feed.js';
import { startServerProcess } from '../support/server-process.js';

/** The SQL read model, counting the reads of the list everyone is shown. */
class CountingNodes extends SqlNodeReadModel {
  everyonesReads = 0;
  override everyones() {
    this.everyonesReads++;
    return super.everyones();
  }
}

const names = (nodes: readonly { name: string }[]) => nodes.map((node) => node.name);

describe('the node list kept for everyone (contract §23, issue 48)', () => {
  describe('CachedNodeReadModel', () => {
    let feed: EventFeed;
    let announce: (type: PublishedEvent['type']) => void;
    let now: number;
    let sql: CountingNodes;
    let cached: CachedNodeReadModel;
    let alice: TestUser;
    let admin: TestUser;
    const as = (user: TestUser | null): CallerRef => ({ actor: user && { id: user.id, login: user.login, role: user.role } });
    const byToken = (user: TestUser): CallerRef => ({ accessDigest: digestOf(user.token), at: new Date() });

    beforeEach(async () => {
      ({ feed, announce } = announcedFeed());
      now = 1_000_000;
      sql = new CountingNodes(testEnv().persistence.sql);
      cached = new CachedNodeReadModel(sql, feed, () => now);
      alice = await makeUser('alice');
      admin = await makeUser('root', 'admin');
      await makeNode('Ruby', { sort: 2 });
      await makeNode('Go', { sort: 1 });
    });

    afterEach(() => cached.close());

    it('gives every caller what the statement gives them, read once while no node is read by some only', async () => {
      for (const caller of [as(null), as(alice), as(admin), byToken(alice), byToken(admin)]) {
        const { viewer, result } = await cached.list(caller);
        expect(result).to.deep.equal((await sql.list(caller)).result.map(({ moderated: _, ...node }) => node));
        expect(names(result)).to.deep.equal(['Ruby', 'Go', 'NoPoint']);
        expect(viewer, 'nobody was looked up').to.equal(null);
      }
      expect(sql.everyonesReads).to.equal(1);
    });

    it('reads a caller who may be signed in afresh once a node is read by some only, and never shows it to others', async () => {
      await makeGroup('staff', [admin]);
      const room = await makeNode('Staff room');
      await cached.list(as(alice)); // kept while everything is everyone's
      await setNodeAccess(room, { read: { groups: ['staff'] } });
      announce('node.access_changed');
      expect(names((await cached.list(as(alice))).result)).to.not.include('Staff room');
      expect(names((await cached.list(byToken(alice))).result)).to.not.include('Staff room');
      expect(names((await cached.list(as(null))).result)).to.not.include('Staff room');
      const insider = await cached.list(byToken(admin));
      expect(names(insider.result)).to.include('Staff room');
      expect(insider.viewer?.id, 'the caller the statement looked up').to.equal(admin.id);
      expect(sql.everyonesReads, 'the list everyone is shown is still kept').to.equal(2);
    });

    it('forgets the list on an event that moves a row of it, and after its lifetime on its own', async () => {
      await cached.list(as(null));
      const elixir = await makeNode('Elixir');
      expect(names((await cached.list(as(alice))).result), 'kept').to.not.include('Elixir');
      announce('moderation.acted');
      expect(names((await cached.list(as(alice))).result)).to.include('Elixir');

      await makeTopic(alice, elixir, 'counted');
      expect((await cached.list(as(null))).result.find((node) => node.id === elixir)!.topicsCount).to.equal(0);
      announce('favorite.added'); // no node's row moves
      expect((await cached.list(as(null))).result.find((node) => node.id === elixir)!.topicsCount).to.equal(0);
      now += RECENT_ANSWER_TTL_MS;
      expect((await cached.list(as(null))).result.find((node) => node.id === elixir)!.topicsCount).to.equal(1);
      expect(sql.everyonesReads).to.equal(3);
    });
  });

  it('is what a server’s container reads nodes through, and forumctl’s and the tests’ read afresh', () => {
    const env = testEnv();
    const server = buildContainer(env.persistence as Database, env.config, {
      logger: pino({ level: 'silent' }),
      version: 'test',
      clusterWorker: false,
    });
    expect(server.get(NodeReadModel)).to.be.instanceOf(CachedNodeReadModel);
    (server.get(NodeReadModel) as CachedNodeReadModel).close();
    expect(env.container.get(NodeReadModel)).to.be.instanceOf(SqlNodeReadModel);
    expect(env.container.get(NodeReadModel)).to.not.be.instanceOf(CachedNodeReadModel);
  });

  it('is kept by a server process, and shows a change committed in another within a second', async function () {
    this.timeout(60_000);
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    await makeGroup('team', [bob]);
    const corner = await makeNode('Corner');
    const other = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
    const list = async (user: TestUser | null) => {
      const res = await fetch(`${other.url}/api/v3/nodes`, { headers: user ? user.auth : {} });
      expect(res.status).to.equal(200);
      return ((await res.json()) as { nodes: { id: number; name: string; topics_count: number }[] }).nodes;
    };
    const within = async (what: string, done: () => Promise<boolean>) => {
      const changed = Date.now();
      while (!(await done())) {
        expect(Date.now() - changed, `${what}: stale for more than a second`).to.be.below(1_000);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    try {
      expect(names(await list(alice))).to.include('Corner');
      await makeTopic(alice, corner, 'counted there');
      await within('a topic counted', async () => (await list(alice)).find((n) => n.id === corner)!.topics_count === 1);
      const fresh = await makeNode('Fresh');
      await within('a node made', async () => (await list(null)).some((n) => n.id === fresh));

      await setNodeAccess(corner, { read: { groups: ['team'] } });
      await within('a node made the team’s', async () => !names(await list(alice)).includes('Corner'));
      expect(names(await list(null))).to.not.include('Corner');
      expect(names(await list(bob)), 'the team still reads it').to.include('Corner');
      await setNodeAccess(corner, { read: { audience: 'everyone' } });
      await within('a node made everyone’s again', async () => names(await list(alice)).includes('Corner'));
    } finally {
      await other.terminate();
    }
  });
});

function digestOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

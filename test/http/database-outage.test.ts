import { expect } from 'chai';
import { pino } from 'pino';
import { checkedApi } from '../support/openapi.js';
import { createApp, HttpUseCases } from '../../src/server/app.js';
import { connect, type Persistence } from '../../src/adapters/persistence/database/orm.js';
import { RequestContext } from '@mikro-orm/postgresql';
import { buildContainer } from '../../src/container.js';
import { isDatabaseUnavailable } from '../../src/adapters/persistence/database/unavailable.js';
import { appDependencies, testEnv } from '../support/env.js';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { TcpProxy } from '../support/tcp-proxy.js';

describe('while the database cannot be reached', function () {
  this.timeout(30_000);
  let proxy: TcpProxy;
  let persistence: Persistence;
  let request: () => ReturnType<typeof checkedApi>;
  let general: number;

  beforeEach(async () => {
    const env = testEnv();
    const direct = new URL(env.config.databaseUrl!);
    proxy = new TcpProxy(direct.hostname, Number(direct.port || 5432));
    await proxy.up();
    persistence = await connect(proxy.via(env.config.databaseUrl!), { poolMax: 4 });
    const { orm } = persistence;
    const app = createApp({
      ...appDependencies(),
      useCases: buildContainer(persistence, env.config).get<HttpUseCases>(HttpUseCases),
      scope: (work) => RequestContext.create(orm.em, work),
      isReady: () => orm.isConnected(),
      isUnavailable: isDatabaseUnavailable,
      logger: pino({ level: 'silent' }),
    });
    request = () => checkedApi(app);
    const alice = await makeUser('alice');
    general = await makeNode('General');
    await makeTopic(alice, general);
  });

  afterEach(async () => {
    await proxy.down();
    await persistence.close().catch(() => undefined);
  });

  it('answers 503 ServiceUnavailable with Retry-After, quickly, and recovers by itself when it is back', async () => {
    const alice = await makeUser('bob');
    await request().get('/api/v3/topics').expect(200);
    await proxy.down();
    for (const [method, path] of [
      ['get', '/api/v3/topics'],
      ['get', '/api/v3/topics/1'],
      ['get', '/api/v3/hello'],
      ['post', '/api/v3/topics'],
    ] as const) {
      const started = Date.now();
      const res = await request()[method](path).set(alice.auth).send({ title: 't', body: 'b', node_id: general });
      expect(res.status, `${method} ${path}`).to.equal(503);
      expect(res.body).to.deep.equal({
        error: 'ServiceUnavailable',
        message: 'The database cannot be reached right now; try again shortly',
      });
      expect(Number(res.headers['retry-after'])).to.be.greaterThan(0);
      expect(Date.now() - started, 'fails fast').to.be.below(4_000);
    }
    await request().get('/readyz').expect(503);
    await request().get('/healthz').expect(200);
    await proxy.up();
    await request().get('/readyz').expect(200);
    const res = await request().get('/api/v3/topics').expect(200);
    expect(res.body.topics).to.have.length(1);
  });

  it('leaves nothing half-written when it goes away in the middle of a request', async () => {
    const alice = await makeUser('carol');
    // Writes keep coming; the database goes away as soon as the first of them has landed.
    let landed!: () => void;
    const firstLanded = new Promise<void>((resolve) => (landed = resolve));
    const writes = Array.from({ length: 40 }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i));
      const res = await request()
        .post('/api/v3/topics')
        .set(alice.auth)
        .send({ title: `t${i}`, body: 'b', node_id: general });
      if (res.status === 200) landed();
      return res.status;
    });
    await firstLanded;
    await proxy.down();
    const statuses = await Promise.all(writes);
    expect(
      statuses.every((status) => status === 200 || status === 503),
      String(statuses),
    ).to.equal(true);
    expect(statuses, 'some writes were cut off').to.include(503);
    const [counts] = await testEnv().sql<{ topics: number; counter: number; node: number }>(
      `select (select count(*)::int from topics where user_id = $1) as topics,
              (select topics_count from users where id = $1) as counter,
              (select topics_count from nodes where id = $2) as node`,
      [alice.id, general],
    );
    // Every write that answered 200 is there; each one landed whole or not at all. (A write whose COMMIT was cut
    // may have landed though it answered 503: no client of any database can know.)
    expect(counts!.topics).to.be.at.least(statuses.filter((status) => status === 200).length);
    expect(counts!.counter).to.equal(counts!.topics);
    expect(counts!.node).to.equal(counts!.topics + 1);
  });
});

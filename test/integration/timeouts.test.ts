import { expect } from 'chai';
import pg from 'pg';
import { pino } from 'pino';
import { RequestContext } from '@mikro-orm/postgresql';
import supertest from 'supertest';
import { createApp, HttpUseCases } from '../../src/server/app.js';
import { NotificationStreams } from '../../src/adapters/api/notification-streams.js';
import { connect, type Persistence } from '../../src/adapters/persistence/database/orm.js';
import { isDatabaseUnavailable } from '../../src/adapters/persistence/database/unavailable.js';
import { Wire } from '../../src/adapters/presentation/wire.js';
import { buildContainer } from '../../src/container.js';
import { testEnv } from '../support/env.js';

/** The service on the test database, with pools as small and impatient as `options` says. */
async function impatientApp(options: { poolMax: number; statementTimeoutMs: number; connectTimeoutMs: number }) {
  const env = testEnv();
  const persistence = await connect(env.config.databaseUrl!, options);
  const container = buildContainer(persistence, env.config);
  const app = createApp({
    useCases: container.get<HttpUseCases>(HttpUseCases),
    notificationStreams: container.get(NotificationStreams),
    wire: container.get(Wire),
    scope: (work) => RequestContext.create(persistence.orm.em, work),
    isReady: async () => true,
    isUnavailable: isDatabaseUnavailable,
    logger: pino({ level: 'silent' }),
    tokenLifetimes: { accessSeconds: 60, refreshSeconds: 60 },
  });
  return { app, persistence };
}

describe('timeouts (contract §15): a slow statement or an exhausted pool answers 503 quickly', () => {
  let locker: pg.Client;
  let persistence: Persistence | null = null;

  beforeEach(async () => {
    locker = new pg.Client({ connectionString: testEnv().config.databaseUrl! });
    await locker.connect();
  });

  afterEach(async () => {
    await locker.query('rollback').catch(() => undefined);
    await locker.end();
    await persistence?.close();
    persistence = null;
  });

  it('cancels a statement that runs past the statement timeout, and answers 503 with Retry-After', async () => {
    const built = await impatientApp({ poolMax: 2, statementTimeoutMs: 300, connectTimeoutMs: 3_000 });
    persistence = built.persistence;
    await locker.query('begin; lock table topics in access exclusive mode');
    const started = Date.now();
    const res = await supertest(built.app.callback()).get('/api/v3/topics');
    expect(res.status).to.equal(503);
    expect(res.body.error).to.equal('ServiceUnavailable');
    expect(res.headers['retry-after']).to.match(/^\d+$/);
    expect(Date.now() - started).to.be.below(2_000);
    await locker.query('rollback');
    await supertest(built.app.callback()).get('/api/v3/topics').expect(200);
  });

  it('answers 503 when no connection is free within the acquire timeout, and serves again once one is', async () => {
    const built = await impatientApp({ poolMax: 1, statementTimeoutMs: 0, connectTimeoutMs: 300 });
    persistence = built.persistence;
    await locker.query('begin; lock table topics in access exclusive mode');
    const api = supertest(built.app.callback());
    // The first request takes the only read connection and waits on the lock; the next cannot get one.
    const stuck = api.get('/api/v3/topics').then((res) => res.status);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const res = await api.get('/api/v3/topics');
    expect(res.status).to.equal(503);
    expect(Date.now() - started).to.be.below(2_000);
    await locker.query('rollback');
    expect(await stuck).to.equal(200);
    await api.get('/api/v3/topics').expect(200);
  });
});

import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { appDependencies, testEnv } from '../support/env.js';

describe('the server process', () => {
  it('serves, then on SIGTERM finishes, closes the database and exits 0', async function () {
    this.timeout(60_000);
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      env: { ...process.env, DATABASE_URL: testEnv().config.databaseUrl!, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
    });
    const url = await listening;
    const res = await fetch(`${url}/api/v3/topics`);
    expect(res.status).to.equal(200);
    // The request log line is written when the response finishes: give it a moment to arrive.
    const requestLog = () => output.split('\n').find((l) => l.includes('"url":"/api/v3/topics"'));
    for (let i = 0; i < 50 && !requestLog(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(requestLog()!)).to.include({ msg: 'request completed' });
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).to.equal(0);
    expect(output).to.include('shutting down');
  });
});

/** A logger at `info` whose lines are kept, each as `parse` makes it. */
async function capturedLog<T>(parse: (line: string) => T) {
  const { pino } = await import('pino');
  const { Writable } = await import('node:stream');
  const lines: T[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(parse(chunk.toString()));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

describe('request logs', () => {
  it('write one structured line per request, with an id, and never a credential', async () => {
    const { createApp } = await import('../../src/server/app.js');
    const { checkedApi } = await import('../support/openapi.js');
    const { logger, lines } = await capturedLog(JSON.parse);
    const env = testEnv();
    const app = createApp({
      useCases: appDependencies().useCases,
      notificationStreams: appDependencies().notificationStreams,
      wire: env.wire,
      scope: env.scope,
      isReady: async () => true,
      isUnavailable: () => false,
      logger,
      tokenLifetimes: { accessSeconds: 60, refreshSeconds: 60 },
    });
    const res = await checkedApi(app).get('/api/v3/topics?access_token=s3cret&limit=5').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).to.equal('abc-123');
    await new Promise((resolve) => setImmediate(resolve));
    const line = lines.find((l) => l.msg === 'request completed')!;
    expect(line).to.include({ reqId: 'abc-123', method: 'GET', status: 200, userId: null });
    expect(line.url).to.equal('/api/v3/topics?access_token=[REDACTED]&limit=5');
    expect(JSON.stringify(lines)).to.not.include('s3cret');
  });

  it('never name a conversation: its id in a path is left out of the line (contract §24)', async () => {
    const { createApp } = await import('../../src/server/app.js');
    const { checkedApi } = await import('../support/openapi.js');
    const { makeUser, api } = await import('../support/builders.js');
    const { logger, lines } = await capturedLog(JSON.parse);
    const app = createApp({ ...appDependencies(), logger });
    const alice = await makeUser('alice');
    await makeUser('bob');
    const sent = await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: ['bob'], title: 'Hush', body: 'quiet' })
      .expect(200);
    const id = sent.body.message.id as number;
    await checkedApi(app).get(`/api/v3/messages/${id}/replies?limit=5`).set(alice.auth).expect(200);
    await checkedApi(app).get(`/messages/${id}`).expect(303);
    await new Promise((resolve) => setImmediate(resolve));
    const urls = lines.filter((l) => l.msg === 'request completed').map((l) => l.url);
    expect(urls).to.deep.equal(['/api/v3/messages/:id/replies?limit=5', '/messages/:id']);
    expect(JSON.stringify(lines)).not.to.match(new RegExp(`messages/${id}\\b`));
  });

  it('give each request a UUID unless the caller sent a plain id, and put it on every line of that request, a 500 included', async () => {
    const { createApp } = await import('../../src/server/app.js');
    const { appDependencies } = await import('../support/env.js');
    const { checkedApi } = await import('../support/openapi.js');
    const { logger, lines } = await capturedLog(JSON.parse);
    const dependencies = appDependencies();
    const failing = {
      ...dependencies.useCases,
      topics: {
        ...dependencies.useCases.topics,
        listTopics: { execute: async () => Promise.reject(new Error('the unexpected')) },
      },
    } as unknown as typeof dependencies.useCases;
    const app = createApp({ ...dependencies, useCases: failing, logger });
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

    const first = (await checkedApi(app).get('/api/v3/nodes')).headers['x-request-id'];
    const second = (await checkedApi(app).get('/api/v3/nodes')).headers['x-request-id'];
    expect(first).to.match(uuid);
    expect(second).to.match(uuid).and.not.equal(first);
    for (const hostile of ['two words', 'x'.repeat(200), 'a\u00e9b']) {
      const res = await checkedApi(app).get('/api/v3/nodes').set('X-Request-Id', hostile);
      expect(res.headers['x-request-id'], hostile).to.match(uuid);
    }

    const failed = await checkedApi(app).get('/api/v3/topics').set('X-Request-Id', 'trace-7f3a');
    expect(failed.status).to.equal(500);
    expect(failed.headers['x-request-id']).to.equal('trace-7f3a');
    await new Promise((resolve) => setImmediate(resolve));
    const ofIt = lines.filter((line) => line.reqId === 'trace-7f3a');
    expect(ofIt.map((line) => line.msg)).to.deep.equal(['unhandled error', 'request completed']);
    expect((ofIt[0]!.err as { message: string }).message).to.equal('the unexpected');
  });

  it('redact every spelling of a credential the server honours, by meaning rather than by name', async () => {
    const { createApp } = await import('../../src/server/app.js');
    const { appDependencies } = await import('../support/env.js');
    const { makeUser } = await import('../support/builders.js');
    const { checkedApi } = await import('../support/openapi.js');
    const { logger, lines } = await capturedLog((line) => line);
    const app = createApp({ ...appDependencies(), logger });
    const alice = await makeUser('alice');
    const secrets = [alice.token];
    for (const spelling of ['access_token', 'access_token[]', '%61ccess_token', 'access%5Ftoken']) {
      const res = await checkedApi(app).get(`/api/v3/hello?${spelling}=${alice.token}&limit=5`);
      expect(res.status, `${spelling} is honoured`).to.equal(200);
    }
    for (const [spelling, value] of [
      ['password[]', 'pa55-array'],
      ['%70assword', 'pa55-encoded'],
      ['client%5Fsecret', 'cl1ent-encoded'],
      ['client_secret[]', 'cl1ent-array'],
      ['refresh_token', 'refr3sh-plain'],
    ]) {
      secrets.push(value!);
      await checkedApi(app).post(`/oauth/token?grant_type=password&username=alice&${spelling}=${value}`);
    }
    await new Promise((resolve) => setImmediate(resolve));
    const log = lines.join('');
    expect(lines).to.have.length(9);
    for (const secret of secrets) expect(log).to.not.include(secret);
    expect(log).to.include('limit=5').and.include('grant_type=password');
  });
});

describe('GET /readyz', () => {
  it('answers 503 while the database does not answer', async () => {
    const { pino } = await import('pino');
    const { createApp } = await import('../../src/server/app.js');
    const { checkedApi } = await import('../support/openapi.js');
    const env = testEnv();
    const app = createApp({
      useCases: appDependencies().useCases,
      notificationStreams: appDependencies().notificationStreams,
      wire: env.wire,
      scope: env.scope,
      isReady: async () => {
        throw new Error('connection refused');
      },
      isUnavailable: () => false,
      logger: pino({ level: 'silent' }),
      tokenLifetimes: { accessSeconds: 60, refreshSeconds: 60 },
    });
    const res = await checkedApi(app).get('/readyz').expect(503);
    expect(res.body).to.deep.equal({ status: 'unavailable' });
    await checkedApi(app).get('/healthz').expect(200, { status: 'ok' });
  });
});

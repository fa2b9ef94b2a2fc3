import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { load } from '../support/load.js';
import { startServerProcess } from '../support/server-process.js';

describe('SIGTERM under load', function () {
  this.timeout(60_000);

  beforeEach(async () => {
    const alice = await makeUser('alice');
    await makeTopic(alice, await makeNode('General'));
  });

  it('answers every request sent on its kept-alive connections, refuses new ones, and exits 0', async () => {
    const server = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
    const run = load(server.url, { connections: 8, path: '/api/v3/topics', keepAlive: true });
    await sleep(700);
    const code = await server.terminate();
    const outcome = await run.stop();
    expect(outcome.answered, 'requests answered before the stop').to.be.greaterThan(50);
    expect(outcome.statuses).to.have.all.keys('200');
    expect(outcome.unanswered, outcome.errors.slice(0, 5).join('; ')).to.equal(0);
    expect(outcome.refused, 'clients refused once it stopped accepting').to.be.greaterThan(0);
    expect(code, server.output()).to.equal(0);
  });
});

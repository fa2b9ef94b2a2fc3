import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../src/server/app.js';
import { ServiceMetrics } from '../../src/adapters/api/metrics.js';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { appDependencies, testEnv } from '../support/env.js';

function metricsApp(token: string | null = null) {
  const collector = new ServiceMetrics({ pools: testEnv().persistence.poolUse, openStreams: () => 7 });
  const app = createApp({ ...appDependencies(), metrics: { collector, token } });
  return { api: supertest(app.callback()), collector };
}

/** The value of one sample line, or undefined. */
function sample(text: string, line: string): number | undefined {
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

describe('GET /metrics (contract §15)', () => {
  it('counts requests by route template, method and status, with their latency, in Prometheus text', async () => {
    const { api } = metricsApp();
    const alice = await makeUser('alice');
    const topic = await makeTopic(alice, await makeNode('Ruby'));
    await api.get(`/api/v3/topics/${topic}`).expect(200);
    await api.get(`/api/v3/topics/${topic}.json`).expect(200);
    await api.get('/api/v3/topics/999999').expect(404);
    await api.get('/no/such/path').expect(404);
    const res = await api.get('/metrics').expect(200);
    expect(res.headers['content-type']).to.match(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const shown = 'http_request_duration_seconds_count{method="GET",route="/api/v3/topics/:id",status="200"}';
    expect(sample(text, shown)).to.equal(2);
    expect(sample(text, shown.replace('200', '404'))).to.equal(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).to.equal(1);
    expect(
      sample(text, 'http_request_duration_seconds_bucket{le="10",method="GET",route="/api/v3/topics/:id",status="200"}'),
    ).to.equal(2);
  });

  it('shows the pools, the open streams, webhook tries by outcome and the event-loop lag', async () => {
    const { api, collector } = metricsApp();
    collector.webhookDeliveries.inc({ outcome: 'delivered' }, 3);
    collector.webhookDeliveries.inc({ outcome: 'retry' });
    const text = (await api.get('/metrics').expect(200)).text;
    for (const pool of ['orm', 'sql']) {
      expect(sample(text, `forum_db_pool_connections{pool="${pool}"}`), pool).to.be.a('number');
      expect(sample(text, `forum_db_pool_waiting_queries{pool="${pool}"}`), pool).to.equal(0);
    }
    expect(sample(text, 'forum_notification_streams')).to.equal(7);
    expect(sample(text, 'forum_webhook_tries_total{outcome="delivered"}')).to.equal(3);
    expect(sample(text, 'forum_webhook_tries_total{outcome="retry"}')).to.equal(1);
    expect(text).to.match(/^nodejs_eventloop_lag_seconds \d/m);
  });

  it('with METRICS_TOKEN, answers only the bearer of it', async () => {
    const { api } = metricsApp('scrape-me-please');
    const refused = await api.get('/metrics').expect(401);
    expect(refused.body.error).to.equal('Unauthorized');
    expect(refused.headers['www-authenticate']).to.contain('Bearer');
    await api.get('/metrics').set('Authorization', 'Bearer scrape-me-pleasE').expect(401);
    await api.get('/metrics').set('Authorization', 'Bearer scrape-me').expect(401);
    const ok = await api.get('/metrics').set('Authorization', 'Bearer scrape-me-please').expect(200);
    expect(ok.text).to.contain('http_request_duration_seconds');
  });
});

/**
 * Sign-ups beside the read load (issue 32): a sign-up hashes a password with argon2id (tens of milliseconds of CPU,
 * on libuv's threads, off the event loop). The same read load (GET /topics/:id, anonymous) runs twice: alone, then
 * with 20 sign-ups a second from other addresses (TRUST_PROXY, X-Forwarded-For: each its own client); the reads'
 * p99 with and without is the cost.
 */
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';

export interface ReadFigures {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface SignUpFigures {
  signUpsPerSecond: number;
  alone: ReadFigures;
  beside: ReadFigures & { signUps: { done: number; p50: number; p99: number; errors: number } };
}

/** The server's environment this scenario needs: client addresses from X-Forwarded-For. */
export const SIGN_UP_SERVER_ENV = { TRUST_PROXY: 'true' };

function percentile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
}

async function reads(url: string, topicIds: number[], durationSeconds: number, connections: number): Promise<ReadFigures> {
  const result = await autocannon({
    url,
    connections,
    duration: durationSeconds,
    requests: [
      {
        method: 'GET',
        path: '/api/v3/topics/1',
        setupRequest: (request) => ({
          ...request,
          path: `/api/v3/topics/${topicIds[Math.floor(Math.random() * topicIds.length)]}`,
        }),
      },
    ],
  });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export async function measureSignUps(
  url: string,
  fixtures: { topicIds: number[] },
  settings: { durationSeconds: number; connections: number; signUpsPerSecond: number },
): Promise<SignUpFigures> {
  const alone = await reads(url, fixtures.topicIds, settings.durationSeconds, settings.connections);
  const timings: number[] = [];
  let errors = 0;
  const pending: Promise<void>[] = [];
  const run = randomBytes(3).toString('hex');
  let n = 0;
  const signUp = async () => {
    const i = n++;
    const started = performance.now();
    const res = await fetch(`${url}/api/v3/users`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      },
      body: JSON.stringify({ login: `b${run}${i}`, email: `b${run}${i}@bench.example`, password: `a long passphrase ${run}` }),
    }).catch(() => null);
    if (!res || res.status !== 200) errors++;
    await res?.arrayBuffer().catch(() => undefined);
    timings.push(performance.now() - started);
  };
  const timer = setInterval(() => pending.push(signUp()), 1000 / settings.signUpsPerSecond);
  const beside = await reads(url, fixtures.topicIds, settings.durationSeconds, settings.connections).finally(() =>
    clearInterval(timer),
  );
  await Promise.all(pending);
  const sorted = timings.sort((a, b) => a - b);
  return {
    signUpsPerSecond: settings.signUpsPerSecond,
    alone,
    beside: { ...beside, signUps: { done: sorted.length, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), errors } },
  };
}

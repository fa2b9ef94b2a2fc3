/**
 * The mixed workload of `npm run bench` (issue 18): 90 % reads (topic list, topic, reply list, unread count) and
 * 10 % writes (reply, like, follow) by one signed-in user at 64 connections, each kind timed on its own; then every
 * counter recomputed from the rows, which must find nothing to correct.
 */
import autocannon from 'autocannon';
import { replyText } from './reply-text.js';

/** The mix, in parts of a hundred. */
const KINDS = [
  { kind: 'GET /topics', weight: 30, write: false },
  { kind: 'GET /topics/:id', weight: 25, write: false },
  { kind: 'GET /topics/:id/replies', weight: 25, write: false },
  { kind: 'GET /notifications/unread_count', weight: 10, write: false },
  { kind: 'POST /topics/:id/replies', weight: 4, write: true },
  { kind: 'POST /likes', weight: 3, write: true },
  { kind: 'POST /topics/:id/follow', weight: 3, write: true },
] as const;

type Kind = (typeof KINDS)[number]['kind'];

export interface MixedFigures {
  /** Error responses by status, if any. */
  errorStatuses: Record<number, number>;
  connections: number;
  requestsPerSecond: number;
  kinds: { kind: Kind; write: boolean; requestsPerSecond: number; p50: number; p99: number; errors: number }[];
}

function pick(): (typeof KINDS)[number] {
  let roll = Math.random() * 100;
  for (const entry of KINDS) {
    roll -= entry.weight;
    if (roll < 0) return entry;
  }
  return KINDS[0];
}

function request(kind: Kind, topicId: number): { method: autocannon.Request['method']; path: string; body?: string } {
  switch (kind) {
    case 'GET /topics':
      return { method: 'GET', path: '/api/v3/topics' };
    case 'GET /topics/:id':
      return { method: 'GET', path: `/api/v3/topics/${topicId}` };
    case 'GET /topics/:id/replies':
      return { method: 'GET', path: `/api/v3/topics/${topicId}/replies?limit=20` };
    case 'GET /notifications/unread_count':
      return { method: 'GET', path: '/api/v3/notifications/unread_count' };
    case 'POST /topics/:id/replies':
      return { method: 'POST', path: `/api/v3/topics/${topicId}/replies`, body: JSON.stringify({ body: replyText() }) };
    case 'POST /likes':
      return { method: 'POST', path: '/api/v3/likes', body: JSON.stringify({ obj_type: 'topic', obj_id: topicId }) };
    case 'POST /topics/:id/follow':
      return { method: 'POST', path: `/api/v3/topics/${topicId}/follow`, body: '{}' };
  }
}

function percentile(sorted: number[], q: number): number {
  return sorted.length === 0 ? NaN : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! * 10) / 10;
}

export async function measureMixed(
  url: string,
  fixtures: { token: string; topicIds: number[] },
  settings: { durationSeconds: number; connections: number },
): Promise<MixedFigures> {
  const timings = new Map<Kind, number[]>(KINDS.map((entry) => [entry.kind, []]));
  const errors = new Map<Kind, number>(KINDS.map((entry) => [entry.kind, 0]));
  const statuses = new Map<number, number>();
  const readHeaders = { authorization: `Bearer ${fixtures.token}` };
  const headers = { ...readHeaders, 'content-type': 'application/json' };
  const result = await autocannon({
    url,
    connections: settings.connections,
    duration: settings.durationSeconds,
    requests: [
      {
        method: 'GET',
        path: '/api/v3/topics',
        headers,
        setupRequest: (_req, context) => {
          const entry = pick();
          const topicId = fixtures.topicIds[Math.floor(Math.random() * fixtures.topicIds.length)]!;
          Object.assign(context, { kind: entry.kind, started: performance.now() });
          // A fresh request each time: autocannon frames what it is given, and a body left from a write would
          // make the next read malformed.
          const next = request(entry.kind, topicId);
          return {
            method: next.method,
            path: next.path,
            headers: next.body === undefined ? readHeaders : headers,
            ...(next.body === undefined ? {} : { body: next.body }),
          } as autocannon.Request;
        },
        onResponse: (status, _body, context) => {
          const { kind, started } = context as { kind: Kind; started: number };
          timings.get(kind)!.push(performance.now() - started);
          if (status >= 400) {
            errors.set(kind, errors.get(kind)! + 1);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        },
      },
    ],
  });
  return {
    errorStatuses: Object.fromEntries(statuses),
    connections: settings.connections,
    requestsPerSecond: Math.round(result.requests.average),
    kinds: KINDS.map(({ kind, write }) => {
      const sorted = [...timings.get(kind)!].sort((a, b) => a - b);
      return {
        kind,
        write,
        requestsPerSecond: Math.round(sorted.length / settings.durationSeconds),
        p50: percentile(sorted, 0.5),
        p99: percentile(sorted, 0.99),
        errors: errors.get(kind)!,
      };
    }),
  };
}

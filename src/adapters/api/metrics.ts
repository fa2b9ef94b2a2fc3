import { timingSafeEqual } from 'node:crypto';
import type Koa from 'koa';
import client from 'prom-client';

/** A database pool's use at the moment of a scrape. */
export interface PoolUse {
  pool: string;
  /** Connections open (busy or idle). */
  open: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export interface MetricsSources {
  pools?: () => PoolUse[];
  openStreams?: () => number;
  /** Items waiting in the review queue (contract §18), read from the database at each scrape. */
  pendingReviews?: () => Promise<number>;
  /** Units of work aborted as conflicts so far in this process, by PostgreSQL's code (each tried again). */
  conflicts?: () => [code: string, count: number][];
}

/** Where a scrape gets its text: this process's registry, or (under WEB_CONCURRENCY) every worker's, summed. */
export type MetricsText = (registry: client.Registry) => Promise<string>;

const localText: MetricsText = (registry) => registry.metrics();

/**
 * Contract §15's metrics, in a registry of their own (one per app, so that tests can build several): requests
 * by route template, method and status with their latency, the database pools, the open notification streams,
 * webhook deliveries by outcome, and Node's own (event-loop lag, memory, CPU, GC).
 */
export class ServiceMetrics {
  readonly registry = new client.Registry();
  private readonly requests: client.Histogram<'method' | 'route' | 'status'>;
  readonly webhookDeliveries: client.Counter<'outcome'>;
  readonly mailTries: client.Counter<'outcome'>;

  constructor(sources: MetricsSources = {}) {
    const registers = [this.registry];
    client.collectDefaultMetrics({ register: this.registry });
    this.requests = new client.Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP requests by route template, method and status, and how long they took',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    });
    this.webhookDeliveries = new client.Counter({
      name: 'forum_webhook_tries_total',
      help: 'Webhook delivery tries by outcome: delivered, retry (to be tried again), failed (the last try), gone',
      labelNames: ['outcome'],
      registers,
    });
    this.mailTries = new client.Counter({
      name: 'forum_mail_tries_total',
      help: 'Mail sending tries by outcome: sent, dropped (a spent or expired link, a gone account), failed (tried again later)',
      labelNames: ['outcome'],
      registers,
    });
    const pools = sources.pools;
    if (pools) {
      const gauge = (name: string, help: string, field: 'open' | 'idle' | 'waiting') =>
        new client.Gauge({
          name,
          help,
          labelNames: ['pool'],
          registers,
          collect() {
            for (const use of pools()) this.set({ pool: use.pool }, use[field]);
          },
        });
      gauge('forum_db_pool_connections', 'Open database connections per pool (busy or idle)', 'open');
      gauge('forum_db_pool_idle_connections', 'Idle database connections per pool', 'idle');
      gauge('forum_db_pool_waiting_queries', 'Queries waiting for a database connection per pool', 'waiting');
    }
    const openStreams = sources.openStreams;
    if (openStreams) {
      new client.Gauge({
        name: 'forum_notification_streams',
        help: 'Open notification streams (Server-Sent Events)',
        registers,
        collect() {
          this.set(openStreams());
        },
      });
    }
    const conflicts = sources.conflicts;
    if (conflicts) {
      const seen = new Map<string, number>();
      new client.Counter({
        name: 'forum_unit_of_work_conflicts_total',
        help: 'Units of work PostgreSQL aborted as a deadlock (40P01) or a serialization failure (40001), each tried again',
        labelNames: ['code'],
        registers,
        collect() {
          for (const [code, count] of conflicts()) {
            this.inc({ code }, count - (seen.get(code) ?? 0));
            seen.set(code, count);
          }
        },
      });
    }
    const pendingReviews = sources.pendingReviews;
    if (pendingReviews) {
      new client.Gauge({
        name: 'forum_review_pending_items',
        help: 'Items waiting in the review queue (flagged and held posts)',
        registers,
        // One database for every worker: a cluster's scrape takes one worker's count, not their sum.
        aggregator: 'max',
        async collect() {
          // The database unreachable at a scrape: the last count stands (the pools' metrics tell what is wrong).
          await pendingReviews().then(
            (count) => this.set(count),
            () => undefined,
          );
        },
      });
    }
  }

  /** Times every request; the route is the router's template (`/api/v3/topics/:id`), so labels stay few. */
  middleware(): Koa.Middleware {
    return async (ctx, next) => {
      const end = this.requests.startTimer();
      try {
        await next();
      } finally {
        const route = (ctx as Koa.Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched';
        end({ method: ctx.method, route, status: String(ctx.status) });
      }
    };
  }

  /**
   * `GET /metrics` in Prometheus' text format; with a token, only for `Authorization: Bearer <token>`. Answered
   * before the API's middleware, so that scrapes count in the request metrics but pay for nothing else.
   */
  route(options: { token?: string | null; text?: MetricsText } = {}): Koa.Middleware {
    const text = options.text ?? localText;
    const expected = options.token ? Buffer.from(`Bearer ${options.token}`) : null;
    const answer = async (ctx: Koa.Context) => {
      if (expected) {
        const given = Buffer.from(ctx.get('authorization'));
        if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
          ctx.status = 401;
          ctx.set('WWW-Authenticate', 'Bearer realm="metrics"');
          ctx.body = { error: 'Unauthorized', message: 'GET /metrics needs the METRICS_TOKEN as a bearer token' };
          return;
        }
      }
      (ctx as Koa.Context & { _matchedRoute?: string })._matchedRoute = '/metrics';
      ctx.type = this.registry.contentType;
      ctx.body = await text(this.registry);
    };
    return (ctx, next) => (ctx.path === '/metrics' && (ctx.method === 'GET' || ctx.method === 'HEAD') ? answer(ctx) : next());
  }
}

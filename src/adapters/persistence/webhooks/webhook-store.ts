import type {
  DeliveryStatus,
  DueDelivery,
  Webhook,
  WebhookAttempt,
  WebhookDelivery,
  WebhookStore,
} from '../../../application/webhooks/webhooks.js';
import type { WebhookEvent } from '../../../domain/events.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

/**
 * The job queue that drives deliveries: graphile-worker, in its own schema of the same database, so that a
 * delivery's first try is queued in the transaction of the change (`graphile_worker.add_job` is its SQL API).
 */
export const DELIVERY_TASK = 'webhook_delivery';

/**
 * Tries per delivery. graphile-worker waits exp(n) seconds after the n-th failure: the first retry comes after
 * 3 s, then 7 s, 20 s, 55 s, 2.5 min, 7 min, 18 min, 50 min and 2.3 h, so ten tries span about 3.6 hours
 * (contract §13: the first retry within 30 s, at least five over at least an hour).
 */
export const DELIVERY_ATTEMPTS = 10;

/**
 * Queues a try of each delivery of `deliveries` (a CTE with an `id`); one job per delivery, keyed by its id, and
 * flagged with its task's name, by which the job runtime keeps WEBHOOKS_CONCURRENCY (adapters/jobs/limits.ts).
 */
export const queueTries = (deliveries: string) =>
  `select graphile_worker.add_job('${DELIVERY_TASK}', json_build_object('delivery', ${deliveries}.id),
     max_attempts := ${DELIVERY_ATTEMPTS}, job_key := ${deliveries}.id::text, flags := array['${DELIVERY_TASK}'])
   from ${deliveries}`;

interface WebhookRow {
  id: number;
  url: string;
  events: string[];
  private_nodes: boolean;
  created_at: Timestamp;
}

const webhook = (row: WebhookRow): Webhook => ({
  id: row.id,
  url: row.url,
  events: row.events,
  privateNodes: row.private_nodes,
  createdAt: toDate(row.created_at),
});

interface DeliveryRow {
  id: string;
  webhook_id: number;
  event: WebhookEvent;
  status: DeliveryStatus;
  created_at: Timestamp;
  completed_at: Timestamp | null;
  attempts: { attempted_at: string; status_code: number | null; error: string | null; duration_ms: number }[];
}

export class SqlWebhookStore implements WebhookStore {
  constructor(private readonly sql: Sql) {}

  async add(input: {
    url: string;
    events: string[];
    secretSealed: string;
    privateNodes: boolean;
    createdAt: Date;
  }): Promise<Webhook> {
    const row = await this.sql.one<WebhookRow>(
      `insert into webhooks (url, events, secret, secret_sealed, private_nodes, created_at) values ($1, $2, $3, true, $4, $5)
       returning id, url, events, private_nodes, created_at`,
      [input.url, input.events, input.secretSealed, input.privateNodes, input.createdAt],
    );
    return webhook(row!);
  }

  async list(): Promise<Webhook[]> {
    const rows = await this.sql.all<WebhookRow>('select id, url, events, private_nodes, created_at from webhooks order by id');
    return rows.map(webhook);
  }

  async remove(id: number): Promise<boolean> {
    return (await this.sql.count('delete from webhooks where id = $1', [id])) > 0;
  }

  async exists(id: number): Promise<boolean> {
    return (await this.sql.one('select 1 from webhooks where id = $1', [id])) !== null;
  }

  async deliveries(webhookId: number, limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.sql.all<DeliveryRow>(
      `select d.id, d.webhook_id, d.event, d.status, d.created_at, d.completed_at,
         coalesce((select json_agg(json_build_object('attempted_at', a.attempted_at, 'status_code', a.status_code,
                     'error', a.error, 'duration_ms', a.duration_ms) order by a.id)
                   from webhook_attempts a where a.delivery_id = d.id), '[]') as attempts
       from webhook_deliveries d
       where d.webhook_id = $1
       order by d.created_at desc, d.event_id desc
       limit $2`,
      [webhookId, limit],
    );
    return rows.map((row) => ({
      id: row.id,
      webhookId: row.webhook_id,
      event: row.event,
      status: row.status,
      createdAt: toDate(row.created_at),
      completedAt: toDate(row.completed_at),
      attempts: row.attempts.map((attempt) => ({
        attemptedAt: new Date(attempt.attempted_at),
        statusCode: attempt.status_code,
        error: attempt.error,
        durationMs: attempt.duration_ms,
      })),
    }));
  }

  async redeliver(deliveryId: string): Promise<boolean> {
    const row = await this.sql.one<{ queued: string }>(
      `with again as (
         update webhook_deliveries set status = 'pending', completed_at = null where id = $1 returning id),
       queued as (${queueTries('again')})
       select count(*) as queued from queued`,
      [deliveryId],
    );
    return Number(row?.queued ?? 0) > 0;
  }

  async due(deliveryId: string): Promise<DueDelivery | null> {
    return this.sql.one<DueDelivery>(
      `select d.id, d.event, d.payload, d.data, d.status, w.url, w.secret, w.secret_sealed as "secretSealed"
       from webhook_deliveries d join webhooks w on w.id = d.webhook_id
       where d.id = $1`,
      [deliveryId],
    );
  }

  async recordAttempt(
    deliveryId: string,
    attempt: WebhookAttempt,
    outcome: { status: DeliveryStatus; completedAt: Date | null; data: unknown },
  ): Promise<void> {
    await this.sql.all(
      `with attempt as (
         insert into webhook_attempts (delivery_id, attempted_at, status_code, error, duration_ms)
         select id, $2, $3, $4, $5 from webhook_deliveries where id = $1)
       update webhook_deliveries set status = $6, completed_at = $7, data = coalesce(data, $8) where id = $1`,
      [
        deliveryId,
        attempt.attemptedAt,
        attempt.statusCode,
        attempt.error,
        attempt.durationMs,
        outcome.status,
        outcome.completedAt,
        JSON.stringify(outcome.data),
      ],
    );
  }

  async clearSecrets(): Promise<{ id: number; secret: string }[]> {
    return this.sql.all<{ id: number; secret: string }>('select id, secret from webhooks where not secret_sealed order by id');
  }

  async sealSecret(id: number, sealed: string): Promise<boolean> {
    // Only while still clear: a process that read the same clear secret and sealed it first keeps its seal.
    return (
      (await this.sql.count('update webhooks set secret = $2, secret_sealed = true where id = $1 and not secret_sealed', [
        id,
        sealed,
      ])) > 0
    );
  }
}

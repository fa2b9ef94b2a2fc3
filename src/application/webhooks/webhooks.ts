import { InvalidInput, NotFound } from '../../domain/shared/errors.js';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../domain/events.js';
import { type ActingUser, requireAdmin } from '../actor.js';
import type { Clock, SecretBox, SecretGenerator } from '../ports.js';

/** A subscription: `events` lists the event types it wants, or is `['*']` for all of them. */
export interface Webhook {
  id: number;
  url: string;
  events: string[];
  /** It hears of events in nodes not everyone may read too (contract §23); others never do. */
  privateNodes: boolean;
  createdAt: Date;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One try at a delivery: the response code when there was a response, what went wrong when there was none. */
export interface WebhookAttempt {
  attemptedAt: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One event sent to one webhook; its id is the `X-Forum-Delivery` header of every try. */
export interface WebhookDelivery {
  id: string;
  webhookId: number;
  event: WebhookEvent;
  status: DeliveryStatus;
  createdAt: Date;
  completedAt: Date | null;
  attempts: WebhookAttempt[];
}

/** What a try needs: the delivery, where it goes, and the API's view of its subject once taken. */
export interface DueDelivery {
  id: string;
  event: WebhookEvent;
  payload: Record<string, unknown>;
  data: unknown;
  status: DeliveryStatus;
  url: string;
  /** Sealed (SecretBox) when `secretSealed`; in clear as a release before sealing wrote it, until it is sealed. */
  secret: string;
  secretSealed: boolean;
}

/**
 * Webhooks and their deliveries. Deliveries are not added here: the outbox creates them, and queues their first
 * try, in the transaction of the change (src/adapters/persistence/events/outbox.ts).
 */
export interface WebhookStore {
  add(webhook: { url: string; events: string[]; secretSealed: string; privateNodes: boolean; createdAt: Date }): Promise<Webhook>;
  list(): Promise<Webhook[]>;
  /** Deletes the webhook and its deliveries (a queued try then finds nothing to send). False if there was none. */
  remove(id: number): Promise<boolean>;
  exists(id: number): Promise<boolean>;
  /** The webhook's latest deliveries, newest first, each with its attempts in order. */
  deliveries(webhookId: number, limit: number): Promise<WebhookDelivery[]>;
  /** Puts a delivery back in line, pending, with a new try queued in the same transaction. False if unknown. */
  redeliver(deliveryId: string): Promise<boolean>;
  /** Null when the delivery is gone (its webhook deleted). */
  due(deliveryId: string): Promise<DueDelivery | null>;
  /**
   * Records a try and the delivery's new status; keeps `data` (the subject's view) if none was kept yet, so that
   * every retry sends what the first try sent.
   */
  recordAttempt(
    deliveryId: string,
    attempt: WebhookAttempt,
    outcome: { status: DeliveryStatus; completedAt: Date | null; data: unknown },
  ): Promise<void>;
  /** The secrets kept in clear: written by a release before sealing, or by one still running beside this one. */
  clearSecrets(): Promise<{ id: number; secret: string }[]>;
  /** Puts the sealed form in place of a clear secret; false when it is sealed already (another process was first). */
  sealSecret(id: number, sealed: string): Promise<boolean>;
}
export const WebhookStore = Symbol.for('WebhookStore');

/** The API's JSON of what an event is about (the Topic, Reply or User), as it is now. */
export interface WebhookSubjects {
  view(event: WebhookEvent, payload: Record<string, unknown>): Promise<unknown>;
}
export const WebhookSubjects = Symbol.for('WebhookSubjects');

/** Sends one signed POST; never throws: a failure is an outcome. */
export interface WebhookTransport {
  /** Why a URL may never be delivered to (not http(s), a private address), or null. */
  refusal(url: string): string | null;
  send(request: {
    url: string;
    secret: string;
    event: WebhookEvent;
    deliveryId: string;
    body: string;
  }): Promise<{ statusCode: number | null; error: string | null; durationMs: number }>;
}
export const WebhookTransport = Symbol.for('WebhookTransport');

export const MAX_DELIVERIES_LISTED = 100;

/**
 * forumctl's webhooks commands: administration, so administrators only (`--as` a member is refused). A secret is
 * kept sealed under the server's key (SecretBox): only a delivery opens it, to sign.
 */
export class ManageWebhooks {
  constructor(
    private readonly store: WebhookStore,
    private readonly transport: WebhookTransport,
    private readonly secrets: SecretGenerator,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** Without a secret, one is made up and returned this once (the caller shows it); a given one is not echoed. */
  async create(
    actor: ActingUser,
    input: { url: string; events: readonly string[]; secret?: string; privateNodes?: boolean },
  ): Promise<{ webhook: Webhook; generatedSecret: string | null }> {
    requireWebhookAdmin(actor);
    const refusal = this.transport.refusal(input.url);
    if (refusal) throw new InvalidInput('url', refusal);
    const events = subscribedEvents(input.events);
    if (input.secret !== undefined && input.secret.length < 8)
      throw new InvalidInput('secret', 'secret must be at least 8 characters');
    const generatedSecret = input.secret === undefined ? this.secrets.generate() : null;
    const webhook = await this.store.add({
      url: input.url,
      events,
      secretSealed: this.box.seal(input.secret ?? (generatedSecret as string)),
      privateNodes: input.privateNodes ?? false,
      createdAt: this.clock.now(),
    });
    return { webhook, generatedSecret };
  }

  async list(actor: ActingUser): Promise<Webhook[]> {
    requireWebhookAdmin(actor);
    return this.store.list();
  }

  async delete(actor: ActingUser, id: number): Promise<void> {
    requireWebhookAdmin(actor);
    if (!(await this.store.remove(id))) throw new NotFound(`webhook ${id}`);
  }

  async deliveries(actor: ActingUser, webhookId: number, limit = 20): Promise<WebhookDelivery[]> {
    requireWebhookAdmin(actor);
    if (!(await this.store.exists(webhookId))) throw new NotFound(`webhook ${webhookId}`);
    return this.store.deliveries(webhookId, Math.min(limit, MAX_DELIVERIES_LISTED));
  }

  async redeliver(actor: ActingUser, deliveryId: string): Promise<void> {
    requireWebhookAdmin(actor);
    if (!UUID.test(deliveryId) || !(await this.store.redeliver(deliveryId.toLowerCase())))
      throw new NotFound(`delivery ${deliveryId}`);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const requireWebhookAdmin = (actor: ActingUser) => requireAdmin(actor, 'Only administrators manage webhooks');

/** Known event names, or `*` alone; duplicates dropped. */
function subscribedEvents(requested: readonly string[]): string[] {
  const events = [...new Set(requested.map((event) => event.trim()).filter((event) => event !== ''))];
  if (events.length === 0) throw new InvalidInput('events', `events must name at least one of: *, ${WEBHOOK_EVENTS.join(', ')}`);
  if (events.includes('*')) return ['*'];
  const unknown = events.filter((event) => !(WEBHOOK_EVENTS as readonly string[]).includes(event));
  if (unknown.length > 0)
    throw new InvalidInput('events', `unknown event ${unknown.join(', ')}; known: *, ${WEBHOOK_EVENTS.join(', ')}`);
  return events;
}

/**
 * Seals the secrets kept in clear (a release before sealing wrote them, or one still running beside this one): run by
 * every server as it starts, after migrating. Not by `forumctl db migrate`: a rolling upgrade migrates first, and the
 * previous release's processes, which sign with `secret` as it is, would sign wrongly for the whole rollout. One
 * update per secret, made only while it is still clear, so that processes starting together never seal one twice.
 * Returns how many this call sealed.
 */
export class SealWebhookSecrets {
  constructor(
    private readonly store: WebhookStore,
    private readonly box: SecretBox,
  ) {}

  async execute(): Promise<number> {
    let sealed = 0;
    for (const { id, secret } of await this.store.clearSecrets()) {
      if (await this.store.sealSecret(id, this.box.seal(secret))) sealed++;
    }
    return sealed;
  }
}

/** How one try ended, for the job queue: done (nothing more to try) or try again later. */
export type TryOutcome = 'delivered' | 'retry' | 'failed' | 'gone';

/** What a try records when the secret sealed in the database does not open with this server's key. */
export const UNOPENED_SECRET =
  "not sent: the webhook's secret was sealed under another SECRET_KEY and does not open under this process's; " +
  'give every process the same key, or delete the webhook and create it again';

/**
 * One try at a delivery (contract §13), run by the job queue's workers: take the subject's view at the first try,
 * send it signed, record the attempt; a 2xx ends the delivery, anything else asks for a retry until the last try,
 * which marks it failed. A secret that does not open (sealed under another key) is a failed try like any other,
 * recorded with why: another process, with the right key, may take the retry.
 */
export class DeliverWebhook {
  constructor(
    private readonly store: WebhookStore,
    private readonly subjects: WebhookSubjects,
    private readonly transport: WebhookTransport,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  async attempt(deliveryId: string, tries: { attempt: number; maxAttempts: number }): Promise<TryOutcome> {
    const delivery = await this.store.due(deliveryId);
    if (!delivery) return 'gone';
    if (delivery.status !== 'pending') return delivery.status;
    const data = delivery.data ?? (await this.subjects.view(delivery.event, delivery.payload));
    const attemptedAt = this.clock.now();
    const body = JSON.stringify({ event: delivery.event, delivered_at: attemptedAt.toISOString(), data });
    const secret = this.signingSecret(delivery);
    const outcome =
      secret === null
        ? { statusCode: null, error: UNOPENED_SECRET, durationMs: 0 }
        : await this.transport.send({ url: delivery.url, secret, event: delivery.event, deliveryId: delivery.id, body });
    const delivered = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
    const status: DeliveryStatus = delivered ? 'delivered' : tries.attempt >= tries.maxAttempts ? 'failed' : 'pending';
    await this.store.recordAttempt(
      delivery.id,
      { attemptedAt, ...outcome },
      { status, completedAt: status === 'pending' ? null : this.clock.now(), data },
    );
    return status === 'pending' ? 'retry' : status;
  }

  /** The secret in clear, opened only now, for the transport alone; null when it does not open under this key. */
  private signingSecret(delivery: DueDelivery): string | null {
    if (!delivery.secretSealed) return delivery.secret;
    try {
      return this.box.open(delivery.secret);
    } catch {
      // The box refuses whatever it did not seal under this key: an answer about the key, not a fault to report.
      return null;
    }
  }
}

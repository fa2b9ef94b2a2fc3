import pg from 'pg';
import type { EventFeed, PublishedEvent } from '../../../application/events.js';

type Listener = (events: readonly PublishedEvent[]) => void;

/** How long an id missing from the log may still arrive (its transaction took the id, and commits later). */
const GAP_PATIENCE_MS = 10_000;
/** How often the log is read: an event reaches the listeners at most this long after its commit (plus the read). */
const POLL_MS = 200;
const BATCH = 500;
/** How far back from the end of the log a starting feed looks for transactions still open. */
const RECENT_AT_START = 1_000;

/**
 * The outbox, followed by one connection per process (never one per client), which reads what is new five
 * times a second: an indexed range on `events.id` that finds nothing costs the database a few microseconds.
 * Not LISTEN/NOTIFY: writers would then take PostgreSQL's notification lock at each commit (see outbox.ts).
 * It starts with its first listener, at the end of the log: a live feed, not a replay.
 *
 * Ids are taken when an event is written, not when it commits, so a later id can be visible before an earlier
 * one. The feed delivers what it sees and remembers the ids it skipped; one that turns up within
 * GAP_PATIENCE_MS is delivered then (out of order, once), one that does not was rolled back.
 */
export class PgEventFeed implements EventFeed {
  private readonly listeners = new Set<Listener>();
  private client: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Every id up to here was delivered or given up. */
  private cursor = 0;
  /**
   * The highest id read so far (at least the cursor): each read goes on from here, and asks again only for the ids
   * still missing below it. Reading from the cursor instead would, behind a gap, read the same batch of delivered
   * events again and again until the gap is given up, and nothing newer would get through meanwhile.
   */
  private readPosition = 0;
  /** Ids above the cursor already delivered. */
  private readonly delivered = new Set<number>();
  /** Ids above the cursor not seen yet, with when they were first missed. */
  private readonly missing = new Map<number, number>();
  private reading = false;
  private readAgain = false;
  private closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    void this.start();
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the feed reads the log (a stream that must not miss what follows its opening waits for it). */
  ready(): Promise<void> {
    return this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }

  private start(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.starting ??= this.connect().catch((error: unknown) => {
      this.starting = null;
      this.onError(error);
    });
    return this.starting;
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.connectionString, application_name: 'forum events' });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    await client.connect();
    if (this.closed) {
      await client.end();
      return;
    }
    if (this.cursor === 0) {
      // Live from here on. Transactions still open hold ids below the end of the log: the recent ids already
      // committed count as delivered, and those missing among them get the same patience as any gap.
      const { rows } = await client.query<{ id: string }>(
        'select id from events where id > (select coalesce(max(id), 0) - $1 from events) order by id',
        [RECENT_AT_START],
      );
      const ids = rows.map((row) => Number(row.id));
      if (ids.length > 0) {
        this.cursor = ids[0]! - 1;
        for (const id of ids) this.delivered.add(id);
      }
      this.readPosition = this.cursor;
    }
    this.client = client;
    this.timer ??= setInterval(() => void this.read(), POLL_MS).unref();
    void this.read();
  }

  /** The connection broke (PostgreSQL restarted): read on a new one, from the cursor. */
  private lost(client: pg.Client, error: unknown): void {
    if (this.client !== client && this.client !== null) return;
    this.client = null;
    this.starting = null;
    if (error) this.onError(error);
    if (!this.closed && this.listeners.size > 0) setTimeout(() => void this.start(), 1_000).unref();
  }

  private async read(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return;
    }
    this.reading = true;
    try {
      do {
        this.readAgain = false;
        await this.readBatch();
      } while (this.readAgain && this.client);
    } catch (error) {
      this.onError(error);
    } finally {
      this.reading = false;
    }
  }

  private async readBatch(): Promise<void> {
    const client = this.client;
    if (!client) return;
    const from = Math.max(this.cursor, this.readPosition);
    const { rows } = await client.query<{ id: string; type: PublishedEvent['type']; payload: Record<string, unknown> }>(
      'select id, type, payload from events where id > $1 or id = any($2::bigint[]) order by id limit $3',
      [from, [...this.missing.keys()], BATCH],
    );
    const now = Date.now();
    const fresh: PublishedEvent[] = [];
    let highest = from;
    for (const row of rows) {
      const id = Number(row.id);
      highest = Math.max(highest, id);
      if (this.delivered.has(id) || id <= this.cursor) continue;
      this.delivered.add(id);
      this.missing.delete(id);
      fresh.push({ id, type: row.type, payload: row.payload });
    }
    for (let id = from + 1; id < highest; id++) {
      if (!this.delivered.has(id) && !this.missing.has(id)) this.missing.set(id, now);
    }
    this.readPosition = highest;
    // Move the cursor over what is settled: delivered, or missing for too long.
    for (;;) {
      const next = this.cursor + 1;
      if (this.delivered.delete(next)) this.cursor = next;
      else if ((this.missing.get(next) ?? Infinity) < now - GAP_PATIENCE_MS) {
        this.missing.delete(next);
        this.cursor = next;
      } else break;
    }
    if (fresh.length > 0) {
      for (const listener of this.listeners) {
        try {
          listener(fresh);
        } catch (error) {
          this.onError(error);
        }
      }
    }
    if (rows.length === BATCH) this.readAgain = true;
  }
}

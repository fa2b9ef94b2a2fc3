import { InvalidInput } from '../../domain/shared/errors.js';
import type { Clock } from '../ports.js';

export type Progress = (done: number, total: number) => void;

/** The counter families `maintenance recount` recomputes from the rows. */
export const COUNTER_FAMILIES = ['topics', 'replies', 'nodes', 'users', 'activity', 'unread'] as const;
export type CounterFamily = (typeof COUNTER_FAMILIES)[number];

/**
 * Recomputes derived columns from the rows they summarise, one id range at a time (each range its own short
 * statement), and reports how many rows held a wrong value.
 */
export interface CounterMaintenance {
  /** The id range of a family's table, to plan the batches. */
  idRange(family: CounterFamily): Promise<{ min: number; max: number } | null>;
  /** Fixes the rows with ids in [from, to]; returns how many were wrong. */
  recount(family: CounterFamily, from: number, to: number): Promise<number>;
  /** Deletes up to `limit` rows of a log created before `before`; returns how many. */
  purge(log: PurgedLog, before: Date, limit: number): Promise<number>;
}

/** What grows without end and may be cut by age: notifications, and the event log (../shared/design/events.md). */
export type PurgedLog = 'notifications' | 'events' | 'webhookDeliveries';
export const CounterMaintenance = Symbol.for('CounterMaintenance');

export type RecountSummary = Record<CounterFamily, number>;

export class Recount {
  constructor(private readonly maintenance: CounterMaintenance) {}

  async execute(options: { batchSize?: number; onProgress?: (family: CounterFamily) => Progress } = {}): Promise<RecountSummary> {
    const batchSize = options.batchSize ?? 5_000;
    const summary = { topics: 0, replies: 0, nodes: 0, users: 0, activity: 0, unread: 0 };
    for (const family of COUNTER_FAMILIES) {
      const progress = options.onProgress?.(family) ?? (() => undefined);
      const range = await this.maintenance.idRange(family);
      if (!range) continue;
      const span = range.max - range.min + 1;
      for (let from = range.min; from <= range.max; from += batchSize) {
        const to = Math.min(from + batchSize - 1, range.max);
        summary[family] += await this.maintenance.recount(family, from, to);
        progress(to - range.min + 1, span);
      }
    }
    return summary;
  }
}

/** Deletes the rows of a log older than a number of days, ten thousand at a time: short statements, no long lock. */
class PurgeLog {
  constructor(
    private readonly log: PurgedLog,
    private readonly maintenance: CounterMaintenance,
    private readonly clock: Clock,
  ) {}

  /** Returns how many went. */
  async execute(olderThanDays: number): Promise<number> {
    if (!Number.isInteger(olderThanDays) || olderThanDays < 0) {
      throw new InvalidInput('older-than', 'older-than must be a whole number of days, 0 or more');
    }
    const before = new Date(this.clock.now().getTime() - olderThanDays * 86_400_000);
    let purged = 0;
    for (;;) {
      const count = await this.maintenance.purge(this.log, before, 10_000);
      purged += count;
      if (count === 0) return purged;
    }
  }
}

export class PurgeNotifications extends PurgeLog {
  constructor(maintenance: CounterMaintenance, clock: Clock) {
    super('notifications', maintenance, clock);
  }
}

/**
 * The event log only serves consumers that were away a short while (a stream's feed that reconnects, a
 * restarted process): a week of it is plenty.
 */
export class PurgeEvents extends PurgeLog {
  constructor(maintenance: CounterMaintenance, clock: Clock) {
    super('events', maintenance, clock);
  }
}

/** Webhook deliveries that ended (delivered or failed), with their attempts; those still being tried stay. */
export class PurgeDeliveries extends PurgeLog {
  constructor(maintenance: CounterMaintenance, clock: Clock) {
    super('webhookDeliveries', maintenance, clock);
  }
}

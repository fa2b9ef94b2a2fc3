import type { DomainEvent } from '../domain/events.js';

/**
 * Where use cases record what happened. Recording runs every in-transaction consumer at once, inside the unit of
 * work of the use case: what they write lands with the change or not at all (the search index is one; its rows
 * may wait for the end of the unit of work). Use cases call it inside `UnitOfWork.run`, next to the change it
 * describes (a change of one statement records first: that statement carries what the consumers add).
 */
export interface DomainEvents {
  /** `null`: what happened is no fact anyone hears of (a change to a post not yet public: domain/events.ts). */
  record(event: DomainEvent | null): Promise<void>;
}
export const DomainEvents = Symbol.for('DomainEvents');

/**
 * Something that must be true together with the change: it runs in the unit of work that records the event. What it
 * returns are the facts its own work made (the notification producer's `notification.created`): they are recorded
 * in turn, like any other, once every consumer has handled the event that caused them.
 */
export interface InTransactionConsumer {
  handle(event: DomainEvent): Promise<void | readonly DomainEvent[]>;
}

/** Hands each recorded event to the in-transaction consumers, in order; a consumer that fails fails the change. */
export class DispatchInTransaction implements DomainEvents {
  constructor(private readonly consumers: readonly InTransactionConsumer[]) {}

  async record(event: DomainEvent | null): Promise<void> {
    if (event === null) return;
    const followUps: DomainEvent[] = [];
    for (const consumer of this.consumers) followUps.push(...((await consumer.handle(event)) ?? []));
    for (const followUp of followUps) await this.record(followUp);
  }
}

/** An event as the outbox kept it, with its place in the log. */
export interface PublishedEvent {
  id: number;
  type: DomainEvent['type'];
  payload: Record<string, unknown>;
}

/**
 * Every committed event, in every process, soon after its commit (../shared/design/events.md): for what
 * follows a change outside its transaction (live streams). A listener gets each event once, in id order.
 */
export interface EventFeed {
  subscribe(listener: (events: readonly PublishedEvent[]) => void): () => void;
  /** Resolves once the feed follows the log: every event committed afterwards reaches the listeners. */
  ready(): Promise<void>;
}
export const EventFeed = Symbol.for('EventFeed');

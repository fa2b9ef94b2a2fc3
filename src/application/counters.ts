import type { DomainEvent } from '../domain/events.js';
import type { InTransactionConsumer } from './events.js';

/** The counters a user row keeps (`users.*_count`). */
export type UserCounter = 'topicsCount' | 'repliesCount' | 'favoritesCount' | 'followersCount' | 'followingCount';

/** One change to the stored counters, as a fact about what happened. */
export type CounterMove =
  | { kind: 'node.topics'; nodeId: number; delta: number }
  | { kind: 'user'; userId: number; counter: UserCounter; delta: number }
  /** A topic's reply count and last reply, its author's replies count and month. */
  | { kind: 'reply.added'; topicId: number; replyId: number; userId: number; at: Date }
  /** The same, undone for a deleted reply: the topic's count and last reply are recounted. */
  | { kind: 'reply.removed'; topicId: number; userId: number; at: Date }
  /** A conversation's message count and last message (contract §24: the forum's own counters do not follow it). */
  | { kind: 'message.added'; topicId: number; replyId: number; userId: number; at: Date };

/**
 * Where counter moves go: the persistence adapter applies them at the end of the unit of work, all in one lock
 * order (topics, nodes, users, months; staged-rows.ts), so two writers never take the same rows in opposite orders.
 */
export interface CounterMoves {
  move(moves: readonly CounterMove[]): Promise<void>;
}
export const CounterMoves = Symbol.for('CounterMoves');

/**
 * The one place that keeps the stored counters (issue 30): every count a topic, node or user shows moves here,
 * from the domain event of what happened, for creates and deletes alike. Counters change by atomic SQL, never
 * read-modify-write; `forumctl maintenance recount` checks them.
 */
export class CounterKeeper implements InTransactionConsumer {
  constructor(private readonly counters: CounterMoves) {}

  handle(event: DomainEvent): Promise<void> {
    const moves = movesOf(event);
    return moves.length === 0 ? Promise.resolve() : this.counters.move(moves);
  }
}

function movesOf(event: DomainEvent): CounterMove[] {
  switch (event.type) {
    case 'topic.created':
    case 'topic.deleted': {
      const delta = event.type === 'topic.created' ? +1 : -1;
      const userId = event.type === 'topic.created' ? event.userId : event.ownerId;
      return [
        { kind: 'node.topics', nodeId: event.nodeId, delta },
        { kind: 'user', userId, counter: 'topicsCount', delta },
      ];
    }
    case 'topic.moved':
      return [
        { kind: 'node.topics', nodeId: event.fromNodeId, delta: -1 },
        { kind: 'node.topics', nodeId: event.toNodeId, delta: +1 },
      ];
    case 'reply.created':
      return [{ kind: 'reply.added', topicId: event.topicId, replyId: event.replyId, userId: event.userId, at: event.createdAt }];
    case 'message.created':
      // The opening message is the conversation itself: only a message after it is counted in it.
      return event.replyId === null
        ? []
        : [{ kind: 'message.added', topicId: event.topicId, replyId: event.replyId, userId: event.userId, at: event.at }];
    case 'reply.deleted':
      return [{ kind: 'reply.removed', topicId: event.topicId, userId: event.userId, at: event.createdAt }];
    case 'user.followed':
    case 'user.unfollowed': {
      const delta = event.type === 'user.followed' ? +1 : -1;
      return [
        { kind: 'user', userId: event.followeeId, counter: 'followersCount', delta },
        { kind: 'user', userId: event.followerId, counter: 'followingCount', delta },
      ];
    }
    case 'favorite.added':
    case 'favorite.removed':
      return [
        { kind: 'user', userId: event.userId, counter: 'favoritesCount', delta: event.type === 'favorite.added' ? +1 : -1 },
      ];
    default:
      return [];
  }
}

import { type NodeAccess, OPEN_NODE } from '../../src/domain/nodes/access.js';
import type { Clock, MarkdownRenderer, UnitOfWork } from '../../src/application/ports.js';
import type { DomainEvents } from '../../src/application/events.js';
import type { DomainEvent } from '../../src/domain/events.js';
import { Node } from '../../src/domain/nodes/node.js';
import type { NodeRepository } from '../../src/domain/nodes/node-repository.js';
import type { NewNotification } from '../../src/domain/notifications/notification.js';
import type { NotificationRepository } from '../../src/domain/notifications/notification-repository.js';
import type { Reply } from '../../src/domain/replies/reply.js';
import type { ReplyRepository } from '../../src/domain/replies/reply-repository.js';
import type { Topic } from '../../src/domain/topics/topic.js';
import type { TopicRepository } from '../../src/domain/topics/topic-repository.js';
import type { UserRepository } from '../../src/domain/users/user-repository.js';
import type { CounterMove, CounterMoves, UserCounter } from '../../src/application/counters.js';
import type { User } from '../../src/domain/users/user.js';
import { type PostingFacts, PostingRules } from '../../src/application/review/posting-rules.js';
import type { Author, PostingHistory } from '../../src/domain/review/posting.js';

/** In-memory stand-ins for the ports, for use-case tests without I/O. */

export const fixedClock: Clock = { now: () => new Date('2026-11-21T08:00:00.000Z') };
export const plainMarkdown: MarkdownRenderer = {
  render: (text) => ({
    html: `<p>${text}</p>`,
    mentions: [...text.matchAll(/@(\w+)/g)].map((m) => m[1]!),
    links: [...text.matchAll(/https?:\/\//g)].length,
  }),
};
export const immediateUnitOfWork: UnitOfWork = { run: (work) => work() };

/** Domain events as a use case recorded them, in order. */
export class RecordedEvents implements DomainEvents {
  readonly recorded: DomainEvent[] = [];
  async record(event: DomainEvent | null): Promise<void> {
    if (event !== null) this.recorded.push(event);
  }
  handle(event: DomainEvent): Promise<void> {
    return this.record(event);
  }
}

export class FakeTopics implements TopicRepository {
  readonly rows = new Map<number, Topic>();
  readonly follows = new Set<string>();
  readonly favorites = new Set<string>();
  private nextId = 1;

  async find(id: number) {
    return this.rows.get(id) ?? null;
  }
  async add(topic: Topic) {
    topic.id = this.nextId++;
    this.rows.set(topic.id, topic);
  }

  async authoredBy(userId: number) {
    return [...this.rows.values()].filter((t) => t.userId === userId && t.deletedAt === null);
  }
  async visibleInNode(nodeId: number, afterId: number, limit: number) {
    return [...this.rows.values()].filter((t) => t.nodeId === nodeId && t.deletedAt === null && t.id > afterId).slice(0, limit);
  }
  async countVisibleInNode(nodeId: number) {
    return [...this.rows.values()].filter((t) => t.nodeId === nodeId && t.deletedAt === null).length;
  }
  private toggle(set: Set<string>, key: string, on: boolean) {
    const had = set.has(key);
    if (on) set.add(key);
    else set.delete(key);
    return had !== on;
  }
  async follow(topicId: number, userId: number) {
    return this.toggle(this.follows, `${topicId}:${userId}`, true);
  }
  async unfollow(topicId: number, userId: number) {
    return this.toggle(this.follows, `${topicId}:${userId}`, false);
  }
  async favorite(topicId: number, userId: number) {
    return this.toggle(this.favorites, `${topicId}:${userId}`, true);
  }
  async unfavorite(topicId: number, userId: number) {
    return this.toggle(this.favorites, `${topicId}:${userId}`, false);
  }
}

export class FakeNodes implements NodeRepository {
  readonly rows = new Map<number, Node>();
  readonly counts = new Map<number, number>();

  constructor(names: string[] = ['NoPoint', 'General', 'Ruby']) {
    names.forEach((name, i) => {
      const node = Node.create({ name, hidden: name === 'NoPoint' }, fixedClock.now());
      node.id = i + 1;
      this.rows.set(node.id, node);
    });
  }
  async findById(id: number) {
    return this.rows.get(id) ?? null;
  }
  async noPoint() {
    return [...this.rows.values()].find((node) => node.name === 'NoPoint')!;
  }
  async nameTaken(name: string) {
    return [...this.rows.values()].some((node) => node.name.toLowerCase() === name.toLowerCase());
  }
  async add(node: Node) {
    node.id = this.rows.size + 1;
    this.rows.set(node.id, node);
  }
  /** Each node's access (contract §23): an open node's unless a test sets it; and each user's groups. */
  readonly accesses = new Map<number, NodeAccess>();
  readonly groupsOfUser = new Map<number, number[]>();
  async placeFor(id: number, userId: number | null) {
    const node = this.rows.get(id);
    if (!node) return null;
    const groupIds = userId === null ? [] : (this.groupsOfUser.get(userId) ?? []);
    return { node: { hidden: node.hidden, access: this.accesses.get(id) ?? OPEN_NODE }, groupIds };
  }
  async access(id: number) {
    return this.rows.has(id) ? (this.accesses.get(id) ?? OPEN_NODE) : null;
  }
  async accessOf(ids: readonly number[]) {
    return new Map(ids.filter((id) => this.rows.has(id)).map((id) => [id, this.accesses.get(id) ?? OPEN_NODE] as const));
  }
  async setAccess(id: number, access: NodeAccess) {
    this.accesses.set(id, access);
  }
  async moderatedBy(userId: number) {
    const groups = this.groupsOfUser.get(userId) ?? [];
    return [...this.accesses]
      .filter(([, access]) => access.moderatorGroupIds.some((id) => groups.includes(id)))
      .map(([id]) => id);
  }
  adjustTopicsCount(nodeId: number, delta: number) {
    this.counts.set(nodeId, (this.counts.get(nodeId) ?? 0) + delta);
  }
}

export class FakeReplies implements ReplyRepository {
  readonly rows: Reply[] = [];
  async find(id: number) {
    return this.rows.find((r) => r.id === id) ?? null;
  }
  async save() {}
  async add(reply: Reply) {
    reply.id = this.rows.length + 1;
    this.rows.push(reply);
  }
  async authoredBy(userId: number) {
    return this.rows.filter((r) => r.userId === userId && r.deletedAt === null && r.action === null);
  }
  async hasVisibleRepliesFromOthers(topicId: number, authorId: number) {
    return this.rows.some((r) => r.topicId === topicId && r.userId !== authorId && r.action === null && r.deletedAt === null);
  }
}

export class FakeNotifications implements NotificationRepository {
  readonly rows: NewNotification[] = [];
  readonly readFor: string[] = [];
  async addAll(notifications: readonly NewNotification[]) {
    this.rows.push(...notifications);
  }
  async markRead() {
    return false;
  }
  async deleteOne() {
    return false;
  }
  async deleteAll() {
    return false;
  }
  async markReadAbout(userId: number, topicId: number) {
    this.readFor.push(`${userId}:${topicId}`);
  }
  async deleteAbout(about: { topicId: number } | { replyId: number }) {
    const gone = (row: NewNotification) => ('topicId' in about ? row.topicId === about.topicId : row.replyId === about.replyId);
    const users = [...new Set(this.rows.filter(gone).map((row) => row.userId))];
    for (let i = this.rows.length - 1; i >= 0; i--) if (gone(this.rows[i]!)) this.rows.splice(i, 1);
    return users;
  }
  /** Access is not modelled here: nobody loses anything (the SQL repository is tested on PostgreSQL). */
  async forgetUnreadable() {
    return [];
  }
}

export class FakeUsers implements UserRepository {
  readonly counters = new Map<string, number>();
  async findById() {
    return null;
  }
  async findByLogin() {
    return null;
  }
  async findByLoginOrEmail() {
    return null;
  }
  async isTaken() {
    return { login: false, email: false };
  }
  async add(_user: User) {}
  async reserveId() {
    return 1;
  }
  async remove(_user: User) {}
  async blockNode() {}
  async unblockNode() {}
  async blockUser() {}
  async unblockUser() {}
  async follow() {
    return true;
  }
  async unfollow() {
    return true;
  }
  readonly monthlyReplies = new Map<string, number>();
  adjustMonthlyReplies(userId: number, at: Date, delta: number) {
    const key = `${userId}:${at.toISOString().slice(0, 7)}`;
    this.monthlyReplies.set(key, (this.monthlyReplies.get(key) ?? 0) + delta);
  }
  adjustCounter(userId: number, counter: UserCounter, delta: number) {
    const key = `${userId}:${counter}`;
    this.counters.set(key, (this.counters.get(key) ?? 0) + delta);
  }
}

/** Counter moves applied to the fakes' counts, as the database applies them. */
export class FakeCounterMoves implements CounterMoves {
  constructor(
    private readonly nodes: FakeNodes,
    private readonly users: FakeUsers,
  ) {}
  async move(moves: readonly CounterMove[]) {
    for (const move of moves) {
      if (move.kind === 'node.topics') this.nodes.adjustTopicsCount(move.nodeId, move.delta);
      else if (move.kind === 'user') this.users.adjustCounter(move.userId, move.counter, move.delta);
      else {
        const delta = move.kind === 'reply.added' ? +1 : -1;
        this.users.adjustCounter(move.userId, 'repliesCount', delta);
        this.users.adjustMonthlyReplies(move.userId, move.at, delta);
      }
    }
  }
}

/** The posting rules' facts: every author trusted (an account an operator made), with nothing posted before. */
export class FakePostingFacts implements PostingFacts {
  readonly authors = new Map<number, Partial<Author>>();
  past: PostingHistory = { recent: 0, published: 0, repeated: false };
  async author(userId: number): Promise<Author> {
    return {
      id: userId,
      role: 'member',
      selfRegistered: false,
      joinedAt: new Date('2020-01-01T00:00:00.000Z'),
      silencedUntil: null,
      suspendedUntil: null,
      ...this.authors.get(userId),
    };
  }
  async history(): Promise<PostingHistory> {
    return this.past;
  }
}

/** Posting rules over FakePostingFacts, with the configuration's defaults. */
export function postingRules(
  facts = new FakePostingFacts(),
  limits = { holdFirstPosts: 0, topicsPerDay: 3, repliesPerDay: 20, messagesPerDay: 5 },
) {
  return new PostingRules(facts, limits, fixedClock);
}

/** A clock a test moves: the real time, plus whatever the test added. */
export class MovableClock implements Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

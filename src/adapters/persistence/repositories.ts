import { raw } from '@mikro-orm/core';
import type { StagedRows } from './staged-rows.js';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Sql } from './sql.js';
import type { DevicePlatform, DeviceRegistry } from '../../application/devices/devices.js';
import type { LikeRepository, LikeTarget } from '../../domain/likes/like-repository.js';
import { NO_POINT_NODE_NAME, Node } from '../../domain/nodes/node.js';
import type { NodeRepository } from '../../domain/nodes/node-repository.js';
import type { NewNotification } from '../../domain/notifications/notification.js';
import type { NotificationRepository } from '../../domain/notifications/notification-repository.js';
import { Reply } from '../../domain/replies/reply.js';
import type { ReplyRepository } from '../../domain/replies/reply-repository.js';
import { Topic } from '../../domain/topics/topic.js';
import type { TopicRepository } from '../../domain/topics/topic-repository.js';
import { couldBeLogin, User } from '../../domain/users/user.js';
import type { UserCounter, UserRepository } from '../../domain/users/user-repository.js';

/*
 * Aggregates go through `em`, MikroORM's context-aware manager, and raw SQL through `Sql`; inside a unit of work
 * both use the transaction, so aggregates, atomic counters and join rows all commit (or roll back) together.
 * Join rows use `on conflict do nothing` and report whether a row really changed: idempotent under concurrency.
 */

async function changed(sql: Sql, statement: string, params: unknown[]): Promise<boolean> {
  return (await sql.count(statement, params)) > 0;
}

export class MikroOrmUserRepository implements UserRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
  ) {}

  findById(id: number): Promise<User | null> {
    return this.em.findOne(User, { id });
  }

  async findByLogin(login: string): Promise<User | null> {
    if (!couldBeLogin(login)) return null;
    return this.em.findOne(User, { [raw('lower(login)')]: login.toLowerCase() } as object);
  }

  async findByLoginOrEmail(loginOrEmail: string): Promise<User | null> {
    const key = loginOrEmail.toLowerCase();
    return this.em.findOne(User, { $or: [{ [raw('lower(login)')]: key }, { [raw('lower(email)')]: key }] } as object);
  }

  async isTaken(login: string, email: string): Promise<{ login: boolean; email: boolean }> {
    const rows = await this.sql.all<{ login: boolean; email: boolean }>(
      'select exists(select 1 from users where lower(login) = lower($1)) as login, exists(select 1 from users where lower(email) = lower($2)) as email',
      [login, email],
    );
    return rows[0]!;
  }

  async add(user: User): Promise<void> {
    await this.em.persist(user).flush();
  }

  async blockNode(userId: number, nodeId: number): Promise<void> {
    await this.sql.all('insert into node_blocks (user_id, node_id) values ($1, $2) on conflict do nothing', [userId, nodeId]);
  }

  async unblockNode(userId: number, nodeId: number): Promise<void> {
    await this.sql.all('delete from node_blocks where user_id = $1 and node_id = $2', [userId, nodeId]);
  }

  async blockUser(userId: number, blockedUserId: number): Promise<void> {
    await this.sql.all('insert into user_blocks (user_id, blocked_user_id) values ($1, $2) on conflict do nothing', [
      userId,
      blockedUserId,
    ]);
  }

  async unblockUser(userId: number, blockedUserId: number): Promise<void> {
    await this.sql.all('delete from user_blocks where user_id = $1 and blocked_user_id = $2', [userId, blockedUserId]);
  }

  follow(followerId: number, followeeId: number): Promise<boolean> {
    return changed(this.sql, 'insert into user_follows (follower_id, followee_id) values ($1, $2) on conflict do nothing', [
      followerId,
      followeeId,
    ]);
  }

  unfollow(followerId: number, followeeId: number): Promise<boolean> {
    return changed(this.sql, 'delete from user_follows where follower_id = $1 and followee_id = $2', [followerId, followeeId]);
  }

  async adjustCounter(userId: number, counter: UserCounter, delta: number): Promise<void> {
    const column = USER_COUNTER_COLUMNS[counter];
    await this.sql.all(`update users set ${column} = greatest(${column} + $1, 0) where id = $2`, [delta, userId]);
  }

  async adjustMonthlyReplies(userId: number, at: Date, delta: number): Promise<void> {
    await this.sql.all(
      `insert into user_reply_months (user_id, month, replies)
       values ($1, date_trunc('month', $2::timestamptz at time zone 'UTC')::date, greatest($3::int, 0))
       on conflict (user_id, month) do update set replies = greatest(user_reply_months.replies + $3::int, 0)`,
      [userId, at, delta],
    );
  }
}

/** Fixed column names: the only text ever spliced into SQL here, from a closed map. */
const USER_COUNTER_COLUMNS: Record<UserCounter, string> = {
  topicsCount: 'topics_count',
  repliesCount: 'replies_count',
  favoritesCount: 'favorites_count',
  followersCount: 'followers_count',
  followingCount: 'following_count',
};

export class MikroOrmNodeRepository implements NodeRepository {
  private noPointId: number | null = null;

  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
  ) {}

  findById(id: number): Promise<Node | null> {
    return this.em.findOne(Node, { id });
  }

  /** The NoPoint node never changes id: looked up once, then by primary key. */
  async noPoint(): Promise<Node> {
    if (this.noPointId !== null) {
      const node = await this.findById(this.noPointId);
      if (node) return node;
    }
    const node = await this.em.findOneOrFail(Node, { name: NO_POINT_NODE_NAME });
    this.noPointId = node.id;
    return node;
  }

  async nameTaken(name: string): Promise<boolean> {
    const rows = await this.sql.all<{ taken: boolean }>(
      'select exists(select 1 from nodes where lower(name) = lower($1)) as taken',
      [name],
    );
    return rows[0]!.taken;
  }

  async add(node: Node): Promise<void> {
    await this.em.persist(node).flush();
  }

  async adjustTopicsCount(nodeId: number, delta: number): Promise<void> {
    await this.sql.all('update nodes set topics_count = greatest(topics_count + $1, 0) where id = $2', [delta, nodeId]);
  }
}

export class MikroOrmTopicRepository implements TopicRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
  ) {}

  findVisible(id: number): Promise<Topic | null> {
    return this.em.findOne(Topic, { id, deletedAt: null });
  }

  async add(topic: Topic): Promise<void> {
    await this.em.persist(topic).flush();
  }

  visibleInNode(nodeId: number, afterId: number, limit: number): Promise<Topic[]> {
    return this.em.find(Topic, { nodeId, deletedAt: null, id: { $gt: afterId } }, { orderBy: { id: 'asc' }, limit });
  }

  async countVisibleInNode(nodeId: number): Promise<number> {
    return this.em.count(Topic, { nodeId, deletedAt: null });
  }

  async recountReplies(topicId: number): Promise<void> {
    // Lock the topic first: the recount below then runs on a snapshot taken after every concurrent reply that
    // got to the topic before us has committed, and replies after us wait for our commit.
    await this.sql.all('select id from topics where id = $1 for update', [topicId]);
    await this.sql.all(
      `update topics t set
         replies_count = (select count(*) from replies r where r.topic_id = t.id and r.action is null and r.deleted_at is null),
         last_reply_id = last.id, last_reply_user_id = last.user_id, last_reply_user_login = last.login, replied_at = last.created_at
       from (select $1::int as id) target
       left join lateral (
         select r.id, r.user_id, u.login, r.created_at from replies r join users u on u.id = r.user_id
         where r.topic_id = target.id and r.action is null and r.deleted_at is null
         order by r.id desc limit 1
       ) last on true
       where t.id = target.id`,
      [topicId],
    );
  }

  follow(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'insert into topic_follows (topic_id, user_id) values ($1, $2) on conflict do nothing', [
      topicId,
      userId,
    ]);
  }

  unfollow(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from topic_follows where topic_id = $1 and user_id = $2', [topicId, userId]);
  }

  favorite(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'insert into topic_favorites (user_id, topic_id) values ($1, $2) on conflict do nothing', [
      userId,
      topicId,
    ]);
  }

  unfavorite(topicId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from topic_favorites where user_id = $1 and topic_id = $2', [userId, topicId]);
  }
}

export class MikroOrmReplyRepository implements ReplyRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  findVisible(id: number): Promise<Reply | null> {
    return this.em.findOne(Reply, { id, deletedAt: null });
  }

  /** Written at the end of the unit of work with the counters it moves (staged-rows.ts), in every writer's lock order. */
  add(reply: Reply): Promise<void> {
    return this.staged.replies([reply]);
  }

  async save(reply: Reply): Promise<void> {
    await this.em.persist(reply).flush();
  }

  async hasVisibleRepliesFromOthers(topicId: number, authorId: number): Promise<boolean> {
    const rows = await this.sql.all<{ found: boolean }>(
      `select exists(select 1 from replies where topic_id = $1 and user_id <> $2 and action is null and deleted_at is null) as found`,
      [topicId, authorId],
    );
    return rows[0]!.found;
  }
}

export class SqlNotificationRepository implements NotificationRepository {
  constructor(
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  /** Staged for the end of the unit of work (see the port), written with its other staged rows. */
  addAll(notifications: readonly NewNotification[]): Promise<void> {
    return this.staged.notifications(notifications);
  }

  async markRead(userId: number, ids: readonly number[]): Promise<boolean> {
    if (ids.length === 0) return false;
    return changed(
      this.sql,
      `update notifications set read_at = now(), updated_at = now()
       where user_id = $1 and read_at is null and id = any($2::int[])`,
      [userId, ids],
    );
  }

  deleteOne(userId: number, id: number): Promise<boolean> {
    return changed(this.sql, 'delete from notifications where user_id = $1 and id = $2', [userId, id]);
  }

  deleteAll(userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from notifications where user_id = $1', [userId]);
  }

  async deleteForTopic(topicId: number): Promise<void> {
    await this.sql.all('delete from notifications where topic_id = $1', [topicId]);
  }

  async deleteForReply(replyId: number): Promise<void> {
    await this.sql.all('delete from notifications where reply_id = $1', [replyId]);
  }
}

/** Fixed table names per target: the only text spliced into these statements, from a closed map. */
const LIKE_TABLES: Record<LikeTarget, string> = { topic: 'topics', reply: 'replies' };

export class SqlLikeRepository implements LikeRepository {
  constructor(private readonly sql: Sql) {}

  add(target: LikeTarget, targetId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'insert into likes (target_type, target_id, user_id) values ($1, $2, $3) on conflict do nothing', [
      target,
      targetId,
      userId,
    ]);
  }

  remove(target: LikeTarget, targetId: number, userId: number): Promise<boolean> {
    return changed(this.sql, 'delete from likes where target_type = $1 and target_id = $2 and user_id = $3', [
      target,
      targetId,
      userId,
    ]);
  }

  async adjustCount(target: LikeTarget, targetId: number, delta: number): Promise<number> {
    const rows = await this.sql.all<{ likes_count: number }>(
      `update ${LIKE_TABLES[target]} set likes_count = greatest(likes_count + $1, 0) where id = $2 returning likes_count`,
      [delta, targetId],
    );
    return rows[0]?.likes_count ?? 0;
  }

  async count(target: LikeTarget, targetId: number): Promise<number> {
    const rows = await this.sql.all<{ likes_count: number }>(`select likes_count from ${LIKE_TABLES[target]} where id = $1`, [
      targetId,
    ]);
    return rows[0]?.likes_count ?? 0;
  }
}

export class SqlDeviceRegistry implements DeviceRegistry {
  constructor(private readonly sql: Sql) {}

  async register(userId: number, platform: DevicePlatform, token: string): Promise<void> {
    await this.sql.all(
      `insert into devices (user_id, platform, token) values ($1, $2, $3)
       on conflict (platform, token) do update set user_id = excluded.user_id, updated_at = now()`,
      [userId, platform, token],
    );
  }

  async forget(userId: number, platform: DevicePlatform, token: string): Promise<void> {
    await this.sql.all('delete from devices where user_id = $1 and platform = $2 and token = $3', [userId, platform, token]);
  }
}

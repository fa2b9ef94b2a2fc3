import type { NewFlag, ReviewStore } from '../../application/review/ports.js';
import type { PostRef, ReviewResolution } from '../../domain/events.js';
import type { ReviewItem } from '../../domain/review/review-item.js';
import type { Sql } from './sql.js';
import type { StagedRows } from './staged/staged-rows.js';

interface ItemRow {
  id: number;
  kind: ReviewItem['kind'];
  target_type: PostRef['targetType'];
  target_id: number;
  topic_id: number;
  user_id: number;
  status: ReviewItem['status'];
  resolution: ReviewResolution | null;
}

/**
 * The review queue's rows (migration 20261128000000). One pending item per post at most (a unique index): a flag
 * joins the pending item of its post by `on conflict`, which also locks that row until the transaction ends, so two
 * flags of one post are counted one after the other and the count that hides it is never missed.
 */
export class SqlReviewStore implements ReviewStore {
  constructor(
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  async addFlag(post: PostRef, flag: NewFlag): Promise<{ itemId: number } | null> {
    // Nothing at all when this person flagged the post before. Otherwise the flag joins the pending item, locked;
    // one is opened when there is none (only then is an id drawn), or joined after all when another flag opened it
    // at the same moment (`on conflict`, which locks it too).
    const row = await this.sql.one<{ item_id: number | null; added: boolean }>(
      `with flagged_before as (
         select 1 from flags where target_type = $1::text and target_id = $2::int and user_id = $6::int),
       pending as (
         select id from review_items
         where target_type = $1::text and target_id = $2::int and status = 'pending' and not exists (select 1 from flagged_before)
         for update),
       opened as (
         insert into review_items (kind, target_type, target_id, topic_id, user_id, created_at)
         select 'flag', $1::text, $2::int, $3::int, $4::int, $5::timestamptz
         where not exists (select 1 from flagged_before) and not exists (select 1 from pending)
         on conflict (target_type, target_id) where status = 'pending' do update set kind = review_items.kind
         returning id),
       item as (select id from pending union all select id from opened),
       flag as (
         insert into flags (review_item_id, target_type, target_id, user_id, reason, message, created_at)
         select id, $1::text, $2::int, $6::int, $7::text, $8::text, $5::timestamptz from item
         on conflict (target_type, target_id, user_id) do nothing
         returning id)
       select (select id from item) as item_id, exists(select 1 from flag) as added`,
      [post.targetType, post.targetId, post.topicId, post.userId, flag.at, flag.userId, flag.reason, flag.message],
    );
    return row!.added ? { itemId: row!.item_id! } : null;
  }

  async flaggers(itemId: number): Promise<number> {
    const row = await this.sql.one<{ n: number }>('select count(*)::int as n from flags where review_item_id = $1', [itemId]);
    return row!.n;
  }

  /** Staged: a reply create writes all it sets off in one statement (staged-rows.ts), a held reply's item too. */
  openHold(post: PostRef, at: Date): Promise<void> {
    const { targetType, targetId, topicId, userId } = post;
    return this.staged.holds([{ targetType, targetId, topicId, userId, at }]);
  }

  async lock(id: number): Promise<ReviewItem | null> {
    const row = await this.sql.one<ItemRow>(
      `select id, kind, target_type, target_id, topic_id, user_id, status, resolution
       from review_items where id = $1 for update`,
      [id],
    );
    return (
      row && {
        id: row.id,
        kind: row.kind,
        targetType: row.target_type,
        targetId: row.target_id,
        topicId: row.topic_id,
        userId: row.user_id,
        status: row.status,
        resolution: row.resolution,
      }
    );
  }

  async resolve(id: number, resolution: ReviewResolution, actorId: number, reason: string | null, at: Date): Promise<void> {
    await this.sql.count(
      `update review_items set status = 'resolved', resolution = $2, resolved_by_id = $3, reason = $4, resolved_at = $5
       where id = $1 and status = 'pending'`,
      [id, resolution, actorId, reason, at],
    );
  }

  async resolveDeleted(post: { targetType: PostRef['targetType']; targetId: number }, actorId: number, at: Date): Promise<void> {
    await this.sql.count(
      `update review_items set status = 'resolved', resolution = 'deleted', resolved_by_id = $3, resolved_at = $4
       where status = 'pending'
         and ((target_type = $1::text and target_id = $2::int) or ($1::text = 'Topic' and topic_id = $2::int))`,
      [post.targetType, post.targetId, actorId, at],
    );
  }

  async resolveAllOf(
    userId: number,
    resolution: ReviewResolution,
    actorId: number,
    reason: string | null,
    at: Date,
  ): Promise<number[]> {
    const rows = await this.sql.all<{ id: number }>(
      `update review_items set status = 'resolved', resolution = $2, resolved_by_id = $3, reason = $4, resolved_at = $5
       where status = 'pending' and user_id = $1
       returning id`,
      [userId, resolution, actorId, reason, at],
    );
    return rows.map((row) => row.id);
  }

  async countPending(): Promise<number> {
    const row = await this.sql.one<{ n: number }>("select count(*)::int as n from review_items where status = 'pending'");
    return row!.n;
  }
}

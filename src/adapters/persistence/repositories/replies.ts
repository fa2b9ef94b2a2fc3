import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../database/sql.js';
import type { StagedRows } from '../staged/staged-rows.js';
import { SIGNED_OUT, countedReply, forumTopic, replyCondition } from '../read-models/visibility.js';
import { READERS } from '../../../domain/visibility/visibility.js';
import { Reply } from '../../../domain/replies/reply.js';
import type { ReplyRepository } from '../../../domain/replies/reply-repository.js';

export class MikroOrmReplyRepository implements ReplyRepository {
  constructor(
    private readonly em: EntityManager,
    private readonly sql: Sql,
    private readonly staged: StagedRows,
  ) {}

  find(id: number): Promise<Reply | null> {
    return this.em.findOne(Reply, { id });
  }

  /**
   * What the author still has (READERS.standing) in the forum's topics, whatever their state: never a message of a
   * conversation, which is its participants'.
   */
  async authoredBy(userId: number): Promise<Reply[]> {
    const rows = await this.sql.all<{ id: number }>(
      `select r.id from replies r join topics t on t.id = r.topic_id
       where r.user_id = $1 and ${replyCondition(READERS.standing, SIGNED_OUT, 'r')} and ${forumTopic('t')}`,
      [userId],
    );
    if (rows.length === 0) return [];
    return this.em.find(Reply, { id: { $in: rows.map((row) => row.id) } }, { orderBy: { id: 'asc' } });
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
      `select exists(select 1 from replies r where r.topic_id = $1 and r.user_id <> $2 and ${countedReply('r')}) as found`,
      [topicId, authorId],
    );
    return rows[0]!.found;
  }
}

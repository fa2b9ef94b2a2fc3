import type { EntityManager } from '@mikro-orm/postgresql';
import type { Sql } from '../sql.js';
import type { StagedRows } from '../staged/staged-rows.js';
import { countedReply } from '../read-models/visibility.js';
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

  authoredBy(userId: number): Promise<Reply[]> {
    return this.em.find(Reply, { userId, deletedAt: null, action: null }, { orderBy: { id: 'asc' } });
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

import { ContainerModule } from 'inversify';
import { NodeRepository } from '../domain/nodes/node-repository.js';
import { DomainEvents } from '../application/events.js';
import { LikeObject } from '../application/likes/like.js';
import { Clock, MarkdownRenderer, UnitOfWork } from '../application/ports.js';
import { CreateReply } from '../application/replies/create-reply.js';
import { DeleteReply } from '../application/replies/delete-reply.js';
import { ListReplies, ReplyReading } from '../application/replies/list-replies.js';
import { ReplyTargets } from '../application/replies/reply-targets.js';
import { UpdateReply } from '../application/replies/update-reply.js';
import { LikeRepository } from '../domain/likes/like-repository.js';
import { Posts } from '../application/posts/posts.js';
import { PreviewPost } from '../application/posts/preview.js';
import { PostingRules } from '../application/review/posting-rules.js';
import { ReplyRepository } from '../domain/replies/reply-repository.js';
import { TopicRepository } from '../domain/topics/topic-repository.js';
import { ReadAudiences, SqlReplyTargets } from '../adapters/persistence/posts/reply-targets.js';
import { SqlLikeRepository } from '../adapters/persistence/repositories/likes.js';
import { SqlReplyReading } from '../adapters/persistence/posts/reply-reading.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { OneStatementUnitOfWork } from '../adapters/persistence/database/unit-of-work.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** Replies, and likes (of topics and replies). */
export const repliesModule = new ContainerModule(({ bind }) => {
  // What a reply's target read learns of its audience, kept for the notification producer (reply-targets.ts).
  provide(bind, ReadAudiences, (sql: Sql) => new ReadAudiences(sql), [SqlRunner]);
  provide(bind, ReplyTargets, (sql: Sql, audiences: ReadAudiences) => new SqlReplyTargets(sql, audiences), [
    SqlRunner,
    ReadAudiences,
  ]);
  provide(bind, LikeRepository, (sql: Sql) => new SqlLikeRepository(sql), [SqlRunner]);
  provide(bind, ReplyReading, (sql: Sql) => new SqlReplyReading(sql), [SqlRunner]);

  const useCase = useCaseBinder(bind);
  useCase(ListReplies, [ReplyReading]);
  useCase(CreateReply, [
    ReplyTargets,
    ReplyRepository,
    PostingRules,
    MarkdownRenderer,
    DomainEvents,
    OneStatementUnitOfWork,
    Clock,
  ]);
  useCase(UpdateReply, [
    ReplyRepository,
    TopicRepository,
    NodeRepository,
    PostingRules,
    MarkdownRenderer,
    DomainEvents,
    UnitOfWork,
    Clock,
  ]);
  useCase(DeleteReply, [ReplyRepository, TopicRepository, NodeRepository, Posts, DomainEvents, UnitOfWork]);
  useCase(LikeObject, [LikeRepository, TopicRepository, NodeRepository, ReplyRepository, UnitOfWork]);
  useCase(PreviewPost, [MarkdownRenderer]);
});

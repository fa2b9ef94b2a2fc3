import { ContainerModule } from 'inversify';
import { ConversationStore } from '../application/conversations/ports.js';
import { NodeRepository } from '../domain/nodes/node-repository.js';
import { DomainEvents } from '../application/events.js';
import { Clock, MarkdownRenderer, UnitOfWork } from '../application/ports.js';
import { Posts } from '../application/posts/posts.js';
import { PostingFacts, PostingRules } from '../application/review/posting-rules.js';
import { FlagPost } from '../application/review/flag-post.js';
import { ReviewReadModel, ReviewStore } from '../application/review/ports.js';
import { ReviewQueueKeeper } from '../application/review/queue-keeper.js';
import { ListReviewItems, ResolveReview, ShowReviewItem } from '../application/review/review-queue.js';
import { SignOutEverywhere } from '../application/tokens/access-tokens.js';
import { DisciplineUser } from '../application/users/discipline.js';
import { ReplyRepository } from '../domain/replies/reply-repository.js';
import { TopicRepository } from '../domain/topics/topic-repository.js';
import { UserRepository } from '../domain/users/user-repository.js';
import type { Config } from '../config.js';
import { SqlPostingFacts } from '../adapters/persistence/posts/posting-facts.js';
import { SqlReviewReadModel } from '../adapters/persistence/read-models/review.js';
import { SqlReviewStore } from '../adapters/persistence/posts/review-store.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { StagedRows } from '../adapters/persistence/staged/staged-rows.js';
import { AppConfig, provide, SqlRunner, useCaseBinder } from './bind.js';

/**
 * Keeping it clean (contract §18): the posting rules every new post passes, flags, holds, the review queue, and
 * silencing and suspending. The queue's own consumer of the domain events is run with the others (events.ts).
 */
export const reviewModule = new ContainerModule(({ bind }) => {
  provide(bind, PostingFacts, (sql: Sql) => new SqlPostingFacts(sql), [SqlRunner]);
  provide(bind, ReviewStore, (sql: Sql, staged: StagedRows) => new SqlReviewStore(sql, staged), [SqlRunner, StagedRows]);
  provide(bind, ReviewReadModel, (sql: Sql) => new SqlReviewReadModel(sql), [SqlRunner]);
  provide(
    bind,
    PostingRules,
    (facts: PostingFacts, config: Config, clock: Clock) => new PostingRules(facts, config.review, clock),
    [PostingFacts, AppConfig, Clock],
  );
  provide(bind, ReviewQueueKeeper, (store: ReviewStore, clock: Clock) => new ReviewQueueKeeper(store, clock), [
    ReviewStore,
    Clock,
  ]);

  const useCase = useCaseBinder(bind);
  useCase(Posts, [TopicRepository, NodeRepository, ReplyRepository, ConversationStore, DomainEvents, Clock]);
  useCase(DisciplineUser, [UserRepository, SignOutEverywhere, DomainEvents, UnitOfWork, Clock]);
  provide(
    bind,
    FlagPost,
    (posts: Posts, store: ReviewStore, events: DomainEvents, config: Config, uow: UnitOfWork, clock: Clock) =>
      new FlagPost(posts, store, events, { hideThreshold: config.review.flagHideThreshold }, uow, clock),
    [Posts, ReviewStore, DomainEvents, AppConfig, UnitOfWork, Clock],
  );
  useCase(ListReviewItems, [ReviewReadModel, NodeRepository, DomainEvents, UnitOfWork]);
  useCase(ShowReviewItem, [ReviewReadModel, NodeRepository, DomainEvents, UnitOfWork]);
  useCase(ResolveReview, [
    ReviewStore,
    NodeRepository,
    Posts,
    UserRepository,
    DisciplineUser,
    SignOutEverywhere,
    MarkdownRenderer,
    DomainEvents,
    UnitOfWork,
    Clock,
  ]);
});

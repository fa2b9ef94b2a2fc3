import { ContainerModule } from 'inversify';
import { DomainEvents } from '../application/events.js';
import { Clock, MarkdownRenderer, UnitOfWork } from '../application/ports.js';
import { TopicReadModel } from '../application/read-models.js';
import { CreateTopic } from '../application/topics/create-topic.js';
import { DeleteTopic } from '../application/topics/delete-topic.js';
import { ListTopics } from '../application/topics/list-topics.js';
import { CountUnreadTopics, MarkAllTopicsRead, MarkTopicRead, ReadMarks } from '../application/topics/read-state.js';
import { SqlReadMarks } from '../adapters/persistence/posts/read-marks.js';
import { MoveNodeTopics } from '../application/topics/move-node-topics.js';
import { MoveTopic } from '../application/topics/move-topic.js';
import { TopicRelocation } from '../application/topics/relocation.js';
import { ShowTopic, TopicViews } from '../application/topics/show-topic.js';
import { SqlTopicViews } from '../adapters/persistence/posts/topic-views.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { TopicAction } from '../application/topics/topic-action.js';
import { FavoriteTopic, FollowTopic } from '../application/topics/topic-relations.js';
import { UpdateTopic } from '../application/topics/update-topic.js';
import { NodeRepository } from '../domain/nodes/node-repository.js';
import { Posts } from '../application/posts/posts.js';
import { PostingRules } from '../application/review/posting-rules.js';
import { ReplyRepository } from '../domain/replies/reply-repository.js';
import { TopicRepository } from '../domain/topics/topic-repository.js';
import { NotificationRepository } from '../domain/notifications/notification-repository.js';
import { OneStatementUnitOfWork } from '../adapters/persistence/database/unit-of-work.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** Topics: listing, reading, writing, following, moderating and moving them. */
export const topicsModule = new ContainerModule(({ bind }) => {
  const useCase = useCaseBinder(bind);
  useCase(TopicRelocation, [NodeRepository, DomainEvents]);
  useCase(ListTopics, [TopicReadModel, Clock]);
  useCase(CountUnreadTopics, [TopicReadModel, Clock]);
  provide(bind, ReadMarks, (sql: Sql) => new SqlReadMarks(sql), [SqlRunner]);
  useCase(MarkTopicRead, [ReadMarks]);
  useCase(MarkAllTopicsRead, [ReadMarks, Clock]);
  provide(bind, TopicViews, (sql: Sql) => new SqlTopicViews(sql), [SqlRunner]);
  useCase(ShowTopic, [TopicViews, NotificationRepository, ReadMarks, DomainEvents, OneStatementUnitOfWork]);
  useCase(CreateTopic, [TopicRepository, TopicRelocation, PostingRules, MarkdownRenderer, DomainEvents, UnitOfWork, Clock]);
  useCase(UpdateTopic, [
    TopicRepository,
    NodeRepository,
    TopicRelocation,
    PostingRules,
    MarkdownRenderer,
    DomainEvents,
    UnitOfWork,
    Clock,
  ]);
  useCase(DeleteTopic, [TopicRepository, NodeRepository, ReplyRepository, Posts, DomainEvents, UnitOfWork]);
  useCase(FollowTopic, [TopicRepository, NodeRepository]);
  useCase(FavoriteTopic, [TopicRepository, NodeRepository, DomainEvents, UnitOfWork]);
  useCase(TopicAction, [TopicRepository, ReplyRepository, NodeRepository, TopicRelocation, DomainEvents, UnitOfWork, Clock]);
  useCase(MoveTopic, [TopicRepository, NodeRepository, TopicRelocation, UnitOfWork, Clock]);
  useCase(MoveNodeTopics, [TopicRepository, NodeRepository, TopicRelocation, UnitOfWork, Clock]);
});

import { ContainerModule } from 'inversify';
import { DomainEvents } from '../application/events.js';
import { Clock, MarkdownRenderer, UnitOfWork } from '../application/ports.js';
import { PostingRules } from '../application/review/posting-rules.js';
import { ConversationReadModel, ConversationReading, ConversationStore } from '../application/conversations/ports.js';
import {
  CountUnreadMessages,
  ListConversationReplies,
  ListConversations,
  ShowConversation,
} from '../application/conversations/read-conversations.js';
import {
  AddParticipants,
  LeaveConversation,
  ReplyToConversation,
  StartConversation,
} from '../application/conversations/write-conversations.js';
import { SqlConversationReadModel } from '../adapters/persistence/conversations/conversation-read-model.js';
import { SqlConversationReading } from '../adapters/persistence/conversations/conversation-reading.js';
import { SqlConversationStore } from '../adapters/persistence/conversations/conversation-store.js';
import type { Sql } from '../adapters/persistence/database/sql.js';
import { OneStatementUnitOfWork } from '../adapters/persistence/database/unit-of-work.js';
import { StagedRows } from '../adapters/persistence/staged/staged-rows.js';
import { provide, SqlRunner, useCaseBinder } from './bind.js';

/** Private messages (contract §24): conversations, their messages and who takes part. */
export const conversationsModule = new ContainerModule(({ bind }) => {
  const useCase = useCaseBinder(bind);
  provide(bind, ConversationStore, (sql: Sql, staged: StagedRows) => new SqlConversationStore(sql, staged), [
    SqlRunner,
    StagedRows,
  ]);
  provide(bind, ConversationReadModel, (sql: Sql) => new SqlConversationReadModel(sql), [SqlRunner]);
  provide(bind, ConversationReading, (sql: Sql) => new SqlConversationReading(sql), [SqlRunner]);
  // A new conversation or message is one statement, with everything it moves: no transaction (as reply create).
  const writing = [ConversationStore, PostingRules, MarkdownRenderer, DomainEvents, OneStatementUnitOfWork, Clock];
  useCase(StartConversation, writing);
  useCase(ReplyToConversation, writing);
  useCase(AddParticipants, [ConversationStore, DomainEvents, UnitOfWork, Clock]);
  useCase(LeaveConversation, [ConversationStore, DomainEvents, UnitOfWork, Clock]);
  useCase(ListConversations, [ConversationReadModel]);
  useCase(ShowConversation, [ConversationReading]);
  useCase(ListConversationReplies, [ConversationReading]);
  useCase(CountUnreadMessages, [ConversationReadModel]);
});

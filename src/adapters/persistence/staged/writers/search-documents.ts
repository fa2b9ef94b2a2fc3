import type { StagedWriter } from '../staged.js';

/**
 * The search documents of topics and replies (the `english` configuration named in every statement). An older
 * version never overwrites a newer one: a reindex batch read before an edit lands after it.
 */
export const searchDocuments: StagedWriter = {
  name: 'search documents',
  write(staged, s) {
    const topics = [...staged.topicDocuments.values()];
    if (topics.length > 0) {
      s.cte(
        'topic_documents',
        `insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
    select d.topic_id, null, to_tsvector('english', d.title), to_tsvector('english', d.title || ' ' || d.body),
           d.text, d.created_at, d.updated_at
    from unnest(${s.column(topics, (d) => d.topicId, 'int[]')}, ${s.column(topics, (d) => d.title ?? '', 'text[]')},
      ${s.column(topics, (d) => d.body, 'text[]')}, ${s.column(topics, (d) => d.text, 'text[]')},
      ${s.column(topics, (d) => d.createdAt, 'timestamptz[]')}, ${s.column(topics, (d) => d.sourceUpdatedAt, 'timestamptz[]')})
      as d(topic_id, title, body, text, created_at, updated_at)
    on conflict (topic_id) where reply_id is null do update
      set title_vector = excluded.title_vector, vector = excluded.vector, text = excluded.text,
          source_updated_at = excluded.source_updated_at
      where search_documents.source_updated_at <= excluded.source_updated_at`,
      );
    }
    const replies = [...staged.replyDocuments.values()];
    if (replies.length > 0) {
      s.cte(
        'reply_documents',
        `insert into search_documents (topic_id, reply_id, title_vector, vector, text, created_at, source_updated_at)
    select d.topic_id, d.reply_id, null, to_tsvector('english', d.body), d.text, d.created_at, d.updated_at
    from unnest(${s.column(replies, (d) => d.topicId, 'int[]')}, ${s.column(replies, (d) => d.replyId, 'int[]')},
      ${s.column(replies, (d) => d.body, 'text[]')}, ${s.column(replies, (d) => d.text, 'text[]')},
      ${s.column(replies, (d) => d.createdAt, 'timestamptz[]')}, ${s.column(replies, (d) => d.sourceUpdatedAt, 'timestamptz[]')})
      as d(topic_id, reply_id, body, text, created_at, updated_at)
    on conflict (reply_id) where reply_id is not null do update
      set vector = excluded.vector, text = excluded.text, source_updated_at = excluded.source_updated_at
      where search_documents.source_updated_at <= excluded.source_updated_at`,
      );
    }
  },
};

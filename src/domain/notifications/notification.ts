/** The kinds of notification a user receives (contract §5). */
export type NotificationType = 'TopicReply' | 'Mention' | 'NodeChanged' | 'Topic' | 'Follow';

/** A notification to be written: to whom, by whom, about what. */
export interface NewNotification {
  userId: number;
  actorId: number | null;
  type: NotificationType;
  topicId?: number;
  replyId?: number;
  nodeId?: number;
  mentionType?: 'Topic' | 'Reply';
}

/** At most this many distinct users are notified for the mentions in one body. */
export const MAX_MENTIONS = 5;

/*
 * Who hears of what, as pure functions of what happened. Nobody is notified about their own action, nor by an
 * actor they have blocked (`blockedActorFor`: the candidates who blocked the actor).
 */

function unique(ids: Iterable<number>): number[] {
  return [...new Set(ids)];
}

/** The users a body's mentions notify: existing users (already resolved), distinct, never the author, the first five. */
export function mentionTargets(mentionedIds: readonly number[], authorId: number): number[] {
  return unique(mentionedIds)
    .filter((id) => id !== authorId)
    .slice(0, MAX_MENTIONS);
}

export interface NewReplyAudience {
  topicId: number;
  replyId: number;
  topicAuthorId: number;
  replierId: number;
  /** Users who follow the topic. */
  followerIds: readonly number[];
  /** Users named with `@login` in the reply, resolved, in order of appearance. */
  mentionedIds: readonly number[];
  /** Among all of the above, those who blocked the replier. */
  blockedActorFor: readonly number[];
  /** Among all of the above, those who may not read the topic's node (contract §23): they hear nothing of it. */
  unreadableFor: readonly number[];
}

/** `TopicReply` to the topic's author and followers; `Mention` instead to those mentioned. */
export function whoHearsOfReply(event: NewReplyAudience): NewNotification[] {
  const blocked = new Set([...event.blockedActorFor, ...event.unreadableFor]);
  const mentioned = mentionTargets(event.mentionedIds, event.replierId).filter((id) => !blocked.has(id));
  const skip = new Set([event.replierId, ...mentioned, ...blocked]);
  const about = { actorId: event.replierId, topicId: event.topicId, replyId: event.replyId };
  return [
    ...unique([event.topicAuthorId, ...event.followerIds])
      .filter((id) => !skip.has(id))
      .map((userId): NewNotification => ({ userId, type: 'TopicReply', ...about })),
    ...mentioned.map((userId): NewNotification => ({ userId, type: 'Mention', mentionType: 'Reply', ...about })),
  ];
}

export interface NewTopicAudience {
  topicId: number;
  authorId: number;
  /** Users who follow the author. */
  authorFollowerIds: readonly number[];
  mentionedIds: readonly number[];
  blockedActorFor: readonly number[];
  /** Among the above, those who may not read the topic's node (contract §23). */
  unreadableFor: readonly number[];
}

/** `Topic` to the author's followers; `Mention` instead to those mentioned. */
export function whoHearsOfTopic(event: NewTopicAudience): NewNotification[] {
  const blocked = new Set([...event.blockedActorFor, ...event.unreadableFor]);
  const mentioned = mentionTargets(event.mentionedIds, event.authorId).filter((id) => !blocked.has(id));
  const skip = new Set([event.authorId, ...mentioned, ...blocked]);
  const about = { actorId: event.authorId, topicId: event.topicId };
  return [
    ...unique(event.authorFollowerIds)
      .filter((id) => !skip.has(id))
      .map((userId): NewNotification => ({ userId, type: 'Topic', ...about })),
    ...mentioned.map((userId): NewNotification => ({ userId, type: 'Mention', mentionType: 'Topic', ...about })),
  ];
}

/**
 * An administrator moved (or banned) someone's topic: its owner hears of it, unless the owner did it, or may not read
 * where it went (contract §23).
 */
export function whoHearsOfMove(event: {
  topicId: number;
  ownerId: number;
  actorId: number;
  nodeId: number;
  ownerMayRead: boolean;
}): NewNotification[] {
  if (event.ownerId === event.actorId || !event.ownerMayRead) return [];
  return [{ userId: event.ownerId, actorId: event.actorId, type: 'NodeChanged', topicId: event.topicId, nodeId: event.nodeId }];
}

/** A user has a new follower. */
export function whoHearsOfFollow(event: { followerId: number; followeeId: number; blockedActor: boolean }): NewNotification[] {
  if (event.followerId === event.followeeId || event.blockedActor) return [];
  return [{ userId: event.followeeId, actorId: event.followerId, type: 'Follow' }];
}

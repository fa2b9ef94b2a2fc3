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

/**
 * An administrator moved (or banned) someone's topic: its owner hears of it, unless the owner did it.
 * Pure: what to notify follows from what happened.
 */
export function nodeChanged(event: { topicId: number; ownerId: number; actorId: number; nodeId: number }): NewNotification[] {
  if (event.ownerId === event.actorId) return [];
  return [{ userId: event.ownerId, actorId: event.actorId, type: 'NodeChanged', topicId: event.topicId, nodeId: event.nodeId }];
}

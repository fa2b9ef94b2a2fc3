import { Post } from '../shared/post.js';
import { requireText } from '../shared/text.js';

/** System events recorded among a topic's replies, so that floor numbers stay stable. */
export const SYSTEM_EVENTS = ['ban', 'excellent', 'unexcellent', 'close', 'reopen'] as const;
export type SystemEvent = (typeof SYSTEM_EVENTS)[number];

export const MAX_REPLY_BODY = 50_000;

export class Reply extends Post {
  topicId!: number;
  body!: string;
  bodyHtml!: string;
  action!: SystemEvent | null;

  static write(input: { topicId: number; userId: number; body: string; bodyHtml: string }, now: Date): Reply {
    return Reply.make({ ...input, body: requireText(input.body, 'Body', MAX_REPLY_BODY), action: null }, now);
  }

  /** A system event: who did what to the topic, shown in its reply stream. */
  static event(input: { topicId: number; userId: number; action: SystemEvent }, now: Date): Reply {
    return Reply.make({ ...input, body: '', bodyHtml: '' }, now);
  }

  private static make(
    fields: { topicId: number; userId: number; body: string; bodyHtml: string; action: SystemEvent | null },
    now: Date,
  ): Reply {
    const reply = new Reply();
    Object.assign(reply, {
      ...fields,
      visibility: 'public',
      deletedAt: null,
      deletedById: null,
      createdAt: now,
      updatedAt: now,
    });
    return reply;
  }

  isSystemEvent(): boolean {
    return this.action !== null;
  }

  edit(body: string, bodyHtml: string, now: Date): void {
    this.body = requireText(body, 'Body', MAX_REPLY_BODY);
    this.bodyHtml = bodyHtml;
    this.updatedAt = now;
  }
}

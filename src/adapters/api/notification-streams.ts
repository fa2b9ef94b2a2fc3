import { PassThrough } from 'node:stream';
import type { Context } from 'koa';
import type { ActingUser } from '../../application/actor.js';
import type { EventFeed, PublishedEvent } from '../../application/events.js';
import type { LiveMessage, LiveNotifications } from '../../application/notifications/live-notifications.js';
import type { NotificationView } from '../../application/read-models.js';
import type { Wire } from '../presentation/wire.js';

/** A client that stops reading is let go once this much waits for it: memory stays bounded per stream. */
const MAX_BUFFERED_BYTES = 256 * 1024;
/** Ids a stream remembers having sent (a notification can come both as missed and as new while it opens). */
const REMEMBERED_IDS = 512;

interface Stream {
  user: ActingUser;
  out: PassThrough;
  sent: Set<number>;
}

export interface StreamOptions {
  /** A comment line this often keeps proxies from closing an idle stream (contract §12: at most 25 s). */
  keepAliveMs?: number;
  /** What may wait for a client that does not read before it is let go (256 KiB). */
  maxBufferedBytes?: number;
}

/**
 * The open notification streams of this process (contract §12), fed by the event feed: one subscription for all
 * of them, whatever their number. Each stream is a Server-Sent Events response; the user's notifications go out
 * as `event: notification` with their id, the unread count as `event: unread_count`.
 */
export class NotificationStreams {
  private readonly byUser = new Map<number, Set<Stream>>();
  private unsubscribe: (() => void) | null = null;
  private closing = false;
  private delivering: Promise<void> = Promise.resolve();
  private readonly keepAliveMs: number;
  private readonly maxBufferedBytes: number;

  constructor(
    private readonly live: LiveNotifications,
    private readonly feed: EventFeed,
    private readonly wire: Wire,
    options: StreamOptions = {},
  ) {
    this.keepAliveMs = options.keepAliveMs ?? 25_000;
    this.maxBufferedBytes = options.maxBufferedBytes ?? MAX_BUFFERED_BYTES;
  }

  /** How many streams are open. */
  get size(): number {
    let size = 0;
    for (const streams of this.byUser.values()) size += streams.size;
    return size;
  }

  /** Answers the request with a stream of the user's notifications; `lastEventId` resumes after that id. */
  async open(ctx: Context, user: ActingUser, lastEventId: number | null): Promise<void> {
    this.unsubscribe ??= this.feed.subscribe((events) => this.enqueue(events));
    const out = new PassThrough();
    const stream: Stream = { user, out, sent: new Set() };
    ctx.req.socket.setTimeout(0);
    ctx.req.socket.setNoDelay(true);
    ctx.status = 200;
    ctx.type = 'text/event-stream';
    ctx.set('Cache-Control', 'no-cache, no-transform');
    // nginx would otherwise hold the events back in its buffer.
    ctx.set('X-Accel-Buffering', 'no');
    ctx.body = out;
    if (this.closing) {
      out.end();
      return;
    }
    this.add(stream);
    const keepAlive = setInterval(() => this.write(stream, ': keep-alive\n\n'), this.keepAliveMs);
    const forget = () => {
      clearInterval(keepAlive);
      this.remove(stream);
    };
    out.once('close', forget);
    // The client went away (the response's socket closed): let the stream go.
    ctx.res.once('close', () => out.destroy());

    this.write(stream, 'retry: 3000\n\n');
    // What the client is told next (missed notifications, the count) must not miss a change made meanwhile.
    await this.feed.ready();
    if (lastEventId !== null) this.send(stream, await this.live.missed(user, lastEventId));
    this.write(stream, countFrame(await this.live.unreadCount(user)));
  }

  /** Ends every stream (the server is shutting down): clients reconnect to another process, or later. */
  close(): void {
    this.closing = true;
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const streams of this.byUser.values()) for (const stream of streams) stream.out.end();
  }

  /**
   * One batch of the feed at a time, in order: a count never overtakes a later one. A batch that cannot be read
   * (the database is away) is skipped; the next change brings the count up to date.
   */
  private enqueue(events: readonly PublishedEvent[]): void {
    this.delivering = this.delivering.then(() => this.deliver(events)).catch(() => undefined);
  }

  /** Reads what changed for the users with a stream here, all of them at once, and pushes it. */
  private async deliver(events: readonly PublishedEvent[]): Promise<void> {
    const changes = this.live.changes(events).filter((change) => this.byUser.has(change.userId));
    for (const update of await this.live.updates(changes)) {
      for (const stream of this.byUser.get(update.userId) ?? []) {
        this.send(stream, update.notifications);
        this.write(stream, countFrame(update.unreadCount));
        for (const message of update.messages) this.write(stream, messageFrame(message, update.unreadMessages));
      }
    }
  }

  private send(stream: Stream, notifications: readonly NotificationView[]): void {
    for (const notification of notifications) {
      if (stream.sent.has(notification.id)) continue;
      stream.sent.add(notification.id);
      if (stream.sent.size > REMEMBERED_IDS) stream.sent.delete(stream.sent.values().next().value!);
      const data = JSON.stringify(this.wire.notification(notification, stream.user));
      this.write(stream, `id: ${notification.id}\nevent: notification\ndata: ${data}\n\n`);
    }
  }

  private write(stream: Stream, frame: string): void {
    if (stream.out.destroyed || stream.out.writableEnded) return;
    // What waits in the stream, on both of its sides: the response stops taking it when the client stops reading.
    if (stream.out.readableLength + stream.out.writableLength > this.maxBufferedBytes) {
      stream.out.destroy();
      return;
    }
    stream.out.write(frame);
  }

  private add(stream: Stream): void {
    let streams = this.byUser.get(stream.user.id);
    if (!streams) this.byUser.set(stream.user.id, (streams = new Set()));
    streams.add(stream);
  }

  private remove(stream: Stream): void {
    const streams = this.byUser.get(stream.user.id);
    streams?.delete(stream);
    if (streams?.size === 0) this.byUser.delete(stream.user.id);
  }
}

/** A new message (contract §24), apart from notifications: where it is, and how many conversations have unread ones. */
function messageFrame(message: LiveMessage, unreadCount: number): string {
  const data = { conversation_id: message.conversationId, reply_id: message.replyId, unread_count: unreadCount };
  return `event: message\ndata: ${JSON.stringify(data)}\n\n`;
}

function countFrame(count: number): string {
  return `event: unread_count\ndata: ${JSON.stringify({ count })}\n\n`;
}

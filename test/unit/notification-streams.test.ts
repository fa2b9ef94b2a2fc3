import { EventEmitter } from 'node:events';
import { expect } from 'chai';
import type { Context } from 'koa';
import { NotificationStreams } from '../../src/adapters/api/notification-streams.js';
import type { EventFeed } from '../../src/application/events.js';
import type { LiveNotifications } from '../../src/application/notifications/live-notifications.js';
import { Wire } from '../../src/adapters/presentation/wire.js';

/** A request whose client never reads: the response body (the stream) is written to and never drained. */
function unreadRequest(): Context {
  const headers: Record<string, string> = {};
  return {
    req: { socket: { setTimeout() {}, setNoDelay() {} } },
    res: new EventEmitter(),
    set: (name: string, value: string) => (headers[name] = value),
  } as unknown as Context;
}

const live = {
  missed: async () => [],
  updates: async () => [],
  unreadCount: async () => 3,
  changes: () => [],
} as unknown as LiveNotifications;
const feed: EventFeed = { subscribe: () => () => undefined, ready: async () => undefined };

describe('NotificationStreams', () => {
  it('lets go of a client that stops reading once what waits for it passes the bound', async () => {
    const streams = new NotificationStreams(live, feed, new Wire('http://forum.test'), { keepAliveMs: 5, maxBufferedBytes: 200 });
    const ctx = unreadRequest();
    await streams.open(ctx, { id: 1, login: 'alice', role: 'member' }, null);
    const body = ctx.body as NodeJS.ReadableStream & { destroyed: boolean; writableLength: number };
    expect(streams.size).to.equal(1);
    // Keep-alive comments pile up unread, 16 bytes every 5 ms, until the stream passes 200 bytes and is dropped.
    for (let waited = 0; !body.destroyed && waited < 2_000; waited += 10) await new Promise((r) => setTimeout(r, 10));
    expect(body.destroyed).to.equal(true);
    expect(streams.size).to.equal(0);
  });

  it('keeps a client that reads, however long it stays', async () => {
    const streams = new NotificationStreams(live, feed, new Wire('http://forum.test'), { keepAliveMs: 5, maxBufferedBytes: 200 });
    const ctx = unreadRequest();
    await streams.open(ctx, { id: 1, login: 'alice', role: 'member' }, null);
    const body = ctx.body as NodeJS.ReadableStream & { destroyed: boolean };
    let received = '';
    body.on('data', (chunk: Buffer) => (received += chunk.toString()));
    await new Promise((r) => setTimeout(r, 200));
    expect(body.destroyed).to.equal(false);
    expect(received).to.include('event: unread_count\ndata: {"count":3}');
    expect(received.match(/: keep-alive/g)?.length).to.be.greaterThan(10);
    const closed = new Promise((resolve) => body.once('close', resolve));
    streams.close();
    await closed;
    expect(streams.size).to.equal(0);
  });
});

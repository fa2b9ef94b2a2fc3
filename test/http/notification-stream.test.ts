import http from 'node:http';
import { expect } from 'chai';
import { api, makeGroup, makeNode, makeReply, makeTopic, makeUser, setNodeAccess, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { appDependencies, testEnv } from '../support/env.js';
import { listen, type RunningServer } from '../../src/server/server.js';
import { createApp } from '../../src/server/app.js';
import { NotificationStreams } from '../../src/adapters/api/notification-streams.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * Live notifications (contract §12) over a real socket: Server-Sent Events as a browser's EventSource reads them,
 * fed by the outbox from this process and from another server process on the same database.
 */

interface Frame {
  event: string;
  id?: string;
  data: string;
  comment?: string;
}

interface OpenStream {
  status: number;
  headers: http.IncomingHttpHeaders;
  frames: Frame[];
  /** The first frame from `from` on that passes `test`, waiting up to `ms`. */
  next(test: (frame: Frame) => boolean, ms?: number): Promise<Frame>;
  ended: Promise<void>;
  close(): void;
}

/** Reads an event stream frame by frame (blank-line separated; `:` lines are comments). */
function openStream(url: string, headers: Record<string, string> = {}): Promise<OpenStream> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Accept: 'text/event-stream', ...headers } }, (res) => {
      const frames: Frame[] = [];
      const waiting = new Set<() => void>();
      let buffer = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const frame: Frame = { event: 'message', data: '' };
          for (const line of block.split('\n')) {
            const colon = line.indexOf(':');
            const [field, value] = colon === -1 ? [line, ''] : [line.slice(0, colon), line.slice(colon + 1).trimStart()];
            if (field === '') frame.comment = value;
            else if (field === 'event') frame.event = value;
            else if (field === 'id') frame.id = value;
            else if (field === 'data') frame.data = value;
          }
          frames.push(frame);
        }
        for (const wake of waiting) wake();
      });
      const ended = new Promise<void>((done) => res.once('close', () => done()));
      resolve({
        status: res.statusCode!,
        headers: res.headers,
        frames,
        ended,
        close: () => request.destroy(),
        next(test, ms = 1_000) {
          let seen = 0;
          return new Promise((found, fail) => {
            const look = () => {
              for (; seen < frames.length; seen++) {
                if (test(frames[seen]!)) {
                  waiting.delete(look);
                  clearTimeout(timer);
                  found(frames[seen]!);
                  return;
                }
              }
            };
            const timer = setTimeout(() => {
              waiting.delete(look);
              fail(new Error(`no such frame within ${ms} ms; got ${JSON.stringify(frames)}`));
            }, ms);
            waiting.add(look);
            look();
          });
        },
      });
    });
    request.once('error', reject);
  });
}

const isNotification = (frame: Frame) => frame.event === 'notification';
const countIs = (count: number) => (frame: Frame) => frame.event === 'unread_count' && JSON.parse(frame.data).count === count;

describe('GET /api/v3/notifications/stream', () => {
  let server: RunningServer;
  let alice: TestUser;
  let bob: TestUser;
  let topic: number;
  const open: OpenStream[] = [];
  const stream = async (query: string, headers: Record<string, string> = {}) => {
    const opened = await openStream(`${server.url}/api/v3/notifications/stream${query}`, headers);
    open.push(opened);
    return opened;
  };

  before(async () => {
    server = await listen(testEnv().app, 0, '127.0.0.1');
  });

  after(async () => {
    await server.stop();
  });

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    topic = await makeTopic(alice, await makeNode('General'), 'Streams', 'about streams');
  });

  afterEach(() => {
    for (const opened of open.splice(0)) opened.close();
  });

  it('sends the unread count on connect, then each new notification (token as access_token) and the new count', async () => {
    const live = await stream(`?access_token=${alice.token}`);
    expect(live.status).to.equal(200);
    expect(live.headers['content-type']).to.match(/^text\/event-stream/);
    expect(live.headers['cache-control']).to.include('no-cache');
    await live.next(countIs(0));

    const started = Date.now();
    const reply = await makeReply(bob, topic, 'hello @alice');
    const frame = await live.next(isNotification);
    expect(Date.now() - started).to.be.below(1_000);
    const notification = JSON.parse(frame.data);
    expect(frame.id).to.equal(String(notification.id));
    // The same object as in the list.
    const listed = (await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications;
    expect(listed.map((n: { id: number }) => n.id)).to.include(notification.id);
    expect(notification).to.deep.equal(listed.find((n: { id: number }) => n.id === notification.id));
    // A reply to her topic that also mentions her: TopicReply (reply) or Mention (mention), the same reply.
    expect((notification.reply ?? notification.mention).id).to.equal(reply);
    await live.next(countIs(listed.length));

    // Reading and deleting move the count too.
    await api()
      .post('/api/v3/notifications/read')
      .set(alice.auth)
      .send({ ids: [notification.id] })
      .expect(200);
    await live.next(countIs(listed.length - 1));
    await api().delete('/api/v3/notifications/all').set(alice.auth).expect(200);
    await live.next(countIs(0));
  });

  it('sends a user only their own notifications', async () => {
    const carol = await makeUser('carol');
    const live = await stream('', { Authorization: `Bearer ${carol.token}` });
    await live.next(countIs(0));
    await makeReply(bob, topic, 'hello @alice');
    await api().get('/api/v3/notifications/unread_count').set(alice.auth).expect(200, { count: 1 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(live.frames.filter(isNotification)).to.deep.equal([]);
  });

  it('sends a new message to those in its conversation as `message`, with their count of unread ones, and to nobody else (contract §24)', async () => {
    const carol = await makeUser('carol');
    const bobs = await stream('', { Authorization: `Bearer ${bob.token}` });
    const carols = await stream('', { Authorization: `Bearer ${carol.token}` });
    await bobs.next(countIs(0));
    await carols.next(countIs(0));
    const sent = await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: ['bob'], title: 'Just us', body: 'a secret' })
      .expect(200);
    const id = sent.body.message.id as number;
    // `message` is also what a frame without `event:` is (the retry and keep-alive ones): these carry data.
    const isMessage = (f: Frame) => f.event === 'message' && f.data !== '';
    const frame = await bobs.next(isMessage);
    expect(JSON.parse(frame.data)).to.deep.equal({ conversation_id: id, reply_id: null, unread_count: 1 });
    await api().post(`/api/v3/messages/${id}/replies`).set(alice.auth).send({ body: 'another' }).expect(200);
    const second = await bobs.next((f) => isMessage(f) && JSON.parse(f.data).reply_id !== null);
    expect(JSON.parse(second.data).unread_count).to.equal(1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Nothing of it to carol, and no notification to bob: messages are kept apart from them.
    expect(carols.frames.filter((f) => isMessage(f) || isNotification(f))).to.deep.equal([]);
    expect(bobs.frames.filter(isNotification)).to.deep.equal([]);
    expect(JSON.stringify(carols.frames)).not.to.contain('secret');
  });

  it('resumes after Last-Event-ID: what was missed comes first, oldest first', async () => {
    await makeReply(bob, topic, 'one @alice');
    const [first] = (await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications;
    await makeReply(bob, topic, 'two @alice');
    await makeReply(bob, topic, 'three @alice');
    const live = await stream('', { Authorization: `Bearer ${alice.token}`, 'Last-Event-ID': String(first.id) });
    await live.next(countIs(3));
    const missed = live.frames.filter(isNotification).map((frame) => Number(frame.id));
    expect(missed).to.have.length.greaterThan(0);
    expect(missed.every((id) => id > first.id)).to.equal(true);
    expect(missed).to.deep.equal([...missed].sort((a, b) => a - b));
    const all = (await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications;
    expect(missed).to.deep.equal(
      all
        .map((n: { id: number }) => n.id)
        .filter((id: number) => id > first.id)
        .sort((a: number, b: number) => a - b),
    );
  });

  it('keeps the connection alive with comment lines', async () => {
    const live = await stream('', { Authorization: `Bearer ${alice.token}` });
    // The test environment sends one every 500 ms (25 s in the service).
    await live.next((frame) => frame.comment === 'keep-alive', 1_500);
  });

  it('answers 401 without a token and 400 for a Last-Event-ID that is not an id, in the contract format', async () => {
    const anonymous = await api().get('/api/v3/notifications/stream').expect(401);
    expect(anonymous.body.error).to.be.a('string');
    const bad = await api().get('/api/v3/notifications/stream').set(alice.auth).set('Last-Event-ID', 'abc').expect(400);
    expect(bad.body.error).to.equal('ParameterInvalid');
  });

  it('ends every stream when the service shuts down', async () => {
    const env = testEnv();
    const streams = new NotificationStreams(env.useCases.liveNotifications, env.persistence.events, env.wire);
    const own = await listen(createApp({ ...appDependencies(), notificationStreams: streams }), 0, '127.0.0.1');
    try {
      const live = await openStream(`${own.url}/api/v3/notifications/stream`, { Authorization: `Bearer ${alice.token}` });
      await live.next(countIs(0));
      expect(streams.size).to.equal(1);
      streams.close();
      await live.ended;
      expect(streams.size).to.equal(0);
      // A stream asked for meanwhile ends at once (its client reconnects elsewhere).
      const late = await openStream(`${own.url}/api/v3/notifications/stream`, { Authorization: `Bearer ${alice.token}` });
      await late.ended;
    } finally {
      await own.stop();
    }
  });

  describe('with a second server process on the same database', () => {
    let other: ServerProcess;

    before(async function () {
      this.timeout(60_000);
      other = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
    });

    after(async () => {
      await other.terminate();
    });

    it('delivers within a second what a write in the other process notified', async () => {
      const live = await stream('', { Authorization: `Bearer ${alice.token}` });
      await live.next(countIs(0));
      const started = Date.now();
      const created = await fetch(`${other.url}/api/v3/topics/${topic}/replies`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${bob.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ body: 'from the other process, @alice' }),
      });
      expect(created.status).to.equal(200);
      const frame = await live.next(isNotification);
      expect(Date.now() - started).to.be.below(1_000);
      const delivered = JSON.parse(frame.data);
      const { reply } = (await created.json()) as { reply: { id: number } };
      expect((delivered.reply ?? delivered.mention).id).to.equal(reply.id);

      // And the other way: its streams hear of writes made here.
      const there = await openStream(`${other.url}/api/v3/notifications/stream?access_token=${alice.token}`);
      open.push(there);
      await there.next(countIs(1), 3_000);
      await makeReply(bob, topic, 'from this process, @alice');
      await there.next(isNotification);
    });

    it('drops, on a stream in the other process, what a member may no longer read once they leave its group (contract §23)', async () => {
      const team = await makeNode('Team');
      await makeGroup('team', [alice, bob]);
      await setNodeAccess(team, { read: { groups: ['team'] } });
      const secret = await makeTopic(bob, team, 'Team only', 'hello @alice');
      const there = await openStream(`${other.url}/api/v3/notifications/stream?access_token=${alice.token}`);
      open.push(there);
      await there.next(countIs(1), 3_000);
      const left = await forumctl(['groups', 'remove', 'team', 'alice']);
      expect(left.code, left.stderr).to.equal(0);
      await there.next(countIs(0), 1_000);
      expect((await api().get('/api/v3/notifications').set(alice.auth).expect(200)).body.notifications).to.deep.equal([]);
      await api().get(`/api/v3/topics/${secret}`).set(alice.auth).expect(404);
    });

    it('ends its streams on SIGTERM and exits 0', async function () {
      this.timeout(20_000);
      const there = await openStream(`${other.url}/api/v3/notifications/stream?access_token=${alice.token}`);
      await there.next(countIs(0), 3_000);
      const started = Date.now();
      expect(await other.terminate()).to.equal(0);
      await there.ended;
      // Streams are not requests in flight: no drain timeout (10 s) is waited out.
      expect(Date.now() - started).to.be.below(5_000);
      expect(other.output()).to.not.include(alice.token);
    });
  });
});

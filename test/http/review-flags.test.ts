import { expect } from 'chai';
import supertest from 'supertest';
import { createApp } from '../../src/server/app.js';
import { ServiceMetrics } from '../../src/adapters/api/metrics.js';
import { ReviewStore } from '../../src/application/review/ports.js';
import { WebhookSubjects } from '../../src/application/webhooks/webhooks.js';
import { MailFacts } from '../../src/application/mail/deliver-mail.js';
import { api, makeNode, makeReply, makeTopic, makeUser, topicRow, type TestUser } from '../support/builders.js';
import { appDependencies, testEnv } from '../support/env.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/** Contract §18: flags, hiding, and the review queue of flagged posts, over HTTP on real PostgreSQL. */

type Kind = 'topic' | 'reply';
const flag = (user: TestUser, kind: Kind, id: number, body: Record<string, unknown> = { reason: 'spam' }) =>
  api()
    .post(`/api/v3/${kind === 'topic' ? 'topics' : 'replies'}/${id}/flag`)
    .set(user.auth)
    .send(body);

const resolve = (admin: TestUser, itemId: number, body: Record<string, unknown>) =>
  api().post(`/api/v3/admin/review/${itemId}`).set(admin.auth).send(body);

async function pendingItems(admin: TestUser) {
  return (await api().get('/api/v3/admin/review').set(admin.auth).expect(200)).body.items as Record<string, any>[];
}

/** The highest event id now: events recorded after it are a test's. */
async function lastEventId(): Promise<number> {
  const [row] = await testEnv().sql<{ id: string | null }>('select max(id) as id from events');
  return Number(row!.id ?? 0);
}

async function eventsSince(id: number): Promise<{ type: string; payload: Record<string, unknown> }[]> {
  return testEnv().sql('select type, payload from events where id > $1 order by id', [id]);
}

describe('flags and the review queue (contract §18)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let admin: TestUser;
  let node: number;
  let topic: number;
  let reply: number;

  beforeEach(async () => {
    [alice, bob, carol, dave] = await Promise.all(['alice', 'bob', 'carol', 'dave'].map((login) => makeUser(login)));
    admin = await makeUser('root', 'admin');
    node = await makeNode('General');
    topic = await makeTopic(alice, node, 'A fine topic', 'Nothing wrong here');
    reply = await makeReply(bob, topic, 'buy cheap pills');
  });

  describe('POST /api/v3/topics/:id/flag and /replies/:id/flag', () => {
    it('takes a reason, and a message that `other` requires, of at most 500 characters', async () => {
      for (const body of [{}, { reason: 'rude' }, { reason: 'other' }, { reason: 'other', message: '  ' }]) {
        const refused = await flag(carol, 'reply', reply, body).expect(400);
        expect(refused.body.error, JSON.stringify(body)).to.equal('ParameterInvalid');
      }
      const long = await flag(carol, 'reply', reply, { reason: 'spam', message: 'x'.repeat(501) }).expect(400);
      expect(long.body).to.deep.include({ error: 'ParameterInvalid' });
      expect(long.body.message).to.match(/message/);
      await flag(carol, 'reply', reply, { reason: 'other', message: 'x'.repeat(500) }).expect(200, { ok: 1 });
      await flag(dave, 'topic', topic, { reason: 'OFF_TOPIC' }).expect(200, { ok: 1 });
    });

    it('answers 401 without a user, 404 for what does not exist or is deleted, 400 RecordInvalid for your own post', async () => {
      await api().post(`/api/v3/replies/${reply}/flag`).send({ reason: 'spam' }).expect(401);
      await flag(carol, 'reply', 999_999).expect(404);
      await flag(carol, 'topic', 999_999).expect(404);
      const own = await flag(bob, 'reply', reply).expect(400);
      expect(own.body).to.deep.include({ error: 'RecordInvalid' });
      expect(own.body.message).to.match(/own post/);
      await flag(alice, 'topic', topic).expect(400);
      await api().delete(`/api/v3/replies/${reply}`).set(bob.auth).expect(200);
      await flag(carol, 'reply', reply).expect(404);
    });

    it('is a no-op the second time, whatever the reason', async () => {
      await flag(carol, 'reply', reply).expect(200);
      await flag(carol, 'reply', reply, { reason: 'other', message: 'again' }).expect(200, { ok: 1 });
      const [item] = await pendingItems(admin);
      expect(item!.flags).to.have.length(1);
      expect(item!.flags[0]).to.include({ reason: 'spam', message: null });
    });

    it('hides a reply flagged by three people: a deleted floor to others, as before to its author and administrators', async () => {
      const before = await lastEventId();
      await flag(carol, 'reply', reply).expect(200);
      await flag(dave, 'reply', reply, { reason: 'inappropriate' }).expect(200);
      const listed = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies;
      expect(listed[0]).to.include({ id: reply, deleted: false, body: 'buy cheap pills' });

      await flag(alice, 'reply', reply, { reason: 'other', message: 'pharmacy spam' }).expect(200);
      for (const viewer of [null, carol]) {
        const get = api().get(`/api/v3/topics/${topic}/replies`);
        const replies = (await (viewer ? get.set(viewer.auth) : get).expect(200)).body.replies;
        expect(
          replies.map((r: { id: number }) => r.id),
          'keeps its floor',
        ).to.deep.equal([reply]);
        expect(replies[0]).to.include({ deleted: true, body: '', body_html: '' });
        expect(replies[0].abilities).to.deep.equal({ update: false, destroy: false });
        await (viewer ? api().get(`/api/v3/replies/${reply}`).set(viewer.auth) : api().get(`/api/v3/replies/${reply}`)).expect(
          404,
        );
      }
      for (const viewer of [bob, admin]) {
        const replies = (await api().get(`/api/v3/topics/${topic}/replies`).set(viewer.auth).expect(200)).body.replies;
        expect(replies[0]).to.include({ deleted: false, body: 'buy cheap pills' });
        await api().get(`/api/v3/replies/${reply}`).set(viewer.auth).expect(200);
      }
      const userReplies = (await api().get('/api/v3/users/bob/replies').expect(200)).body.replies;
      expect(userReplies, 'out of the author’s list, for others').to.deep.equal([]);
      expect((await api().get('/api/v3/users/bob/replies').set(bob.auth).expect(200)).body.replies).to.have.length(1);
      // Hidden is not deleted: the counters keep it until review takes it away.
      expect((await topicRow(topic)).replies_count).to.equal(1);

      const types = (await eventsSince(before)).map((event) => event.type);
      expect(types.filter((type) => type === 'post.flagged')).to.have.length(3);
      expect(types.filter((type) => type === 'post.hidden')).to.have.length(1);

      const [item] = await pendingItems(admin);
      expect(item).to.include({ kind: 'flag', target_type: 'Reply', target_id: reply, status: 'pending', resolution: null });
      expect(item!.reply).to.include({ id: reply, body: 'buy cheap pills', deleted: false, topic_title: 'A fine topic' });
      expect(item!.user.login).to.equal('bob');
      expect(item!.flags.map((f: { user: { login: string } }) => f.user.login)).to.deep.equal(['carol', 'dave', 'alice']);
      expect(item!.flags[2]).to.include({ reason: 'other', message: 'pharmacy spam' });
    });

    it('hides a topic at once when an administrator flags it: 404 and out of every list, search and feed for others', async () => {
      const other = await makeTopic(carol, node, 'Another topic', 'something else entirely');
      await api().get('/api/v3/search?q=fine').expect(200);
      await flag(admin, 'topic', topic).expect(200);
      const shown = (viewer: TestUser | null, path: string) => (viewer ? api().get(path).set(viewer.auth) : api().get(path));
      for (const viewer of [null, carol]) {
        await shown(viewer, `/api/v3/topics/${topic}`).expect(404);
        await shown(viewer, `/api/v3/topics/${topic}/replies`).expect(404);
        for (const path of [
          '/api/v3/topics',
          `/api/v3/topics?node_id=${node}`,
          '/api/v3/topics?type=recent',
          '/api/v3/users/alice/topics',
        ]) {
          const ids = (await shown(viewer, path).expect(200)).body.topics.map((t: { id: number }) => t.id);
          expect(ids, path).to.not.include(topic);
        }
        expect((await shown(viewer, '/api/v3/topics').expect(200)).body.topics.map((t: { id: number }) => t.id)).to.include(
          other,
        );
        expect((await shown(viewer, '/api/v3/search?q=fine').expect(200)).body.results, 'search').to.deep.equal([]);
        expect((await shown(viewer, '/api/v3/search?q=pills').expect(200)).body.results, 'its replies too').to.deep.equal([]);
      }
      for (const viewer of [alice, admin]) {
        await shown(viewer, `/api/v3/topics/${topic}`).expect(200);
        const ids = (await shown(viewer, '/api/v3/topics').expect(200)).body.topics.map((t: { id: number }) => t.id);
        expect(ids).to.include(topic);
        expect((await shown(viewer, '/api/v3/search?q=fine').expect(200)).body.results).to.have.length(1);
      }
      // Others cannot act on it either, and nobody replies to it until it is reviewed.
      await api().post(`/api/v3/likes`).set(carol.auth).send({ obj_type: 'topic', obj_id: topic }).expect(404);
      await flag(carol, 'topic', topic).expect(404);
      const closed = await api().post(`/api/v3/topics/${topic}/replies`).set(alice.auth).send({ body: 'hello?' }).expect(400);
      expect(closed.body).to.deep.include({ error: 'RecordInvalid' });
      expect(closed.body.message).to.match(/review/);
    });

    it('leaves a hidden post out of the notifications of those it was about: the key is absent, as for a deleted one', async () => {
      const notifications = async (user: TestUser) =>
        (await api().get('/api/v3/notifications').set(user.auth).expect(200)).body.notifications;
      expect((await notifications(alice))[0]).to.have.property('reply');
      await flag(admin, 'reply', reply).expect(200);
      const [notification] = await notifications(alice);
      expect(notification).to.include({ type: 'TopicReply' });
      expect(notification).to.have.property('topic');
      expect(notification).to.not.have.property('reply');
    });
  });

  describe('GET /api/v3/admin/review', () => {
    it('lists pending items oldest first, resolved ones most recently resolved first; administrators only', async () => {
      const second = await makeReply(carol, topic, 'another one');
      await flag(dave, 'reply', reply).expect(200);
      await flag(alice, 'reply', reply).expect(200);
      await flag(dave, 'reply', second).expect(200);
      await flag(dave, 'topic', topic).expect(200);
      const pending = await pendingItems(admin);
      expect(pending.map((item) => [item.target_type, item.target_id])).to.deep.equal([
        ['Reply', reply],
        ['Reply', second],
        ['Topic', topic],
      ]);
      expect(
        pending.map((item) => item.id),
        'a flag that joins an item draws no id',
      ).to.deep.equal([1, 2, 3]);
      expect(pending[2]!.topic).to.include({ id: topic, body: 'Nothing wrong here', deleted: false });
      await resolve(admin, pending[1]!.id, { action: 'disagree' }).expect(200);
      await resolve(admin, pending[0]!.id, { action: 'agree', reason: 'spam' }).expect(200);
      const resolved = (await api().get('/api/v3/admin/review?status=resolved').set(admin.auth).expect(200)).body.items;
      expect(resolved.map((item: { id: number }) => item.id)).to.deep.equal([pending[0]!.id, pending[1]!.id]);
      expect(resolved[0]).to.include({ status: 'resolved', resolution: 'agree' });
      expect(resolved[0].resolved_by.login).to.equal('root');
      expect(resolved[0].reply).to.include({ id: reply, deleted: true });
      expect((await pendingItems(admin)).map((item) => item.target_id)).to.deep.equal([topic]);

      const page = (await api().get('/api/v3/admin/review?status=resolved&offset=1&limit=1').set(admin.auth).expect(200)).body
        .items;
      expect(page.map((item: { id: number }) => item.id)).to.deep.equal([pending[1]!.id]);
      await api().get('/api/v3/admin/review').set(carol.auth).expect(403);
      await api().get('/api/v3/admin/review').expect(401);
      await api().get('/api/v3/admin/review?limit=0').set(admin.auth).expect(400);
      const unknown = await api().get('/api/v3/admin/review?status=open').set(admin.auth).expect(400);
      expect(unknown.body.message).to.match(/status/);
      await api().get(`/api/v3/admin/review/${pending[2]!.id}`).set(admin.auth).expect(200);
      await api().get('/api/v3/admin/review/999999').set(admin.auth).expect(404);
      await api().get(`/api/v3/admin/review/${pending[2]!.id}`).set(carol.auth).expect(403);
    });
  });

  describe('POST /api/v3/admin/review/:id', () => {
    async function hiddenReplyItem(): Promise<number> {
      for (const user of [carol, dave, alice]) await flag(user, 'reply', reply).expect(200);
      return (await pendingItems(admin))[0]!.id;
    }

    it('agree: deletes the post (its counters follow), audited with the reason; the item cannot be resolved again', async () => {
      const item = await hiddenReplyItem();
      await resolve(admin, item, { action: 'agree', reason: 'pharmacy spam' }).expect(200, { ok: 1 });
      expect((await topicRow(topic)).replies_count).to.equal(0);
      const replies = (await api().get(`/api/v3/topics/${topic}/replies`).set(admin.auth).expect(200)).body.replies;
      expect(replies[0]).to.include({ id: reply, deleted: true });
      const again = await resolve(admin, item, { action: 'disagree' }).expect(400);
      expect(again.body).to.deep.include({ error: 'RecordInvalid' });
      expect(again.body.message).to.match(/resolved already/);
      const entries = (await api().get('/api/v3/admin/audit?action=review.agree').set(admin.auth).expect(200)).body.entries;
      expect(entries).to.have.length(1);
      expect(entries[0]).to.include({ target_type: 'Reply', target_id: reply, reason: 'pharmacy spam' });
      expect(entries[0].changes.resolution).to.deep.equal([null, 'agree']);
      expect(entries[0].actor.login).to.equal('root');
    });

    it('agree with silence_days: the author is silenced too, and may no longer post (403 saying until when)', async () => {
      const item = await hiddenReplyItem();
      await resolve(admin, item, { action: 'agree', silence_days: 2 }).expect(200);
      const refused = await api().post(`/api/v3/topics/${topic}/replies`).set(bob.auth).send({ body: 'let me in' }).expect(403);
      expect(refused.body).to.deep.include({ error: 'AccessDenied' });
      expect(refused.body.message).to.match(/silenced until \d{4}-\d\d-\d\dT/);
      // Silenced, not blocked: reading and liking go on.
      await api().post('/api/v3/likes').set(bob.auth).send({ obj_type: 'topic', obj_id: topic }).expect(200);
      const audited = (await api().get('/api/v3/admin/audit?action=user.silence').set(admin.auth).expect(200)).body.entries;
      expect(audited).to.have.length(1);
      expect(audited[0]).to.include({ target_type: 'User', target_id: bob.id });
    });

    it('disagree: shows the post again; its flags count no more, and those who flagged it cannot flag it again', async () => {
      const item = await hiddenReplyItem();
      await resolve(admin, item, { action: 'disagree' }).expect(200);
      const replies = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies;
      expect(replies[0]).to.include({ deleted: false, body: 'buy cheap pills' });
      await flag(carol, 'reply', reply).expect(200);
      expect(await pendingItems(admin)).to.deep.equal([]);
      const eve = await makeUser('eve');
      await flag(eve, 'reply', reply).expect(200);
      const [fresh] = await pendingItems(admin);
      expect(fresh!.id).to.not.equal(item);
      expect(fresh!.flags.map((f: { user: { login: string } }) => f.user.login)).to.deep.equal(['eve']);
      expect((await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies[0].deleted).to.equal(false);
    });

    it('refuses an action meant for the other kind of item, a member, and an unknown item', async () => {
      const item = await hiddenReplyItem();
      for (const action of ['approve', 'reject']) {
        const refused = await resolve(admin, item, { action }).expect(400);
        expect(refused.body).to.deep.include({ error: 'RecordInvalid' });
        expect(refused.body.message).to.match(/agree, disagree, spammer/);
      }
      const silence = await resolve(admin, item, { action: 'disagree', silence_days: 1 }).expect(400);
      expect(silence.body.error).to.equal('RecordInvalid');
      await resolve(admin, item, { action: 'nothing' }).expect(400);
      await resolve(carol, item, { action: 'agree' }).expect(403);
      await resolve(admin, 999_999, { action: 'agree' }).expect(404);
      expect((await pendingItems(admin))[0]!.status).to.equal('pending');
    });

    it('spammer: deletes every topic and reply of the author and nothing of anyone else; blocks the account and ends its tokens', async () => {
      const spamTopic = await makeTopic(bob, node, 'Cheap pills', 'buy now');
      const carolsAnswer = await makeReply(carol, spamTopic, 'this is spam');
      const bobsOther = await makeReply(bob, topic, 'more pills');
      const carolsReply = await makeReply(carol, topic, 'a real answer');
      await flag(dave, 'topic', spamTopic).expect(200);
      const item = await hiddenReplyItem();
      await resolve(admin, item, { action: 'spammer', reason: 'pills' }).expect(200);

      await api().get(`/api/v3/topics/${spamTopic}`).set(admin.auth).expect(404);
      const replies = (await api().get(`/api/v3/topics/${topic}/replies`).set(admin.auth).expect(200)).body.replies;
      const byId = new Map(replies.map((r: { id: number; deleted: boolean }) => [r.id, r.deleted]));
      expect(byId.get(reply)).to.equal(true);
      expect(byId.get(bobsOther)).to.equal(true);
      expect(byId.get(carolsReply), 'nothing of anyone else').to.equal(false);
      const [carolsRow] = await testEnv().sql<{ deleted_at: Date | null }>('select deleted_at from replies where id = $1', [
        carolsAnswer,
      ]);
      expect(carolsRow!.deleted_at, 'a reply in the spammer’s topic is not deleted').to.equal(null);
      expect((await api().get(`/api/v3/topics/${topic}`).expect(200)).body.topic.replies_count).to.equal(1);
      expect((await api().get('/api/v3/users/bob').expect(200)).body.user).to.include({
        level: 'blocked',
        topics_count: 0,
        replies_count: 0,
      });
      expect((await api().get('/api/v3/users/carol').expect(200)).body.user).to.include({ replies_count: 2 });
      await api().get('/api/v3/users/me').set(bob.auth).expect(401);

      const resolved = (await api().get('/api/v3/admin/review?status=resolved').set(admin.auth).expect(200)).body.items;
      expect(resolved.map((i: { resolution: string }) => i.resolution)).to.deep.equal(['spammer', 'spammer']);
      expect(await pendingItems(admin)).to.deep.equal([]);
      const entries = (await api().get('/api/v3/admin/audit?action=review.spammer').set(admin.auth).expect(200)).body.entries;
      expect(entries).to.have.length(1);
      expect(entries[0].changes.role).to.deep.equal(['member', 'blocked']);
      expect(entries[0].changes.deleted[1]).to.deep.equal({ topics: 1, replies: 2 });
    });

    it('refuses to call an administrator a spammer', async () => {
      const adminsReply = await makeReply(admin, topic, 'official answer');
      await flag(carol, 'reply', adminsReply).expect(200);
      const [item] = await pendingItems(admin);
      const refused = await resolve(admin, item!.id, { action: 'spammer' }).expect(400);
      expect(refused.body.error).to.equal('RecordInvalid');
      expect((await api().get(`/api/v3/replies/${adminsReply}`).expect(200)).body.reply.deleted).to.equal(false);
    });

    it('closes the pending item of a post deleted outside the queue, as deleted, by whoever deleted it', async () => {
      await flag(carol, 'reply', reply).expect(200);
      await api().delete(`/api/v3/replies/${reply}`).set(bob.auth).expect(200);
      expect(await pendingItems(admin)).to.deep.equal([]);
      const [item] = (await api().get('/api/v3/admin/review?status=resolved').set(admin.auth).expect(200)).body.items;
      expect(item).to.include({ resolution: 'deleted' });
      expect(item.resolved_by.login).to.equal('bob');

      // A topic's deletion closes the items of its replies too.
      const other = await makeReply(bob, topic, 'second');
      await flag(carol, 'reply', other).expect(200);
      await api().delete(`/api/v3/topics/${topic}`).set(admin.auth).expect(200);
      expect(await pendingItems(admin)).to.deep.equal([]);
    });
  });

  describe('what else hears of it', () => {
    it('sends post.flagged and review.resolved to webhooks, with the item as the queue shows it', async () => {
      await testEnv().sql(`insert into webhooks (url, events, secret) values ('http://127.0.0.1:9/hook', $1, 'a secret!')`, [
        ['post.flagged', 'review.resolved'],
      ]);
      await flag(carol, 'reply', reply, { reason: 'other', message: 'pills' }).expect(200);
      const [item] = await pendingItems(admin);
      await resolve(admin, item!.id, { action: 'disagree' }).expect(200);
      const deliveries = await testEnv().sql<{ event: string; payload: Record<string, unknown> }>(
        'select event, payload from webhook_deliveries order by created_at, event',
      );
      expect(deliveries.map((d) => d.event)).to.deep.equal(['post.flagged', 'review.resolved']);
      const subjects = testEnv().container.get<WebhookSubjects>(WebhookSubjects);
      const flagged = (await subjects.view('post.flagged', deliveries[0]!.payload)) as Record<string, any>;
      expect(flagged).to.include({ id: item!.id, kind: 'flag', target_type: 'Reply', target_id: reply });
      expect(flagged.flags[0]).to.include({ reason: 'other', message: 'pills' });
      const resolved = (await subjects.view('review.resolved', deliveries[1]!.payload)) as Record<string, any>;
      expect(resolved).to.include({ status: 'resolved', resolution: 'disagree' });
    });

    it('shows a hidden post to webhooks as someone signed out sees it: deleted, no text', async () => {
      await flag(admin, 'topic', topic).expect(200);
      const subjects = testEnv().container.get<WebhookSubjects>(WebhookSubjects);
      const view = (await subjects.view('topic.updated', { topicId: topic })) as Record<string, unknown>;
      expect(view).to.include({ id: topic, deleted: true, body: '', body_html: '' });
    });

    it('mails nothing of a hidden post: a notification mail still due finds no reply, a digest no topic', async () => {
      const facts = testEnv().container.get<MailFacts>(MailFacts);
      const notices = async () => (await facts.noticesOf(alice.id, topic, ['TopicReply', 'Mention']))?.notices ?? [];
      expect((await notices()).map((n) => n.replyId)).to.deep.equal([reply]);
      const since = new Date(Date.now() - 3_600_000);
      expect((await facts.digestTopics(carol.id, since, 10)).map((t) => t.id)).to.deep.equal([topic]);

      await flag(admin, 'reply', reply).expect(200);
      expect(await notices(), 'the reply hidden before its mail went').to.deep.equal([]);
      await flag(admin, 'topic', topic).expect(200);
      expect(await facts.digestTopics(carol.id, since, 10)).to.deep.equal([]);
      expect(await facts.noticesOf(alice.id, topic, ['TopicReply'])).to.equal(null);
    });

    it('counts pending items in /metrics', async () => {
      const collector = new ServiceMetrics({
        pendingReviews: () => testEnv().container.get<ReviewStore>(ReviewStore).countPending(),
      });
      const metrics = supertest(createApp({ ...appDependencies(), metrics: { collector } }).callback());
      const count = async () => /^forum_review_pending_items (\d+)$/m.exec((await metrics.get('/metrics').expect(200)).text)?.[1];
      expect(await count()).to.equal('0');
      await flag(carol, 'reply', reply).expect(200);
      await flag(carol, 'topic', topic).expect(200);
      expect(await count()).to.equal('2');
    });
  });

  describe('across server processes', () => {
    let other: ServerProcess | null = null;
    afterEach(async () => {
      await other?.terminate();
      other = null;
    });

    it('takes a topic hidden by its flags off the cached front page of another process within a second', async function () {
      this.timeout(30_000);
      other = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
      const front = async () =>
        ((await supertest(other!.url).get('/api/v3/topics').expect(200)).body.topics as { id: number }[]).map((t) => t.id);
      expect(await front()).to.include(topic);
      expect(await front(), 'served from its cache now').to.include(topic);

      await flag(carol, 'topic', topic).expect(200);
      await flag(dave, 'topic', topic).expect(200);
      expect(await front(), 'two flags hide nothing').to.include(topic);
      await flag(bob, 'topic', topic).expect(200);
      const hidden = Date.now();
      for (;;) {
        if (!(await front()).includes(topic)) break;
        expect(Date.now() - hidden, 'still on the front page after a second').to.be.below(1_000);
        await new Promise((done) => setTimeout(done, 20));
      }
    });
  });
});

import { expect } from 'chai';
import supertest from 'supertest';
import type { Config } from '../../src/config.js';
import { DisciplineUser } from '../../src/application/users/discipline.js';
import { Recount } from '../../src/application/maintenance/maintenance.js';
import { CreateApp } from '../../src/application/oauth/clients.js';
import { api, makeNode, makeTopic, makeUser, topicRow, type TestUser } from '../support/builders.js';
import { configuredWith, testEnv } from '../support/env.js';
import { MovableClock } from '../support/fakes.js';

/**
 * Contract §18 for new members: holds (a post that is not yet public sets off nothing, then everything once
 * approved), the limits of a new account's first day, and silence and suspension that end by themselves. Each
 * test builds the service with its settings and a clock it moves, as a server process with those settings would be.
 */

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A member who signed up through §16b, `hoursAgo` hours ago (the builders make trusted accounts). */
async function newcomer(login: string, hoursAgo = 1): Promise<TestUser> {
  const user = await makeUser(login);
  await testEnv().sql(`update users set self_registered = true, created_at = now() - make_interval(hours => $2) where id = $1`, [
    user.id,
    hoursAgo,
  ]);
  return user;
}

function service(review: Partial<Config['review']>, clock = new MovableClock()) {
  const { container, app } = configuredWith({ review: { ...testEnv().config.review, ...review } }, { clock });
  return { http: supertest(app.callback()), container, clock };
}

async function lastEventId(): Promise<number> {
  const [row] = await testEnv().sql<{ id: string | null }>('select max(id) as id from events');
  return Number(row!.id ?? 0);
}

const count = async (sql: string, params: unknown[] = []) =>
  Number((await testEnv().sql<{ n: string }>(`select count(*) as n from (${sql}) x`, params))[0]!.n);

describe('holds, new accounts, silence and suspension (contract §18)', () => {
  let alice: TestUser;
  let dave: TestUser;
  let admin: TestUser;
  let node: number;
  let topic: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    dave = await makeUser('dave');
    admin = await makeUser('root', 'admin');
    node = await makeNode('General');
    topic = await makeTopic(alice, node, 'Welcome', 'Say hello');
  });

  describe('holds (HOLD_FIRST_POSTS)', () => {
    it('a held reply sets off nothing; approved an hour later it notifies then, counts then, and is found then', async () => {
      const { http, clock } = service({ holdFirstPosts: 1 });
      const newbie = await newcomer('newbie');
      await testEnv().sql(`insert into webhooks (url, events, secret) values ('http://127.0.0.1:9/hook', '{*}', 'a secret!')`);
      const before = await lastEventId();
      const created = await http
        .post(`/api/v3/topics/${topic}/replies`)
        .set(newbie.auth)
        .send({ body: 'hello @dave, zanzibar' })
        .expect(200);
      const reply = created.body.reply.id as number;
      expect(created.body.reply).to.include({ body: 'hello @dave, zanzibar', deleted: false });

      // Seen by its author and administrators only; a deleted floor to everyone else.
      const floor = async (viewer: TestUser | null) =>
        (
          await (
            viewer ? api().get(`/api/v3/topics/${topic}/replies`).set(viewer.auth) : api().get(`/api/v3/topics/${topic}/replies`)
          ).expect(200)
        ).body.replies[0];
      expect(await floor(null)).to.include({ id: reply, deleted: true, body: '' });
      expect(await floor(dave)).to.include({ deleted: true });
      expect(await floor(newbie)).to.include({ deleted: false, body: 'hello @dave, zanzibar' });
      expect(await floor(admin)).to.include({ deleted: false });
      await api().get(`/api/v3/replies/${reply}`).expect(404);

      // Nothing happened: no notification, counter, search entry, mail, webhook or live event.
      expect(await count('select 1 from notifications')).to.equal(0);
      expect(await topicRow(topic)).to.include({ replies_count: 0, last_reply_id: null, replied_at: null });
      expect((await api().get('/api/v3/users/newbie').expect(200)).body.user.replies_count).to.equal(0);
      expect(await count('select 1 from search_documents where reply_id = $1', [reply])).to.equal(0);
      expect((await api().get('/api/v3/search?q=zanzibar').set(admin.auth).expect(200)).body.results).to.deep.equal([]);
      expect(await count('select 1 from notification_mail_queue')).to.equal(0);
      expect(await count('select 1 from webhook_deliveries')).to.equal(0);
      const held = await testEnv().sql<{ type: string }>('select type from events where id > $1 order by id', [before]);
      expect(held.map((e) => e.type)).to.deep.equal(['post.held']);
      const [item] = (await api().get('/api/v3/admin/review').set(admin.auth).expect(200)).body.items;
      expect(item).to.include({ kind: 'hold', target_type: 'Reply', target_id: reply, status: 'pending' });
      expect(item.flags).to.deep.equal([]);
      const recount = () => testEnv().scope(() => testEnv().container.get(Recount).execute());
      expect(await recount(), 'a held reply is counted nowhere').to.deep.include({ topics: 0, users: 0, activity: 0 });

      // An hour later, an administrator approves it: everything happens as if it were posted at that moment.
      clock.advance(HOUR);
      const approvedAt = clock.now();
      await http.post(`/api/v3/admin/review/${item.id}`).set(admin.auth).send({ action: 'approve' }).expect(200);
      const notified = await testEnv().sql<{ user_id: number; type: string; created_at: Date }>(
        'select user_id, type, created_at from notifications order by user_id',
      );
      expect(notified.map((n) => [n.user_id, n.type])).to.deep.equal([
        [alice.id, 'TopicReply'],
        [dave.id, 'Mention'],
      ]);
      const row = await topicRow(topic);
      expect(row).to.include({ replies_count: 1, last_reply_id: reply, last_reply_user_id: newbie.id });
      expect(Math.abs((row.replied_at as Date).getTime() - approvedAt.getTime())).to.be.below(1_000);
      expect((await api().get('/api/v3/users/newbie').expect(200)).body.user.replies_count).to.equal(1);
      expect((await api().get('/api/v3/search?q=zanzibar').expect(200)).body.results).to.have.length(1);
      expect(await count('select 1 from notification_mail_queue')).to.equal(2);
      const delivered = await testEnv().sql<{ event: string }>('select event from webhook_deliveries order by event');
      expect(delivered.map((d) => d.event)).to.include('reply.created');
      const shown = (await api().get(`/api/v3/replies/${reply}`).expect(200)).body.reply;
      expect(Math.abs(Date.parse(shown.created_at) - approvedAt.getTime())).to.be.below(1_000);
      const after = await testEnv().sql<{ type: string }>('select type from events where id > $1 order by id', [before]);
      expect(after.map((e) => e.type)).to.include.members(['reply.created', 'notification.created', 'review.resolved']);
      expect(await recount(), 'and counted right once approved').to.deep.include({ topics: 0, users: 0, activity: 0 });
    });

    it('holds a topic: 404 to others, out of lists and counts; approved, it leads the front page as a new topic', async () => {
      const { http, clock } = service({ holdFirstPosts: 2 });
      const newbie = await newcomer('newbie', 48);
      const id = (
        await http.post('/api/v3/topics').set(newbie.auth).send({ title: 'My first', body: 'hi', node_id: node }).expect(200)
      ).body.topic.id as number;
      await api().get(`/api/v3/topics/${id}`).expect(404);
      await api().get(`/api/v3/topics/${id}`).set(dave.auth).expect(404);
      await api().get(`/api/v3/topics/${id}`).set(newbie.auth).expect(200);
      expect((await api().get('/api/v3/topics').expect(200)).body.topics.map((t: { id: number }) => t.id)).to.deep.equal([topic]);
      expect((await api().get(`/api/v3/nodes/${node}`).expect(200)).body.node.topics_count).to.equal(1);
      // A held topic waits: its author may edit it, nobody replies to it, no moderation acts on it first.
      await http
        .put(`/api/v3/topics/${id}`)
        .set(newbie.auth)
        .send({ title: 'My first topic', body: 'hi all', node_id: node })
        .expect(200);
      await http.post(`/api/v3/topics/${id}/replies`).set(newbie.auth).send({ body: 'bump' }).expect(400);
      const refused = await api().post(`/api/v3/topics/${id}/action?type=excellent`).set(admin.auth).expect(400);
      expect(refused.body.message).to.match(/waiting for approval/);

      clock.advance(HOUR);
      const [item] = (await api().get('/api/v3/admin/review').set(admin.auth).expect(200)).body.items;
      await http.post(`/api/v3/admin/review/${item.id}`).set(admin.auth).send({ action: 'approve' }).expect(200);
      const front = (await api().get('/api/v3/topics').expect(200)).body.topics;
      expect(front.map((t: { id: number }) => t.id)).to.deep.equal([id, topic]);
      expect(front[0].title).to.equal('My first topic');
      expect((await api().get(`/api/v3/nodes/${node}`).expect(200)).body.node.topics_count).to.equal(2);
      expect((await api().get('/api/v3/users/newbie').expect(200)).body.user.topics_count).to.equal(1);
      expect((await api().get('/api/v3/search?q=first').expect(200)).body.results).to.have.length(1);
    });

    it('holds the first N posts, topics and replies counted together, until N were published; trusted and administrators never', async () => {
      const { http } = service({ holdFirstPosts: 2 });
      const newbie = await newcomer('newbie', 72);
      const post = async (user: TestUser, body: string) =>
        (await http.post(`/api/v3/topics/${topic}/replies`).set(user.auth).send({ body }).expect(200)).body.reply.id as number;
      const approve = async () => {
        const [item] = (await api().get('/api/v3/admin/review').set(admin.auth).expect(200)).body.items;
        await http.post(`/api/v3/admin/review/${item.id}`).set(admin.auth).send({ action: 'approve' }).expect(200);
      };
      const visibility = async (id: number) =>
        (await testEnv().sql<{ visibility: string }>('select visibility from replies where id = $1', [id]))[0]!.visibility;
      const first = await post(newbie, 'one');
      const second = await post(newbie, 'two');
      expect([await visibility(first), await visibility(second)]).to.deep.equal(['held', 'held']);
      await approve();
      const third = await post(newbie, 'three');
      expect(await visibility(third), 'one of two published: still held').to.equal('held');
      await approve();
      await approve();
      expect(await visibility(await post(newbie, 'four'))).to.equal('public');
      expect(await visibility(await post(dave, 'trusted'))).to.equal('public');
      const selfRegisteredAdmin = await newcomer('boss');
      await testEnv().sql(`update users set role = 'admin' where id = $1`, [selfRegisteredAdmin.id]);
      expect(await visibility(await post({ ...selfRegisteredAdmin, role: 'admin' }, 'admin'))).to.equal('public');
    });

    it('reject deletes a held post, and a held post its author deletes is withdrawn: neither ever counted nor told anyone', async () => {
      const { http } = service({ holdFirstPosts: 3 });
      const newbie = await newcomer('newbie');
      await testEnv().sql(`insert into webhooks (url, events, secret) values ('http://127.0.0.1:9/hook', '{*}', 'a secret!')`);
      const first = (await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body: 'one' }).expect(200)).body
        .reply.id;
      const second = (await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body: 'two' }).expect(200)).body
        .reply.id;
      const [item] = (await api().get('/api/v3/admin/review').set(admin.auth).expect(200)).body.items;
      expect(item.target_id).to.equal(first);
      await http.post(`/api/v3/admin/review/${item.id}`).set(admin.auth).send({ action: 'reject', reason: 'junk' }).expect(200);
      await http.delete(`/api/v3/replies/${second}`).set(newbie.auth).expect(200);

      expect(await topicRow(topic)).to.include({ replies_count: 0 });
      expect((await api().get('/api/v3/users/newbie').expect(200)).body.user.replies_count).to.equal(0);
      expect(await count('select 1 from user_reply_months where replies <> 0')).to.equal(0);
      const deliveries = await testEnv().sql<{ event: string }>('select event from webhook_deliveries');
      expect(
        deliveries.map((d) => d.event),
        'only the review itself',
      ).to.deep.equal(['review.resolved']);
      const resolved = (await api().get('/api/v3/admin/review?status=resolved').set(admin.auth).expect(200)).body.items;
      expect(resolved.map((i: { resolution: string; target_id: number }) => [i.target_id, i.resolution])).to.deep.equal([
        [second, 'deleted'],
        [first, 'reject'],
      ]);
      const approve = await http.post(`/api/v3/admin/review/${item.id}`).set(admin.auth).send({ action: 'approve' }).expect(400);
      expect(approve.body.error).to.equal('RecordInvalid');
      // The recount agrees: nothing held or rejected counts, so it has nothing to correct.
      const corrected = await testEnv().scope(() => testEnv().container.get(Recount).execute());
      expect(corrected).to.deep.equal({ topics: 0, replies: 0, nodes: 0, users: 0, activity: 0, unread: 0 });
    });
  });

  describe('new accounts (their first day)', () => {
    it('may open NEW_USER_TOPICS_PER_DAY topics, then 429 with Retry-After until their first day is over', async () => {
      const { http } = service({ topicsPerDay: 2 });
      const newbie = await newcomer('newbie', 3);
      const open = (user: TestUser, title: string) =>
        http
          .post('/api/v3/topics')
          .set(user.auth)
          .send({ title, body: `about ${title}`, node_id: node });
      await open(newbie, 'one').expect(200);
      await open(newbie, 'two').expect(200);
      const refused = await open(newbie, 'three').expect(429);
      expect(refused.body).to.deep.include({ error: 'TooManyRequests' });
      expect(refused.body.message).to.match(/2 topics in their first 24 hours/);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(retryAfter).to.be.within(21 * 3600 - 60, 21 * 3600 + 60);
      // Replies have their own allowance; a day-old account, a trusted one and an administrator are not limited.
      await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body: 'a reply' }).expect(200);
      const older = await newcomer('older', 25);
      for (const title of ['a', 'b', 'c']) await open(older, title).expect(200);
      for (const title of ['d', 'e', 'f']) await open(dave, title).expect(200);
    });

    it('may post NEW_USER_REPLIES_PER_DAY replies', async () => {
      const { http } = service({ repliesPerDay: 2 });
      const newbie = await newcomer('newbie');
      for (const body of ['one', 'two'])
        await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body }).expect(200);
      const refused = await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body: 'three' }).expect(429);
      expect(refused.body.message).to.match(/2 replies/);
      expect(refused.headers['retry-after']).to.match(/^\d+$/);
    });

    it('may put at most 2 links to elsewhere in a post, edits included; mentions and relative links are no such links', async () => {
      const { http } = service({});
      const newbie = await newcomer('newbie');
      const three = 'see https://a.example, https://b.example and http://c.example';
      const refused = await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body: three }).expect(400);
      expect(refused.body).to.deep.include({ error: 'RecordInvalid' });
      expect(refused.body.message).to.match(/3 links/);
      const two = 'see https://a.example and [b](https://b.example), @dave, [here](/topics/1)';
      const reply = (await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body: two }).expect(200)).body
        .reply.id;
      await http.put(`/api/v3/replies/${reply}`).set(newbie.auth).send({ body: three }).expect(400);
      await http.post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: three }).expect(200);
    });

    it('may not post the same body again within 24 hours in another topic (in the same topic it may)', async () => {
      const { http } = service({});
      const newbie = await newcomer('newbie');
      const other = await makeTopic(alice, node, 'Another', 'more');
      const body = 'Great post, visit my profile!';
      await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body }).expect(200);
      await http.post(`/api/v3/topics/${topic}/replies`).set(newbie.auth).send({ body }).expect(200);
      const refused = await http.post(`/api/v3/topics/${other}/replies`).set(newbie.auth).send({ body }).expect(400);
      expect(refused.body.message).to.match(/already posted in another topic/);
      await http.post('/api/v3/topics').set(newbie.auth).send({ title: 'Same again', body, node_id: node }).expect(400);
      await http.post(`/api/v3/topics/${other}/replies`).set(dave.auth).send({ body }).expect(200);
      await http.post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body }).expect(200);
    });
  });

  describe('silence and suspension', () => {
    it('a silence of one day ends by itself: no posting meanwhile (403), reading and liking go on', async () => {
      const { http, container, clock } = service({});
      // The token outlives the days the clock is moved by.
      await testEnv().sql(`update oauth_tokens set expires_at = now() + interval '30 days' where user_id = $1`, [dave.id]);
      await testEnv().scope(() => container.get(DisciplineUser).execute(admin, 'dave', { act: 'silence', days: '1' }));
      const refused = await http.post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'hi' }).expect(403);
      expect(refused.body.message).to.match(/silenced until/);
      await http.post('/api/v3/topics').set(dave.auth).send({ title: 't', body: 'b', node_id: node }).expect(403);
      await http.post('/api/v3/likes').set(dave.auth).send({ obj_type: 'topic', obj_id: topic }).expect(200);
      await http.get(`/api/v3/topics/${topic}`).set(dave.auth).expect(200);

      clock.advance(DAY - 60_000);
      await http.post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'hi' }).expect(403);
      clock.advance(61_000);
      await http.post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'hi' }).expect(200);
      // Nothing ran to lift it: the end was stored, and every process compares it with its time.
      const [row] = await testEnv().sql<{ silenced_until: Date }>('select silenced_until from users where id = $1', [dave.id]);
      expect(row!.silenced_until).to.be.an.instanceOf(Date);
    });

    it('a suspension ends every token at once and refuses the password grant until it ends by itself', async () => {
      const { http, container, clock } = service({});
      const { createUser } = testEnv().useCases;
      await testEnv().scope(() => createUser.execute({ login: 'erin', email: 'erin@example.com', password: 'a long password' }));
      const client = await testEnv().scope(() => testEnv().container.get(CreateApp).execute(admin, { name: 'Phone app' }));
      const credentials = { client_id: client.app.clientId, client_secret: client.clientSecret! };
      const grant = () =>
        http
          .post('/oauth/token')
          .type('form')
          .send({ grant_type: 'password', username: 'erin', password: 'a long password', ...credentials });
      const { access_token: token } = (await grant().expect(200)).body;
      await testEnv().scope(() =>
        container.get(DisciplineUser).execute(admin, 'erin', { act: 'suspend', days: '2', reason: 'cooling off' }),
      );
      await http.get('/api/v3/users/me').set('Authorization', `Bearer ${token}`).expect(401);
      const refused = await grant().expect(400);
      expect(refused.body.error).to.equal('invalid_grant');
      expect(refused.body.error_description).to.match(/suspended until \d{4}-/);

      clock.advance(2 * DAY + 1_000);
      await grant().expect(200);
      const entries = (await api().get('/api/v3/admin/audit?action=user.suspend').set(admin.auth).expect(200)).body.entries;
      expect(entries[0]).to.include({ target_type: 'User', reason: 'cooling off' });
    });

    it('lifts either early; refuses administrators, the system user and a missing number of days', async () => {
      const { http, container } = service({});
      const discipline = container.get(DisciplineUser);
      const act = (login: string, raw: Record<string, unknown>) =>
        testEnv().scope(() => discipline.execute(admin, login, raw as never));
      await act('dave', { act: 'silence', days: 30 });
      await act('dave', { act: 'unsilence' });
      await http.post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'back' }).expect(200);
      let nothingToLift: unknown = null;
      await act('dave', { act: 'unsilence' }).catch((error: unknown) => (nothingToLift = error));
      expect(nothingToLift)
        .to.have.property('message')
        .that.matches(/dave is not silenced/);
      const lifted = (await api().get('/api/v3/admin/audit?action=user.unsilence').set(admin.auth).expect(200)).body.entries;
      expect(lifted, 'one lift, one entry').to.have.length(1);
      for (const [login, raw] of [
        ['root', { act: 'silence', days: 1 }],
        ['system', { act: 'suspend', days: 1 }],
        ['dave', { act: 'silence' }],
        ['dave', { act: 'suspend', days: 0 }],
      ] as const) {
        let failed: unknown = null;
        await act(login, raw).catch((error: unknown) => (failed = error));
        expect(failed, `${login} ${JSON.stringify(raw)}`)
          .to.have.property('code')
          .that.is.oneOf(['RuleViolated', 'InvalidInput']);
      }
      let denied: unknown = null;
      await testEnv()
        .scope(() => discipline.execute(dave, 'alice', { act: 'silence', days: 1 }))
        .catch((error: unknown) => (denied = error));
      expect(denied).to.have.property('code', 'Forbidden');
    });
  });
});

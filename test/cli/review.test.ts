import { expect } from 'chai';
import type Koa from 'koa';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { configuredWith, testEnv } from '../support/env.js';
import { checkedApi } from '../support/openapi.js';

/** Contract §18 from the terminal: forumctl review, and users silence|suspend. */

type PostType = 'topics' | 'replies';

/** A user flags a post over HTTP. */
async function flag(user: TestUser, type: PostType, id: number, reason = 'spam', message?: string): Promise<void> {
  await api()
    .post(`/api/v3/${type}/${id}/flag`)
    .set(user.auth)
    .send({ reason, ...(message ? { message } : {}) })
    .expect(200);
}

/** The review item of a post (its latest), by its target. */
async function itemOf(type: 'Topic' | 'Reply', id: number): Promise<number> {
  const [row] = await testEnv().sql<{ id: number }>(
    'select id from review_items where target_type = $1 and target_id = $2 order by id desc limit 1',
    [type, id],
  );
  if (!row) throw new Error(`no review item for ${type} ${id}`);
  return row.id;
}

async function itemRow(id: number) {
  const [row] = await testEnv().sql<{ status: string; resolution: string | null }>(
    'select status, resolution from review_items where id = $1',
    [id],
  );
  return row!;
}

async function deletedAt(table: 'topics' | 'replies', id: number): Promise<Date | null> {
  const [row] = await testEnv().sql<{ deleted_at: Date | null }>(`select deleted_at from ${table} where id = $1`, [id]);
  return row!.deleted_at;
}

/** A member who signed up themself (§16b): their first posts are held where holds are on. */
async function selfRegistered(login: string): Promise<TestUser> {
  const user = await makeUser(login);
  await testEnv().sql('update users set self_registered = true where id = $1', [user.id]);
  return user;
}

/** The app of a server process with HOLD_FIRST_POSTS=1. */
function holdingApp(): Koa {
  return configuredWith({ review: { ...testEnv().config.review, holdFirstPosts: 1 } }).app;
}

/** A reply that waits for approval, posted over HTTP through a holding server; returns its id. */
async function heldReply(author: TestUser, topicId: number, body = 'my first reply'): Promise<number> {
  const res = await checkedApi(holdingApp())
    .post(`/api/v3/topics/${topicId}/replies`)
    .set(author.auth)
    .send({ body })
    .expect(200);
  return res.body.reply.id as number;
}

async function repliesCount(topicId: number): Promise<number> {
  return (await api().get(`/api/v3/topics/${topicId}`).expect(200)).body.topic.replies_count as number;
}

const rowsOf = (stdout: string) => (stdout === '' ? [] : stdout.split('\n').map((line) => line.split('\t')));
const DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d$/;

interface ItemJson {
  id: number;
  kind: string;
  target_type: string;
  target_id: number;
  status: string;
  resolution: string | null;
  user: { login: string };
  flags: { user: { login: string }; reason: string; message: string | null }[];
  resolved_by: { login: string } | null;
  reply?: { id: number; body?: string; deleted: boolean };
  topic?: { id: number; title: string; deleted: boolean };
}

describe('forumctl review', () => {
  describe('review list', () => {
    it('prints one tab-separated line per pending item on a pipe, no header, oldest first', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const carol = await makeUser('carol');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'How to profile Ruby', 'Use stackprof.');
      const reply = await makeReply(alice, topic, 'Buy cheap\npills here');
      await flag(bob, 'replies', reply, 'spam');
      await flag(carol, 'replies', reply, 'spam');
      await flag(bob, 'topics', topic, 'off_topic');
      const onReply = await itemOf('Reply', reply);
      const onTopic = await itemOf('Topic', topic);
      expect(onTopic).to.be.above(onReply);
      // The topic's item is the older one: the queue goes by age, not by id.
      await testEnv().sql("update review_items set created_at = created_at - interval '1 hour' where id = $1", [onTopic]);

      const piped = await forumctl(['review', 'list'], { stdoutTerminal: false });
      expect(piped.code, piped.stderr).to.equal(0);
      expect(piped.stderr).to.equal('');
      const rows = rowsOf(piped.stdout);
      expect(rows).to.have.length(2);
      expect(rows.map((row) => row.length)).to.deep.equal([7, 7]);
      expect(rows.map((row) => row[0])).to.deep.equal([String(onTopic), String(onReply)]);
      expect(rows[0]!.slice(1, 5)).to.deep.equal(['flag', `topic ${topic} "How to profile Ruby"`, 'alice', '1: off_topic']);
      expect(rows[0]![6]).to.equal('Use stackprof.');
      expect(rows[1]!.slice(1, 5)).to.deep.equal([
        'flag',
        `reply ${reply} in topic ${topic} "How to profile Ruby"`,
        'alice',
        '2: spam ×2',
      ]);
      expect(rows[1]![5]).to.match(DATE);
      // A line break in the body would break the line: it is a space.
      expect(rows[1]![6]).to.equal('Buy cheap pills here');
    });

    it('on a terminal, names the columns under one rule and cuts long titles and bodies with "…", wide characters counted', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const node = await makeNode('Ruby');
      const long = await makeTopic(
        alice,
        node,
        'How do I profile a slow Ruby on Rails application in production?',
        'x '.repeat(80),
      );
      const chinese = await makeTopic(
        alice,
        node,
        '如何在生产环境中优化数据库查询性能',
        '我们的应用在高峰期数据库查询非常慢，尝试过添加索引但效果不明显。',
      );
      const reply = await makeReply(bob, long, '我觉得你应该先看看慢查询日志，然后再用 EXPLAIN ANALYZE 分析一下执行计划。');
      await flag(bob, 'topics', long);
      await flag(bob, 'topics', chinese);
      await flag(alice, 'replies', reply);
      const shown = await forumctl(['review', 'list']);
      const lines = shown.stdout.split('\n');
      expect(lines).to.have.length(5);
      expect(lines[0]).to.match(/^id\s+kind\s+post\s+author\s+flags\s+since\s+text$/);
      expect(lines[1]).to.match(/^[─ ]+$/);
      // The title is cut inside its quotes, so that the column shows where it ends.
      expect(lines[2]).to.contain(`topic ${long} "How do I profile a slow Ruby on R…"  alice`);
      expect(lines[3]).to.contain(`topic ${chinese} "如何在生产环境中优化数据库查询性能"  alice`);
      expect(lines[4]).to.contain(`reply ${reply} in topic ${long} "How do I profile a slo…"`);
      expect(lines[4]).to.match(/…$/);
      // Every column starts at the same terminal column on every line, Chinese characters being two wide.
      const columnsOf = (line: string) => {
        const starts: number[] = [];
        let at = 0;
        let gap = 0;
        for (const char of line) {
          if (char === ' ') gap++;
          else {
            if (gap >= 2 || at === 0) starts.push(at);
            gap = 0;
          }
          at += /[\u2e80-\ua4cf\uff00-\uff60]/.test(char) ? 2 : 1;
        }
        return starts.slice(0, 6);
      };
      for (const line of lines.slice(2)) expect(columnsOf(line), line).to.deep.equal(columnsOf(lines[0]!));
    });

    it('prints the items as GET /admin/review shows them with --json', async () => {
      const admin = await makeUser('admin', 'admin');
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'Cheap pills');
      const reply = await makeReply(alice, topic, 'more pills');
      await flag(bob, 'topics', topic, 'other', 'links to a pharmacy');
      await flag(bob, 'replies', reply, 'inappropriate');
      const listed = await forumctl(['review', 'list', '--as', 'admin', '--json']);
      expect(listed.code, listed.stderr).to.equal(0);
      const fromApi = (await api().get('/api/v3/admin/review').set(admin.auth).expect(200)).body;
      expect(listed.json()).to.deep.equal(fromApi);
      const items = listed.json<{ items: ItemJson[] }>().items;
      expect(items.map((item) => [item.target_type, item.target_id])).to.deep.equal([
        ['Topic', topic],
        ['Reply', reply],
      ]);
      expect(items[0]).to.include({ kind: 'flag', status: 'pending', resolution: null });
      expect(items[0]!.flags).to.deep.include({ ...items[0]!.flags[0]!, reason: 'other', message: 'links to a pharmacy' });
      expect(items[0]!.flags[0]!.user.login).to.equal('bob');
      expect(items[1]!.reply).to.include({ id: reply, body: 'more pills' });
    });

    it('--status resolved lists resolved items, most recently resolved first, with who resolved them', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const node = await makeNode('Ruby');
      const first = await makeTopic(alice, node, 'first');
      const second = await makeTopic(alice, node, 'second');
      const third = await makeTopic(alice, node, 'third');
      for (const topic of [first, second, third]) await flag(bob, 'topics', topic);
      const [one, two, three] = [await itemOf('Topic', first), await itemOf('Topic', second), await itemOf('Topic', third)];
      expect((await forumctl(['review', 'agree', String(two)])).code).to.equal(0);
      expect((await forumctl(['review', 'disagree', String(one)])).code).to.equal(0);

      const resolved = await forumctl(['review', 'list', '--status', 'resolved'], { stdoutTerminal: false });
      expect(resolved.code, resolved.stderr).to.equal(0);
      const rows = rowsOf(resolved.stdout);
      expect(rows.map((row) => [row[0], row[4]])).to.deep.equal([
        [String(one), 'disagree by system'],
        [String(two), 'agree by system'],
      ]);
      expect(rows[0]![5]).to.match(DATE);
      const pending = await forumctl(['review', 'list'], { stdoutTerminal: false });
      expect(rowsOf(pending.stdout).map((row) => row[0])).to.deep.equal([String(three)]);
      const header = (await forumctl(['review', 'list', '--status', 'resolved'])).stdout.split('\n')[0];
      expect(header).to.match(/^id\s+kind\s+post\s+author\s+resolution\s+resolved\s+text$/);
      const json = await forumctl(['review', 'list', '--status', 'resolved', '--json']);
      expect(
        json.json<{ items: ItemJson[] }>().items.map((item) => [item.id, item.resolution, item.resolved_by?.login]),
      ).to.deep.equal([
        [one, 'disagree', 'system'],
        [two, 'agree', 'system'],
      ]);
    });

    it('pages with --offset and --limit, and says on stderr when the page left some out', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const node = await makeNode('Ruby');
      const ids: number[] = [];
      for (const title of ['one', 'two', 'three']) {
        const topic = await makeTopic(alice, node, title);
        await flag(bob, 'topics', topic);
        ids.push(await itemOf('Topic', topic));
      }
      const cut = await forumctl(['review', 'list', '--limit', '2'], { stdoutTerminal: false });
      expect(rowsOf(cut.stdout).map((row) => row[0])).to.deep.equal(ids.slice(0, 2).map(String));
      expect(cut.stderr).to.equal('note: more items than shown; the next page: --offset 2 --limit 2');
      const rest = await forumctl(['review', 'list', '--offset', '2', '--limit', '2'], { stdoutTerminal: false });
      expect(rowsOf(rest.stdout).map((row) => row[0])).to.deep.equal([String(ids[2])]);
      expect(rest.stderr).to.equal('');
    });

    it('refuses an unknown status or limit (exit 2) and a member (exit 3)', async () => {
      await makeUser('bob');
      const status = await forumctl(['review', 'list', '--status', 'open']);
      expect(status.code).to.equal(2);
      expect(status.stderr.split('\n')).to.have.length(1);
      expect(status.stderr).to.equal('error: status must be one of pending, resolved');
      // Any case, as the API takes it.
      expect((await forumctl(['review', 'list', '--status', 'Resolved'])).code).to.equal(0);
      const limit = await forumctl(['review', 'list', '--limit', '151']);
      expect(limit.code).to.equal(2);
      expect(limit.stderr).to.contain('limit must be between 1 and 150');
      const asBob = await forumctl(['review', 'list', '--as', 'bob']);
      expect(asBob.code).to.equal(3);
      expect(asBob.stdout).to.equal('');
      expect(asBob.stderr).to.equal('error: Access denied: the review queue is for administrators; bob is a member');
    });
  });

  describe('review show', () => {
    it('shows the post, its state, its author, and every flag with its message', async () => {
      const admin = await makeUser('admin', 'admin');
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const carol = await makeUser('carol');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'How to profile Ruby');
      const reply = await makeReply(alice, topic, 'Buy pills at example.com\n\nCheap!');
      await flag(bob, 'replies', reply, 'other', 'links to a pharmacy');
      await flag(carol, 'replies', reply, 'spam');
      const id = await itemOf('Reply', reply);

      const shown = await forumctl(['review', 'show', String(id)]);
      expect(shown.code, shown.stderr).to.equal(0);
      const lines = shown.stdout.split('\n');
      expect(lines[0]).to.equal(`review item ${id}: a flagged post`);
      expect(lines[1]).to.equal(`post:     reply ${reply} in topic ${topic} "How to profile Ruby" (public)`);
      expect(lines[2]).to.equal(`author:   alice (id ${alice.id})`);
      expect(lines[3]).to.equal('status:   pending');
      expect(lines[4]).to.match(/^since: {4}\d{4}-\d\d-\d\d \d\d:\d\d$/);
      expect(lines.slice(5, 9)).to.have.length(4);
      expect(lines[6]).to.equal('flags:');
      expect(lines[7]).to.match(/^ {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}bob: other — links to a pharmacy$/);
      expect(lines[8]).to.match(/^ {2}\d{4}-\d\d-\d\d \d\d:\d\d {2}carol: spam$/);
      // The body in full, line breaks and all.
      expect(shown.stdout.endsWith('\n\nBuy pills at example.com\n\nCheap!')).to.equal(true);

      // An administrator's flag hides it at once; the state says so.
      await flag(admin, 'replies', reply, 'spam');
      expect((await forumctl(['review', 'show', String(id)])).stdout.split('\n')[1]).to.match(/\(hidden\)$/);

      const json = await forumctl(['review', 'show', String(id), '--as', 'admin', '--json']);
      const fromApi = (await api().get(`/api/v3/admin/review/${id}`).set(admin.auth).expect(200)).body.item;
      expect(json.json()).to.deep.equal(fromApi);
      const item = json.json<ItemJson>();
      expect(item.flags.map((f) => [f.user.login, f.reason, f.message])).to.deep.equal([
        ['bob', 'other', 'links to a pharmacy'],
        ['carol', 'spam', null],
        ['admin', 'spam', null],
      ]);
    });

    it('says how the item was resolved, and shows a deleted post to the reviewer, its title in full', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const title = 'Cheap pills, the best prices on the whole internet, order today and get a second box free';
      const topic = await makeTopic(alice, await makeNode('Ruby'), title, 'pills pills');
      await flag(bob, 'topics', topic);
      const id = await itemOf('Topic', topic);
      const agreed = await forumctl(['review', 'agree', String(id), '--reason', 'spam']);
      expect(agreed.stdout).to.equal(
        `review item ${id} resolved: agree (topic ${topic} "Cheap pills, the best prices on the whole internet, o…", by alice)`,
      );
      const shown = await forumctl(['review', 'show', String(id)]);
      const lines = shown.stdout.split('\n');
      expect(lines[1]).to.equal(`post:     topic ${topic} "${title}" (deleted)`);
      expect(lines[3]).to.match(/^status: {3}resolved: agree by system at \d{4}-\d\d-\d\d \d\d:\d\d$/);
      expect(shown.stdout).to.match(/\n\npills pills$/);
    });

    it('names an unknown item (exit 4), a bad id (exit 2) and a member (exit 3)', async () => {
      await makeUser('bob');
      const missing = await forumctl(['review', 'show', '999']);
      expect(missing.code).to.equal(4);
      expect(missing.stderr).to.equal('error: review item 999 not found');
      const bad = await forumctl(['review', 'show', 'abc']);
      expect(bad.code).to.equal(2);
      expect(bad.stderr.split('\n')).to.have.length(1);
      const asBob = await forumctl(['review', 'show', '999', '--as', 'bob']);
      expect(asBob.code).to.equal(3);
      expect(asBob.stderr).to.equal('error: Access denied: the review queue is for administrators; bob is a member');
    });
  });

  describe('resolutions', () => {
    it('agree deletes the flagged post and resolves the item', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'How to profile Ruby');
      const reply = await makeReply(alice, topic, 'spam spam');
      await flag(bob, 'replies', reply);
      const id = await itemOf('Reply', reply);
      const agreed = await forumctl(['review', 'agree', String(id), '--reason', 'spam']);
      expect(agreed.code, agreed.stderr).to.equal(0);
      expect(agreed.stdout).to.equal(
        `review item ${id} resolved: agree (reply ${reply} in topic ${topic} "How to profile Ruby", by alice)`,
      );
      expect(await deletedAt('replies', reply)).to.be.an.instanceOf(Date);
      expect(await deletedAt('topics', topic)).to.equal(null);
      expect(await itemRow(id)).to.deep.equal({ status: 'resolved', resolution: 'agree' });
      const listed = (await api().get(`/api/v3/topics/${topic}/replies`).set(bob.auth).expect(200)).body.replies;
      expect(listed.map((r: { id: number; deleted: boolean }) => [r.id, r.deleted])).to.deep.equal([[reply, true]]);
    });

    it('prints the resolved item with --json', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'Cheap pills');
      await flag(bob, 'topics', topic);
      const id = await itemOf('Topic', topic);
      const agreed = await forumctl(['review', 'agree', String(id), '--json']);
      expect(agreed.code, agreed.stderr).to.equal(0);
      const item = agreed.json<ItemJson>();
      expect(item).to.include({ id, kind: 'flag', status: 'resolved', resolution: 'agree', target_id: topic });
      expect(item.resolved_by?.login).to.equal('system');
      expect(item.topic).to.include({ id: topic, deleted: true });
    });

    it('disagree shows a hidden post again and clears its flags', async () => {
      const admin = await makeUser('admin', 'admin');
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'Perfectly fine');
      await flag(admin, 'topics', topic);
      await api().get(`/api/v3/topics/${topic}`).set(bob.auth).expect(404);
      const id = await itemOf('Topic', topic);
      const disagreed = await forumctl(['review', 'disagree', String(id), '--reason', 'fine as it is']);
      expect(disagreed.code, disagreed.stderr).to.equal(0);
      expect(disagreed.stdout).to.equal(`review item ${id} resolved: disagree (topic ${topic} "Perfectly fine", by alice)`);
      await api().get(`/api/v3/topics/${topic}`).set(bob.auth).expect(200);
      expect(await deletedAt('topics', topic)).to.equal(null);
      expect(await itemRow(id)).to.deep.equal({ status: 'resolved', resolution: 'disagree' });
      // The old flags count no more: bob's new flag opens a new item and does not hide the post again.
      await flag(bob, 'topics', topic);
      expect(await itemOf('Topic', topic)).to.not.equal(id);
      await api().get(`/api/v3/topics/${topic}`).expect(200);
    });

    it('replies list shows a hidden reply to others as deleted, text and all, and as hidden to its author and administrators', async () => {
      const admin = await makeUser('admin', 'admin');
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'A topic');
      const reply = await makeReply(bob, topic, 'buy pills here');
      await flag(admin, 'replies', reply);
      const lines = async (as: string) => {
        const listed = await forumctl(['replies', 'list', String(topic), '--as', as], { stdoutTerminal: false });
        expect(listed.code, listed.stderr).to.equal(0);
        return rowsOf(listed.stdout)[0]!;
      };
      const [, , , , aliceState, aliceText] = await lines('alice');
      expect([aliceState, aliceText]).to.deep.equal(['deleted', '']);
      const [, , , , bobState, bobText] = await lines('bob');
      expect([bobState, bobText]).to.deep.equal(['hidden', 'buy pills here']);
      const [, , , , adminState] = await lines('admin');
      expect(adminState).to.equal('hidden');
    });

    it('approve publishes a held reply: the topic counts it then, and others see it', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const newbie = await selfRegistered('newbie');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'Welcome');
      const reply = await heldReply(newbie, topic, 'hello everyone');
      const id = await itemOf('Reply', reply);
      expect(await repliesCount(topic)).to.equal(0);
      const held = (await api().get(`/api/v3/topics/${topic}/replies`).set(bob.auth).expect(200)).body.replies;
      expect(held.map((r: { id: number; deleted: boolean }) => [r.id, r.deleted])).to.deep.equal([[reply, true]]);

      const pending = await forumctl(['review', 'list'], { stdoutTerminal: false });
      expect(rowsOf(pending.stdout).map((row) => [row[0], row[1], row[3], row[4], row[6]])).to.deep.equal([
        [String(id), 'hold', 'newbie', '', 'hello everyone'],
      ]);
      const shown = await forumctl(['review', 'show', String(id)]);
      expect(shown.stdout.split('\n')[0]).to.equal(`review item ${id}: a held post, waiting for approval`);
      expect(shown.stdout.split('\n')[1]).to.match(/\(held\)$/);
      expect(shown.stdout).to.not.contain('flags:');

      const approved = await forumctl(['review', 'approve', String(id)]);
      expect(approved.code, approved.stderr).to.equal(0);
      expect(approved.stdout).to.equal(
        `review item ${id} resolved: approve (reply ${reply} in topic ${topic} "Welcome", by newbie)`,
      );
      expect(await repliesCount(topic)).to.equal(1);
      const published = (await api().get(`/api/v3/topics/${topic}/replies`).set(bob.auth).expect(200)).body.replies;
      expect(published.map((r: { id: number; deleted: boolean; body: string }) => [r.id, r.deleted, r.body])).to.deep.equal([
        [reply, false, 'hello everyone'],
      ]);
      expect(await itemRow(id)).to.deep.equal({ status: 'resolved', resolution: 'approve' });
    });

    it('reject deletes a held reply, which the topic never counted', async () => {
      const alice = await makeUser('alice');
      const newbie = await selfRegistered('newbie');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'Welcome');
      const reply = await heldReply(newbie, topic, 'buy pills');
      const id = await itemOf('Reply', reply);
      const rejected = await forumctl(['review', 'reject', String(id), '--reason', 'spam']);
      expect(rejected.code, rejected.stderr).to.equal(0);
      expect(rejected.stdout).to.equal(
        `review item ${id} resolved: reject (reply ${reply} in topic ${topic} "Welcome", by newbie)`,
      );
      expect(await deletedAt('replies', reply)).to.be.an.instanceOf(Date);
      expect(await repliesCount(topic)).to.equal(0);
      expect(await itemRow(id)).to.deep.equal({ status: 'resolved', resolution: 'reject' });
    });

    it('spammer deletes every post of the author, blocks the account and ends its tokens; nothing of others', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const carol = await makeUser('carol');
      const node = await makeNode('Ruby');
      const spamTopic = await makeTopic(alice, node, 'Cheap pills');
      const bobsTopic = await makeTopic(bob, node, 'How to profile Ruby');
      const spamReply = await makeReply(alice, bobsTopic, 'pills here');
      const aliceInOwn = await makeReply(alice, spamTopic, 'and here');
      const bobsReply = await makeReply(bob, spamTopic, 'go away');
      const bobsOther = await makeReply(bob, bobsTopic, 'anyone?');
      await flag(carol, 'topics', spamTopic);
      await flag(bob, 'replies', spamReply);
      await flag(carol, 'topics', bobsTopic, 'off_topic');
      const [onTopic, onReply, onBobs] = [
        await itemOf('Topic', spamTopic),
        await itemOf('Reply', spamReply),
        await itemOf('Topic', bobsTopic),
      ];

      const spammer = await forumctl(['review', 'spammer', String(onTopic), '--reason', 'pharmacy spam']);
      expect(spammer.code, spammer.stderr).to.equal(0);
      expect(spammer.stdout).to.equal(`review item ${onTopic} resolved: spammer (topic ${spamTopic} "Cheap pills", by alice)`);
      expect(await deletedAt('topics', spamTopic)).to.be.an.instanceOf(Date);
      expect(await deletedAt('replies', spamReply)).to.be.an.instanceOf(Date);
      expect(await deletedAt('replies', aliceInOwn)).to.be.an.instanceOf(Date);
      expect(await deletedAt('topics', bobsTopic)).to.equal(null);
      expect(await deletedAt('replies', bobsReply)).to.equal(null);
      expect(await deletedAt('replies', bobsOther)).to.equal(null);
      const [user] = await testEnv().sql<{ role: string }>('select role from users where id = $1', [alice.id]);
      expect(user!.role).to.equal('blocked');
      await api().get('/api/v3/hello').set(alice.auth).expect(401);
      await api().get('/api/v3/hello').set(bob.auth).expect(200);
      // Alice's other item went with it; bob's stays.
      expect(await itemRow(onReply)).to.deep.equal({ status: 'resolved', resolution: 'spammer' });
      expect(await itemRow(onBobs)).to.deep.equal({ status: 'pending', resolution: null });
      const pending = await forumctl(['review', 'list'], { stdoutTerminal: false });
      expect(rowsOf(pending.stdout).map((row) => row[0])).to.deep.equal([String(onBobs)]);
      expect(await repliesCount(bobsTopic)).to.equal(1);
    });

    it('spammer also takes a held post, and refuses an administrator’s (exit 2)', async () => {
      const admin = await makeUser('admin', 'admin');
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const newbie = await selfRegistered('newbie');
      const node = await makeNode('Ruby');
      const topic = await makeTopic(alice, node, 'Welcome');
      const reply = await heldReply(newbie, topic);
      const held = await itemOf('Reply', reply);
      expect((await forumctl(['review', 'spammer', String(held)])).code).to.equal(0);
      expect(await deletedAt('replies', reply)).to.be.an.instanceOf(Date);
      const [row] = await testEnv().sql<{ role: string }>('select role from users where id = $1', [newbie.id]);
      expect(row!.role).to.equal('blocked');

      const adminsTopic = await makeTopic(admin, node, 'Rules');
      await flag(bob, 'topics', adminsTopic);
      const onAdmin = await itemOf('Topic', adminsTopic);
      const refused = await forumctl(['review', 'spammer', String(onAdmin)]);
      expect(refused.code).to.equal(2);
      expect(refused.stderr).to.equal('error: Validation failed: an administrator is no spammer; change the role first');
      expect(await deletedAt('topics', adminsTopic)).to.equal(null);
      expect(await itemRow(onAdmin)).to.deep.equal({ status: 'pending', resolution: null });
    });

    it('asks on a terminal before agree, reject and spammer delete, naming what goes; --yes skips the question', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const carol = await makeUser('carol');
      const newbie = await selfRegistered('newbie');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'Cheap pills');
      await flag(bob, 'topics', topic);
      await flag(carol, 'topics', topic);
      const flagged = await itemOf('Topic', topic);
      const reply = await heldReply(newbie, topic, 'hello');
      const held = await itemOf('Reply', reply);

      const agree = await forumctl(['review', 'agree', String(flagged), '--silence-days', '2'], {
        terminal: true,
        answer: false,
      });
      expect(agree.code).to.equal(1);
      expect(agree.stderr).to.equal(
        `Delete topic ${topic} "Cheap pills" by alice, agreeing with its 2 flags, and silence alice for 2 days? [y/N] \nerror: cancelled`,
      );
      const reject = await forumctl(['review', 'reject', String(held)], { terminal: true, answer: false });
      expect(reject.stderr).to.equal(
        `Delete the held reply ${reply} in topic ${topic} "Cheap pills" by newbie? [y/N] \nerror: cancelled`,
      );
      const spammer = await forumctl(['review', 'spammer', String(held)], { terminal: true, answer: false });
      expect(spammer.stderr).to.equal(
        `Delete every topic and reply of newbie, block the account and end its tokens (from reply ${reply} in topic ${topic} "Cheap pills")? [y/N] \nerror: cancelled`,
      );
      expect(await itemRow(flagged)).to.deep.equal({ status: 'pending', resolution: null });
      expect(await itemRow(held)).to.deep.equal({ status: 'pending', resolution: null });
      expect(await deletedAt('topics', topic)).to.equal(null);
      const [row] = await testEnv().sql<{ silenced_until: Date | null }>('select silenced_until from users where id = $1', [
        alice.id,
      ]);
      expect(row!.silenced_until).to.equal(null);

      // What would be refused is refused before any question.
      const wrongKind = await forumctl(['review', 'reject', String(flagged)], { terminal: true, answer: true });
      expect(wrongKind.code).to.equal(2);
      expect(wrongKind.stderr).to.not.contain('[y/N]');
      const badDays = await forumctl(['review', 'agree', String(flagged), '--silence-days', '0'], {
        terminal: true,
        answer: true,
      });
      expect(badDays.code).to.equal(2);
      expect(badDays.stderr).to.not.contain('[y/N]');

      const answeredYes = await forumctl(['review', 'reject', String(held)], { terminal: true, answer: true });
      expect(answeredYes.code, answeredYes.stderr).to.equal(0);
      expect(answeredYes.stderr).to.match(/^Delete the held reply .*\? \[y\/N\] $/);
      expect(await deletedAt('replies', reply)).to.be.an.instanceOf(Date);
      const yes = await forumctl(['review', 'agree', String(flagged), '--yes'], { terminal: true, answer: false });
      expect(yes.code, yes.stderr).to.equal(0);
      expect(yes.stderr).to.equal('');
      expect(await deletedAt('topics', topic)).to.be.an.instanceOf(Date);
      const topic2 = await makeTopic(alice, await makeNode('Rails'), 'Fine');
      await flag(bob, 'topics', topic2);
      const notAsked = await forumctl(['review', 'disagree', String(await itemOf('Topic', topic2))], {
        terminal: true,
        answer: false,
      });
      // disagree deletes nothing: no question.
      expect(notAsked.code, notAsked.stderr).to.equal(0);
      expect(notAsked.stderr).to.equal('');
      const resolvedTwice = await forumctl(['review', 'agree', String(flagged)], { terminal: true, answer: true });
      expect(resolvedTwice.code).to.equal(2);
      expect(resolvedTwice.stderr).to.not.contain('[y/N]');
    });

    it('refuses to resolve an item twice (exit 2, one line on stderr), and changes nothing', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      await flag(bob, 'topics', topic);
      const id = await itemOf('Topic', topic);
      expect((await forumctl(['review', 'agree', String(id)])).code).to.equal(0);
      for (const verb of ['agree', 'disagree', 'spammer']) {
        const again = await forumctl(['review', verb, String(id)]);
        expect(again.code, verb).to.equal(2);
        expect(again.stdout, verb).to.equal('');
        expect(again.stderr, verb).to.equal(`error: Validation failed: review item ${id} is resolved already (agree)`);
      }
      expect(await itemRow(id)).to.deep.equal({ status: 'resolved', resolution: 'agree' });
      const [user] = await testEnv().sql<{ role: string }>('select role from users where id = $1', [alice.id]);
      expect(user!.role).to.equal('member');
      const json = await forumctl(['review', 'agree', String(id), '--json']);
      expect(json.code).to.equal(2);
      expect(JSON.parse(json.stderr)).to.deep.equal({
        error: 'RecordInvalid',
        message: `Validation failed: review item ${id} is resolved already (agree)`,
      });
    });

    it('refuses an action of the other kind (exit 2) and names the ones that fit', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const newbie = await selfRegistered('newbie');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      await flag(bob, 'topics', topic);
      const flagged = await itemOf('Topic', topic);
      const held = await itemOf('Reply', await heldReply(newbie, topic));
      for (const verb of ['approve', 'reject']) {
        const wrong = await forumctl(['review', verb, String(flagged)]);
        expect(wrong.code, verb).to.equal(2);
        expect(wrong.stderr, verb).to.equal(
          `error: Validation failed: ${verb} does not apply to a flag item; use agree, disagree, spammer`,
        );
      }
      for (const verb of ['agree', 'disagree']) {
        const wrong = await forumctl(['review', verb, String(held)]);
        expect(wrong.code, verb).to.equal(2);
        expect(wrong.stderr, verb).to.equal(
          `error: Validation failed: ${verb} does not apply to a hold item; use approve, reject, spammer`,
        );
      }
      expect(await itemRow(flagged)).to.deep.equal({ status: 'pending', resolution: null });
      expect(await itemRow(held)).to.deep.equal({ status: 'pending', resolution: null });
      expect(await deletedAt('topics', topic)).to.equal(null);
    });

    it('refuses a member (exit 3) and names an unknown item (exit 4)', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      await flag(bob, 'topics', topic);
      const id = await itemOf('Topic', topic);
      for (const verb of ['agree', 'disagree', 'approve', 'reject', 'spammer']) {
        const asBob = await forumctl(['review', verb, String(id), '--as', 'bob']);
        expect(asBob.code, verb).to.equal(3);
        expect(asBob.stderr, verb).to.equal('error: Access denied: the review queue is for administrators; bob is a member');
        const missing = await forumctl(['review', verb, '999']);
        expect(missing.code, verb).to.equal(4);
        expect(missing.stderr, verb).to.equal('error: review item 999 not found');
      }
      expect(await itemRow(id)).to.deep.equal({ status: 'pending', resolution: null });
      expect(await deletedAt('topics', topic)).to.equal(null);
    });

    it('agree --silence-days silences the author: a reply over HTTP answers 403 then', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(bob, await makeNode('Ruby'));
      const reply = await makeReply(alice, topic, 'rude words');
      await flag(bob, 'replies', reply, 'inappropriate');
      const id = await itemOf('Reply', reply);
      await api().post(`/api/v3/topics/${topic}/replies`).set(alice.auth).send({ body: 'still here' }).expect(200);
      const before = Date.now();
      const agreed = await forumctl(['review', 'agree', String(id), '--silence-days', '3', '--reason', 'rude']);
      expect(agreed.code, agreed.stderr).to.equal(0);
      expect(agreed.stdout).to.match(/, by alice\); alice is silenced for 3 days$/);
      const [row] = await testEnv().sql<{ silenced_until: Date }>('select silenced_until from users where id = $1', [alice.id]);
      const days = (row!.silenced_until.getTime() - before) / 86_400_000;
      expect(days).to.be.within(2.99, 3.01);
      const refused = await api().post(`/api/v3/topics/${topic}/replies`).set(alice.auth).send({ body: 'hello?' }).expect(403);
      expect(refused.body.message ?? refused.body.error).to.match(/silenced until/);
      // Reading stays open.
      await api().get(`/api/v3/topics/${topic}`).set(alice.auth).expect(200);
    });

    it('reject --silence-days silences too; --silence-days is refused elsewhere or out of range (exit 2)', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const newbie = await selfRegistered('newbie');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      const held = await itemOf('Reply', await heldReply(newbie, topic));
      await flag(bob, 'topics', topic);
      const flagged = await itemOf('Topic', topic);

      for (const days of ['0', 'two', '3651']) {
        const bad = await forumctl(['review', 'agree', String(flagged), '--silence-days', days]);
        expect(bad.code, days).to.equal(2);
        expect(bad.stderr, days).to.match(/^error: .*silence_days/);
      }
      // Only agree and reject take it.
      const onDisagree = await forumctl(['review', 'disagree', String(flagged), '--silence-days', '3']);
      expect(onDisagree.code).to.equal(2);
      expect(onDisagree.stderr).to.contain("unknown option '--silence-days'");
      expect(await itemRow(flagged)).to.deep.equal({ status: 'pending', resolution: null });

      expect((await forumctl(['review', 'reject', String(held), '--silence-days', '1'])).code).to.equal(0);
      const [row] = await testEnv().sql<{ silenced_until: Date | null }>('select silenced_until from users where id = $1', [
        newbie.id,
      ]);
      expect(row!.silenced_until).to.be.an.instanceOf(Date);
      expect(row!.silenced_until!.getTime()).to.be.above(Date.now() + 23 * 3_600_000);
    });
  });

  describe('audit', () => {
    it('records every resolution with its reason, and the silence it set off', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const newbie = await selfRegistered('newbie');
      const spammer = await makeUser('spammer');
      const node = await makeNode('Ruby');
      const agreed = await makeTopic(alice, node, 'agreed');
      const disagreed = await makeTopic(alice, node, 'disagreed');
      const spam = await makeTopic(spammer, node, 'spam');
      for (const topic of [agreed, disagreed, spam]) await flag(bob, 'topics', topic);
      // Held replies in a topic of their own: the agreed topic's deletion would close its replies' items.
      const welcome = await makeTopic(alice, node, 'welcome');
      const approvedReply = await heldReply(newbie, welcome, 'first');
      const approved = await itemOf('Reply', approvedReply);
      const other = await selfRegistered('other');
      const rejectedReply = await heldReply(other, welcome, 'second');
      const rejected = await itemOf('Reply', rejectedReply);

      const run = async (args: string[]) => expect((await forumctl(args)).code, args.join(' ')).to.equal(0);
      await run(['review', 'agree', String(await itemOf('Topic', agreed)), '--reason', 'r-agree', '--silence-days', '2']);
      await run(['review', 'disagree', String(await itemOf('Topic', disagreed)), '--reason', 'r-disagree']);
      await run(['review', 'approve', String(approved), '--reason', 'r-approve']);
      await run(['review', 'reject', String(rejected), '--reason', 'r-reject']);
      await run(['review', 'spammer', String(await itemOf('Topic', spam)), '--reason', 'r-spammer']);

      const audit = await forumctl(['audit', 'list', '--json', '--limit', '50']);
      const entries = audit.json<{
        entries: { action: string; actor: { login: string }; target_type: string; target_id: number; reason: string | null }[];
      }>().entries;
      const byAction = (name: string) => entries.filter((entry) => entry.action === name);
      expect(byAction('review.agree').map((e) => [e.target_type, e.target_id, e.reason, e.actor.login])).to.deep.equal([
        ['Topic', agreed, 'r-agree', 'system'],
      ]);
      expect(byAction('user.silence').map((e) => [e.target_type, e.target_id, e.reason])).to.deep.equal([
        ['User', alice.id, 'r-agree'],
      ]);
      expect(byAction('review.disagree').map((e) => [e.target_id, e.reason])).to.deep.equal([[disagreed, 'r-disagree']]);
      expect(byAction('review.approve').map((e) => [e.target_type, e.target_id, e.reason])).to.deep.equal([
        ['Reply', approvedReply, 'r-approve'],
      ]);
      expect(byAction('review.reject').map((e) => [e.target_type, e.target_id, e.reason])).to.deep.equal([
        ['Reply', rejectedReply, 'r-reject'],
      ]);
      expect(byAction('review.spammer').map((e) => [e.target_id, e.reason])).to.deep.equal([[spam, 'r-spammer']]);
      const filtered = await forumctl(['audit', 'list', '--action', 'review.spammer', '--json']);
      expect(filtered.json<{ entries: unknown[] }>().entries).to.have.length(1);
    });
  });
});

describe('forumctl users silence|suspend', () => {
  it('silence prints when it ends; the user may read, not post; unsilence lifts it', async () => {
    const alice = await makeUser('alice');
    const bob = await makeUser('bob');
    const topic = await makeTopic(alice, await makeNode('Ruby'));
    const before = Date.now();
    const silenced = await forumctl(['users', 'silence', 'bob', '--days', '2', '--reason', 'cool down']);
    expect(silenced.code, silenced.stderr).to.equal(0);
    const [row] = await testEnv().sql<{ silenced_until: Date }>('select silenced_until from users where id = $1', [bob.id]);
    const until = row!.silenced_until;
    expect((until.getTime() - before) / 86_400_000).to.be.within(1.99, 2.01);
    expect(silenced.stdout).to.equal(`bob is silenced until ${until.toISOString().slice(0, 16).replace('T', ' ')} (UTC)`);
    await api().post(`/api/v3/topics/${topic}/replies`).set(bob.auth).send({ body: 'hi' }).expect(403);
    await api()
      .post('/api/v3/topics')
      .set(bob.auth)
      .send({
        title: 'A topic',
        body: 'hi',
        node_id: (await testEnv().sql<{ id: number }>("select id from nodes where name = 'Ruby'"))[0]!.id,
      })
      .expect(403);
    await api().get(`/api/v3/topics/${topic}`).set(bob.auth).expect(200);

    const lifted = await forumctl(['users', 'unsilence', 'bob']);
    expect(lifted.code, lifted.stderr).to.equal(0);
    expect(lifted.stdout).to.equal("bob's silence is over");
    await api().post(`/api/v3/topics/${topic}/replies`).set(bob.auth).send({ body: 'hi again' }).expect(200);
  });

  it('prints the login and the end with --json, or null once lifted', async () => {
    const bob = await makeUser('bob');
    const silenced = await forumctl(['users', 'silence', 'bob', '--days', '1', '--json']);
    const [row] = await testEnv().sql<{ silenced_until: Date }>('select silenced_until from users where id = $1', [bob.id]);
    expect(silenced.json()).to.deep.equal({ login: 'bob', silenced_until: row!.silenced_until.toISOString() });
    const suspended = await forumctl(['users', 'suspend', 'bob', '--days', '7', '--json']);
    const [after] = await testEnv().sql<{ suspended_until: Date }>('select suspended_until from users where id = $1', [bob.id]);
    expect(suspended.json()).to.deep.equal({ login: 'bob', suspended_until: after!.suspended_until.toISOString() });
    expect((await forumctl(['users', 'unsilence', 'bob', '--json'])).json()).to.deep.equal({
      login: 'bob',
      silenced_until: null,
    });
    expect((await forumctl(['users', 'unsuspend', 'bob', '--json'])).json()).to.deep.equal({
      login: 'bob',
      suspended_until: null,
    });
    const [cleared] = await testEnv().sql<{ silenced_until: Date | null; suspended_until: Date | null }>(
      'select silenced_until, suspended_until from users where id = $1',
      [bob.id],
    );
    expect(cleared).to.deep.equal({ silenced_until: null, suspended_until: null });
  });

  it('suspend ends the user’s tokens and refuses the password grant until unsuspend', async () => {
    const created = await forumctl(['users', 'create', 'bob', '--email', 'bob@example.com', '--password', 'correct horse']);
    expect(created.code, created.stderr).to.equal(0);
    const client = (await forumctl(['apps', 'create', 'Test client', '--json'])).json<{
      client_id: string;
      client_secret: string;
    }>();
    const grant = () =>
      api()
        .post('/oauth/token')
        .type('form')
        .send({ grant_type: 'password', username: 'bob', password: 'correct horse', ...client });
    const token = (await grant().expect(200)).body.access_token as string;
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${token}`).expect(200);

    const suspended = await forumctl(['users', 'suspend', 'bob', '--days', '1', '--reason', 'abuse']);
    expect(suspended.code, suspended.stderr).to.equal(0);
    expect(suspended.stdout).to.match(/^bob is suspended until \d{4}-\d\d-\d\d \d\d:\d\d \(UTC\)$/);
    await api().get('/api/v3/hello').set('Authorization', `Bearer ${token}`).expect(401);
    const refused = await grant().expect(400);
    expect(refused.body.error).to.equal('invalid_grant');
    expect(refused.body.error_description).to.match(/suspended until/);

    const lifted = await forumctl(['users', 'unsuspend', 'bob']);
    expect(lifted.stdout).to.equal("bob's suspension is over");
    await grant().expect(200);
  });

  it('refuses a missing or bad --days (exit 2), an administrator (exit 2), an unknown login (exit 4), a member (exit 3)', async () => {
    await makeUser('root', 'admin');
    const bob = await makeUser('bob');
    await makeUser('carol');
    for (const act of ['silence', 'suspend']) {
      const missing = await forumctl(['users', act, 'bob']);
      expect(missing.code, act).to.equal(2);
      expect(missing.stderr, act).to.equal("error: required option '--days <n>' not specified");
      for (const days of ['0', 'x', '3651']) {
        const bad = await forumctl(['users', act, 'bob', '--days', days]);
        expect(bad.code, `${act} ${days}`).to.equal(2);
        expect(bad.stderr.split('\n'), `${act} ${days}`).to.have.length(1);
        expect(bad.stderr, `${act} ${days}`).to.match(/^error: .*days/);
      }
      const admin = await forumctl(['users', act, 'root', '--days', '1']);
      expect(admin.code, act).to.equal(2);
      expect(admin.stderr, act).to.equal(
        `error: Validation failed: an administrator cannot be ${act === 'silence' ? 'silenced' : 'suspended'}; change the role first`,
      );
      const system = await forumctl(['users', act, 'system', '--days', '1']);
      expect(system.code, act).to.equal(2);
      const nobody = await forumctl(['users', act, 'nobody', '--days', '1']);
      expect(nobody.code, act).to.equal(4);
      expect(nobody.stderr, act).to.equal('error: user nobody not found');
      const asCarol = await forumctl(['users', act, 'bob', '--days', '1', '--as', 'carol']);
      expect(asCarol.code, act).to.equal(3);
      expect(asCarol.stderr, act).to.match(/^error: Access denied: .* is for administrators; carol is a member$/);
    }
    for (const act of ['unsilence', 'unsuspend']) {
      expect((await forumctl(['users', act, 'nobody'])).code, act).to.equal(4);
      expect((await forumctl(['users', act, 'bob', '--as', 'carol'])).code, act).to.equal(3);
    }
    const [row] = await testEnv().sql<{ silenced_until: Date | null; suspended_until: Date | null }>(
      'select silenced_until, suspended_until from users where id = $1',
      [bob.id],
    );
    expect(row).to.deep.equal({ silenced_until: null, suspended_until: null });
  });

  it('records each act in the audit log, with the reason and the before and after', async () => {
    const bob = await makeUser('bob');
    for (const args of [
      ['silence', 'bob', '--days', '1', '--reason', 'r1'],
      ['unsilence', 'bob', '--reason', 'r2'],
      ['suspend', 'bob', '--days', '1', '--reason', 'r3'],
      ['unsuspend', 'bob', '--reason', 'r4'],
    ]) {
      expect((await forumctl(['users', ...args])).code, args[0]).to.equal(0);
    }
    const audit = await forumctl(['audit', 'list', '--target-type', 'User', '--target-id', String(bob.id), '--json']);
    const entries = audit.json<{
      entries: {
        action: string;
        actor: { login: string };
        reason: string;
        changes: Record<string, [string | null, string | null]>;
      }[];
    }>().entries;
    expect(entries.map((e) => [e.action, e.actor.login, e.reason])).to.deep.equal([
      ['user.unsuspend', 'system', 'r4'],
      ['user.suspend', 'system', 'r3'],
      ['user.unsilence', 'system', 'r2'],
      ['user.silence', 'system', 'r1'],
    ]);
    const silence = entries[3]!.changes.silenced_until!;
    expect(silence[0]).to.equal(null);
    expect(Date.parse(silence[1]!)).to.be.above(Date.now());
    const unsilence = entries[2]!.changes.silenced_until!;
    expect(unsilence).to.deep.equal([silence[1], null]);
  });
});

import { expect } from 'chai';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { configuredWith, testEnv } from '../support/env.js';
import { type Browser, formFor, submit, alertOf, signedInAs } from '../support/page-forms.js';
import { formsOf } from '../support/oauth-flow.js';

/**
 * Taking part in a browser (contract §21b), first part: the topic page's forms — reply (with a preview), like,
 * follow, favorite — driven as a browser drives them: a cookie jar signed in through the sign-in page, the page's
 * forms with their hidden fields, a redirect after each success.
 */

describe('the forum in a browser: taking part on a topic’s page (contract §21b)', () => {
  let alice: TestUser;
  let topic: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    topic = await makeTopic(alice, await makeNode('General'), 'Talk to me', 'Say something');
  });

  it('replies from the page: the reply is the API’s, and the browser goes to it by its floor', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    expect(page.headers['cache-control']).to.equal('private, no-cache');
    const res = await submit(bob, formFor(page.text, `/topics/${topic}/replies`), { body: 'Hello **alice**' }).expect(303);
    expect(res.headers.location).to.equal(`/topics/${topic}#reply1`);
    const replies = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies as { body: string }[];
    expect(replies.map((reply) => reply.body)).to.deep.equal(['Hello **alice**']);
    const after = await bob.get(`/topics/${topic}`).expect(200);
    expect(after.text).to.match(/id="reply1"[\s\S]*<strong>alice<\/strong>/);
  });

  it('reads the topic up to the last reply its page shows, not the one it looks ahead at (contract §22)', async () => {
    const ids: number[] = [];
    for (let n = 1; n <= 101; n++) ids.push(await makeReply(alice, topic, `reply ${n}`));
    const bob = await signedInAs('bob');
    const markOf = async () =>
      (
        await testEnv().sql<{ last_read_reply_id: number | null }>(
          "select last_read_reply_id from topic_reads where topic_id = $1 and user_id = (select id from users where login = 'bob')",
          [topic],
        )
      )[0]?.last_read_reply_id;
    await bob.get(`/topics/${topic}`).expect(200);
    expect(await markOf()).to.equal(ids[99]);
    await bob.get(`/topics/${topic}?page=2`).expect(200);
    expect(await markOf()).to.equal(ids[100]);
  });

  describe('where the reader left off (contract §22)', () => {
    /** The list's "n new" links, as [topic, count shown, href]. */
    const badgesOn = (html: string) =>
      [...html.matchAll(/<a class="new-count" href="(\/topics\/(\d+)\?unread=1)"[^>]*>([^<]*)<\/a>/g)].map((m) => [
        Number(m[2]),
        m[3],
        m[1],
      ]);
    /** The floors of a topic page's replies, with the new-replies line where it is. */
    const floorsOn = (html: string) =>
      [...html.matchAll(/id="reply(\d+)"|<h3 class="new-replies">([^<]*)<\/h3>/g)].map((m) => (m[1] ? Number(m[1]) : m[2]));

    it('shows “n new” beside a topic with replies the reader has yet to read, linking to the first of them', async () => {
      await makeReply(alice, topic, 'read already');
      const bob = await signedInAs('bob');
      await bob.get(`/topics/${topic}`).expect(200);
      expect(badgesOn((await bob.get('/').expect(200)).text)).to.deep.equal([]);
      await makeReply(alice, topic, 'new one');
      await makeReply(alice, topic, 'new two');

      const list = await bob.get('/').expect(200);
      expect(badgesOn(list.text)).to.deep.equal([[topic, '2 new', `/topics/${topic}?unread=1`]]);
      expect(list.text).to.include('aria-label="2 new replies: read from the first unread"');
      expect(badgesOn((await bob.get('/topics/last?lang=zh-CN').expect(200)).text)).to.deep.equal([
        [topic, '2 条新回复', `/topics/${topic}?unread=1`],
      ]);
      const jump = await bob.get(`/topics/${topic}?unread=1`).expect(303);
      expect(jump.headers.location).to.equal(`/topics/${topic}#reply2`);

      // The line where new replies begin: before the first the reader had not read, once; read now, no more.
      const page = await bob.get(`/topics/${topic}`).expect(200);
      expect(floorsOn(page.text)).to.deep.equal([1, 'New replies', 2, 3]);
      expect(floorsOn((await bob.get(`/topics/${topic}`).expect(200)).text)).to.deep.equal([1, 2, 3]);
      expect(badgesOn((await bob.get('/').expect(200)).text)).to.deep.equal([]);
      // Nothing left to read: the link goes to the topic.
      expect((await bob.get(`/topics/${topic}?unread=1`).expect(303)).headers.location).to.equal(`/topics/${topic}`);
    });

    it('sends the link to the page and floor of the first unread reply, the line at the top of that page', async function () {
      this.timeout(30_000);
      await testEnv().sql(
        `insert into replies (topic_id, user_id, body, body_html, created_at, updated_at)
         select $1, $2, 'reply ' || n, '<p>reply ' || n || '</p>', now(), now() from generate_series(1, 100) n`,
        [topic, alice.id],
      );
      // The topic's counters, as writing the replies through the service keeps them.
      await testEnv().sql(
        `update topics set replies_count = replies_count + 100, last_reply_id = (select max(id) from replies where topic_id = $1)
         where id = $1`,
        [topic],
      );
      const bob = await signedInAs('bob');
      await bob.get(`/topics/${topic}`).expect(200);
      await makeReply(alice, topic, 'on the second page');
      expect(badgesOn((await bob.get('/').expect(200)).text)).to.deep.equal([[topic, '1 new', `/topics/${topic}?unread=1`]]);
      const jump = await bob.get(`/topics/${topic}?unread=1&lang=zh-CN`).expect(303);
      expect(jump.headers.location).to.equal(`/topics/${topic}?page=2&lang=zh-CN#reply101`);
      const second = await bob.get(`/topics/${topic}?page=2`).expect(200);
      expect(floorsOn(second.text)).to.deep.equal(['New replies', 101]);
    });

    it('sends an imported member from a topic they read up to the import to the first reply made since', async () => {
      const before = await makeReply(alice, topic, 'imported');
      const bob = await signedInAs('bob');
      // What the import writes for each member it brings (homeland/apply.ts): everything up to it read.
      await testEnv().sql(
        `insert into read_horizons (user_id, topic_id, reply_id, read_at)
         select id, $1, $2, now() from users where login = 'bob'`,
        [topic, before],
      );
      expect(badgesOn((await bob.get('/').expect(200)).text)).to.deep.equal([]);
      await makeReply(alice, topic, 'since the import');
      expect(badgesOn((await bob.get('/').expect(200)).text)).to.deep.equal([[topic, '1 new', `/topics/${topic}?unread=1`]]);
      expect((await bob.get(`/topics/${topic}?unread=1`).expect(303)).headers.location).to.equal(`/topics/${topic}#reply2`);
      expect(floorsOn((await bob.get(`/topics/${topic}`).expect(200)).text)).to.deep.equal([1, 'New replies', 2]);
    });

    it('marks a topic made lately that the reader never opened as new; signed out, the lists say none of it', async () => {
      await makeReply(alice, topic, 'a reply');
      const bob = await signedInAs('bob');
      const other = await makeTopic(alice, await makeNode('Other'), 'Never opened');
      await bob.get(`/topics/${topic}`).expect(200);
      await makeReply(alice, topic, 'another');
      const list = (await bob.get('/').expect(200)).text;
      expect(list).to.match(new RegExp(`href="/topics/${other}">Never opened</a> <span class="mark">New</span>`));
      expect(list).to.match(new RegExp(`href="/topics/${topic}">Talk to me</a> <a class="new-count"`));

      // Signed out: no badge, no mark, no link to an unread reply; the link itself shows the page.
      for (const path of ['/', '/topics', '/topics/last']) {
        const anonymous = (await api().get(path).expect(200)).text;
        expect(anonymous, path).not.to.include('new-count').and.not.include('unread=1').and.not.include('>New</span>');
      }
      const page = await api().get(`/topics/${topic}?unread=1`).expect(200);
      expect(page.text).not.to.include('class="new-replies"');
    });
  });

  it('previews a reply rendered by the server, keeping it in the form, and saves nothing', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const preview = await submit(bob, formFor(page.text, `/topics/${topic}/replies`), {
      body: 'A *preview* <script>alert(1)</script>',
      preview: '1',
    }).expect(200);
    expect(preview.text).to.include('<em>preview</em>').and.not.include('<script>alert');
    expect(preview.text).to.include('A *preview* &lt;script&gt;alert(1)&lt;/script&gt;</textarea>');
    expect((await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies).to.deep.equal([]);
  });

  it('shows a refusal with the API’s words on the page, keeping what was typed; a closed topic takes no reply', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const form = formFor(page.text, `/topics/${topic}/replies`);
    const empty = await submit(bob, form, { body: '   ' }).expect(400);
    expect(alertOf(empty.text)).to.be.a('string').and.not.equal('');
    const admin = await makeUser('root', 'admin');
    await api().post(`/api/v3/topics/${topic}/action?type=close`).set(admin.auth).expect(200);
    const refused = await submit(bob, form, { body: 'too late, I hope not' }).expect(400);
    expect(alertOf(refused.text)).to.match(/closed/i);
    expect(refused.text).to.include('too late, I hope not');
    expect((await bob.get(`/topics/${topic}`).expect(200)).text).to.include('This topic is closed');
  });

  it('refuses a form without the session’s token (403), and sends a browser not signed in to sign in', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    await submit(bob, formFor(page.text, `/topics/${topic}/replies`), { body: 'forged', csrf_token: 'nope' }).expect(403);
    const stranger = await api().post(`/topics/${topic}/replies`).type('form').send({ body: 'who am I' }).expect(303);
    expect(stranger.headers.location).to.equal('/account/sign-in?lang=en');
    expect((await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies).to.deep.equal([]);
  });

  it('likes, follows and favorites with a button each, as the API does, and undoes each', async () => {
    const bob = await signedInAs('bob');
    for (const [act, undo] of [
      ['like', 'unlike'],
      ['follow', 'unfollow'],
      ['favorite', 'unfavorite'],
    ] as const) {
      const page = await bob.get(`/topics/${topic}`).expect(200);
      const res = await submit(bob, formFor(page.text, `/topics/${topic}/${act}`)).expect(303);
      expect(res.headers.location).to.equal(`/topics/${topic}`);
      const pressed = await bob.get(`/topics/${topic}`).expect(200);
      expect(pressed.text, act).to.match(new RegExp(`action="/topics/${topic}/${undo}"[^]*?aria-pressed="true"`));
      await submit(bob, formFor(pressed.text, `/topics/${topic}/${undo}`)).expect(303);
    }
    const [row] = await testEnv().sql<{ likes_count: number }>('select likes_count from topics where id = $1', [topic]);
    expect(row!.likes_count).to.equal(0);
    const favorites = (await api().get('/api/v3/users/bob/favorites').expect(200)).body.topics as unknown[];
    expect(favorites).to.deep.equal([]);
  });

  it('says a new member’s held reply waits for review, and shows it to its author only (HOLD_FIRST_POSTS)', async () => {
    const { app } = configuredWith({ review: { ...testEnv().config.review, holdFirstPosts: 1 } });
    const bob = await signedInAs('bob', { app });
    await testEnv().sql("update users set self_registered = true where login = 'bob'");
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const res = await submit(bob, formFor(page.text, `/topics/${topic}/replies`), { body: 'my first words' }).expect(303);
    expect(res.headers.location).to.equal(`/topics/${topic}?held=1#reply1`);
    const after = await bob.get(res.headers.location!.split('#')[0]!).expect(200);
    expect(after.text).to.include('waits for a moderator’s review').and.include('my first words');
    expect((await api().get(`/topics/${topic}`).expect(200)).text).not.to.include('my first words');
  });

  it('flags a reply for a moderator (the API’s flag: once; “something else” wants words), and deletes one’s own reply, from the page', async () => {
    const bob = await signedInAs('bob');
    const dave = await makeUser('dave');
    const spam = (await api().post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'buy pills' }).expect(200)).body
      .reply.id as number;
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const flagged = await submit(bob, formFor(page.text, `/topics/${topic}/replies/${spam}/flag`), { reason: 'spam' }).expect(
      303,
    );
    expect(flagged.headers.location).to.equal(`/topics/${topic}?flagged=1`);
    expect((await bob.get(flagged.headers.location!).expect(200)).text).to.include('a moderator will look at it');
    const [row] = await testEnv().sql<{ count: number }>('select count(*)::int as count from flags');
    expect(row!.count).to.equal(1);
    // Again is nothing more (the API's rule: once per post).
    await submit(bob, formFor(page.text, `/topics/${topic}/replies/${spam}/flag`), { reason: 'spam' }).expect(303);
    const [again] = await testEnv().sql<{ count: number }>('select count(*)::int as count from flags');
    expect(again!.count).to.equal(1);
    // "Something else" needs words: refused, said on the page.
    const wordless = await submit(bob, formFor(page.text, `/topics/${topic}/flag`), { reason: 'other' }).expect(400);
    expect(alertOf(wordless.text)).to.be.a('string').and.not.equal('');

    await submit(bob, formFor(page.text, `/topics/${topic}/replies`), { body: 'I take this back' }).expect(303);
    const mine = await bob.get(`/topics/${topic}`).expect(200);
    const own = formsOf(mine.text).filter((form) => /\/replies\/\d+\/delete$/.test(form.action));
    expect(own, 'a delete button on his own reply only').to.have.length(1);
    await submit(bob, own[0]!).expect(303);
    const replies = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies as { deleted: boolean }[];
    expect(replies.map((reply) => reply.deleted)).to.deep.equal([false, true]);
  });

  it('follows and blocks a member from their page, as the API does, and undoes each; not on one’s own page', async () => {
    const bob = await signedInAs('bob');
    for (const [act, undo] of [
      ['follow', 'unfollow'],
      ['block', 'unblock'],
    ] as const) {
      const page = await bob.get('/alice').expect(200);
      const done = await submit(bob, formFor(page.text, `/alice/${act}`)).expect(303);
      expect(done.headers.location).to.equal('/alice');
      const pressed = await bob.get('/alice').expect(200);
      expect(pressed.text, act).to.match(new RegExp(`action="/alice/${undo}"[^]*?aria-pressed="true"`));
      if (act === 'follow') {
        const followers = (await api().get('/api/v3/users/alice/followers').expect(200)).body.followers as { login: string }[];
        expect(followers.map((user) => user.login)).to.deep.equal(['bob']);
      }
      await submit(bob, formFor(pressed.text, `/alice/${undo}`)).expect(303);
    }
    expect((await api().get('/api/v3/users/alice/followers').expect(200)).body.followers).to.deep.equal([]);
    const own = await bob.get('/bob').expect(200);
    expect(own.text).not.to.include('action="/bob/follow"');
  });

  it('blocks a node from its page: its topics leave the reader’s lists (the API’s BlockNode), until unblocked', async () => {
    const bob = await signedInAs('bob');
    const [{ node_id: node }] = await testEnv().sql<{ node_id: number }>('select node_id from topics where id = $1', [topic]);
    const titlesOf = async (browser: Browser | ReturnType<typeof api>) =>
      [...(await browser.get('/topics').expect(200)).text.matchAll(/<a class="title" href="\/topics\/\d+">([^<]*)</g)].map(
        (match) => match[1],
      );
    expect(await titlesOf(bob)).to.deep.equal(['Talk to me']);
    const nodePage = await bob.get(`/topics/node${node}`).expect(200);
    expect(nodePage.text).to.match(new RegExp(`action="/nodes/${node}/block"[^]*?aria-pressed="false"`));
    const done = await submit(bob, formFor(nodePage.text, `/nodes/${node}/block`)).expect(303);
    expect(done.headers.location).to.equal(`/topics/node${node}`);
    const blocked = await bob.get(`/topics/node${node}`).expect(200);
    expect(blocked.text).to.match(new RegExp(`action="/nodes/${node}/unblock"[^]*?aria-pressed="true"`));
    expect(blocked.text).to.include('You have blocked this node');
    expect(await titlesOf(bob), 'out of the blocker’s lists').to.deep.equal([]);
    expect(await titlesOf(api()), 'in everyone else’s').to.deep.equal(['Talk to me']);
    expect((await api().get(`/topics/node${node}`).expect(200)).text).not.to.include(`/nodes/${node}/`);
    await submit(bob, formFor(blocked.text, `/nodes/${node}/unblock`)).expect(303);
    expect(await titlesOf(bob)).to.deep.equal(['Talk to me']);
  });

  it('quotes a reply into the form, and edits one’s own reply (with a preview) where the API lets one', async () => {
    const bob = await signedInAs('bob');
    const dave = await makeUser('dave');
    const theirs = (
      await api().post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'line one\nline two' }).expect(200)
    ).body.reply.id as number;
    const quoting = await bob.get(`/topics/${topic}?quote=${theirs}`).expect(200);
    expect(quoting.text).to.include('@dave\n&gt; line one\n&gt; line two\n\n</textarea>');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    expect(page.text, 'no edit link on someone else’s reply').not.to.include(`/replies/${theirs}/edit`);
    await bob.get(`/topics/${topic}/replies/${theirs}/edit`).expect(404);

    await submit(bob, formFor(page.text, `/topics/${topic}/replies`), { body: 'first thought' }).expect(303);
    const mine = ((await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies as { id: number }[]).at(-1)!.id;
    const edit = await bob.get(`/topics/${topic}/replies/${mine}/edit`).expect(200);
    expect(edit.text).to.include('first thought</textarea>');
    const action = `/topics/${topic}/replies/${mine}/edit`;
    const preview = await submit(bob, formFor(edit.text, action), { body: 'second *thought*', preview: '1' }).expect(200);
    expect(preview.text).to.include('<em>thought</em>');
    const saved = await submit(bob, formFor(preview.text, action), { body: 'second *thought*' }).expect(303);
    expect(saved.headers.location).to.equal(`/topics/${topic}#reply2`);
    const shown = (await api().get(`/api/v3/replies/${mine}`).expect(200)).body.reply;
    expect(shown.body).to.equal('second *thought*');
  });

  describe('a new topic', () => {
    it('starts a topic from /topics/new: previewed first, then published, and the browser goes to it', async () => {
      const bob = await signedInAs('bob');
      const form = await bob.get('/topics/new').expect(200);
      expect(form.text).to.include('<option value>Choose a node</option>');
      const general = (await api().get('/api/v3/nodes').expect(200)).body.nodes.find(
        (n: { name: string }) => n.name === 'General',
      );
      const fields = { node_id: String(general.id), title: 'From the browser', body: 'Hello *world*' };
      const preview = await submit(bob, formFor(form.text, '/topics'), { ...fields, preview: '1' }).expect(200);
      expect(preview.text).to.include('<em>world</em>').and.include('value="From the browser"');
      expect(preview.text).to.match(new RegExp(`<option value="${general.id}" selected`));
      const created = await submit(bob, formFor(preview.text, '/topics'), fields).expect(303);
      const id = Number(/^\/topics\/(\d+)$/.exec(created.headers.location!)![1]);
      const shown = (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic;
      expect(shown).to.deep.include({ title: 'From the browser', body: 'Hello *world*', node_id: general.id });
    });

    it('edits one’s own topic from its page (title, node, body; a preview first), and nobody else’s', async () => {
      const bob = await signedInAs('bob');
      await bob.get(`/topics/${topic}/edit`).expect(404);
      expect((await bob.get(`/topics/${topic}`).expect(200)).text).not.to.include(`/topics/${topic}/edit`);
      const general = (await api().get('/api/v3/nodes').expect(200)).body.nodes.find(
        (n: { name: string }) => n.name === 'General',
      );
      const form = await bob.get('/topics/new').expect(200);
      const created = await submit(bob, formFor(form.text, '/topics'), {
        node_id: String(general.id),
        title: 'First title',
        body: 'first body',
      }).expect(303);
      const id = Number(/(\d+)$/.exec(created.headers.location!)![1]);
      const page = await bob.get(`/topics/${id}`).expect(200);
      expect(page.text).to.include(`href="/topics/${id}/edit"`);
      const edit = await bob.get(`/topics/${id}/edit`).expect(200);
      expect(edit.text).to.include('value="First title"').and.include('first body</textarea>');
      const fields = { node_id: String(general.id), title: 'Second title', body: 'second *body*' };
      const preview = await submit(bob, formFor(edit.text, `/topics/${id}/edit`), { ...fields, preview: '1' }).expect(200);
      expect(preview.text).to.include('<em>body</em>');
      await submit(bob, formFor(preview.text, `/topics/${id}/edit`), fields).expect(303);
      expect((await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic).to.deep.include({
        title: 'Second title',
        body: 'second *body*',
      });
    });

    it('shows the form again with the API’s reason and what was typed; a browser not signed in goes to sign in', async () => {
      const bob = await signedInAs('bob');
      const form = await bob.get('/topics/new').expect(200);
      const refused = await submit(bob, formFor(form.text, '/topics'), { node_id: '999999', title: 'Lost', body: 'keep me' });
      expect(refused.status).to.equal(400);
      expect(alertOf(refused.text)).to.be.a('string').and.not.equal('');
      expect(refused.text).to.include('value="Lost"').and.include('keep me</textarea>');
      const stranger = await api().get('/topics/new').expect(303);
      expect(stranger.headers.location).to.equal('/account/sign-in?lang=en');
    });

    it('tells the author a held topic waits for review, and shows it to nobody else (HOLD_FIRST_POSTS)', async () => {
      const { app } = configuredWith({ review: { ...testEnv().config.review, holdFirstPosts: 1 } });
      const bob = await signedInAs('bob', { app });
      await testEnv().sql("update users set self_registered = true where login = 'bob'");
      const form = await bob.get('/topics/new').expect(200);
      const general = (await api().get('/api/v3/nodes').expect(200)).body.nodes.find(
        (n: { name: string }) => n.name === 'General',
      );
      const created = await submit(bob, formFor(form.text, '/topics'), {
        node_id: String(general.id),
        title: 'Wait for me',
        body: 'first',
      }).expect(303);
      const page = await bob.get(created.headers.location!).expect(200);
      expect(page.text).to.include('waits for a moderator’s review');
      await api().get(created.headers.location!).expect(404);
    });
  });

  describe('/notifications', () => {
    it('lists them as the API does, marks those shown read, counts the unread in the header, deletes one or all', async () => {
      const carol = await signedInAs('carol');
      const [row] = await testEnv().sql<{ id: number }>("select id from users where login = 'carol'");
      const carolsTopic = await makeTopic({ id: row!.id, login: 'carol', role: 'member' }, await makeNode('Other'), 'Carol asks');
      const dave = await makeUser('dave');
      await api().post(`/api/v3/topics/${carolsTopic}/replies`).set(dave.auth).send({ body: 'an answer' }).expect(200);
      await api().post(`/api/v3/topics/${carolsTopic}/replies`).set(dave.auth).send({ body: 'hey @carol' }).expect(200);

      const front = await carol.get('/').expect(200);
      expect(front.text).to.include('aria-label="Notifications, 2 unread"');
      const first = await carol.get('/notifications').expect(200);
      expect(first.text).to.match(/dave<\/a> replied to <a href="\/topics\/\d+">Carol asks<\/a>/);
      expect(first.text).to.match(/dave<\/a> mentioned you in <a href="\/topics\/\d+">Carol asks<\/a>/);
      expect(first.text.match(/class="notification unread"/g)).to.have.length(2);
      const again = await carol.get('/notifications').expect(200);
      expect(again.text).not.to.include('notification unread');
      expect(again.text).to.include('aria-label="Notifications"');

      const one = formsOf(again.text).find((form) => /^\/notifications\/\d+\/delete$/.test(form.action))!;
      await submit(carol, one).expect(303);
      expect((await carol.get('/notifications').expect(200)).text.match(/class="notification"/g)).to.have.length(1);
      await submit(carol, formFor((await carol.get('/notifications').expect(200)).text, '/notifications/clear')).expect(303);
      expect((await carol.get('/notifications').expect(200)).text).to.include('No notifications.');
      const stranger = await api().get('/notifications').expect(303);
      expect(stranger.headers.location).to.equal('/account/sign-in?lang=en');
    });
  });
});

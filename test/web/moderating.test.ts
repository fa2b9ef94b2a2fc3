import { expect } from 'chai';
import { api, makeGroup, makeNode, makeReply, makeTopic, makeUser, setNodeAccess, type TestUser } from '../support/builders.js';
import { configuredWith, testEnv } from '../support/env.js';
import { checkedApi } from '../support/openapi.js';
import { type Browser, formFor, submit, alertOf, signedInAs } from '../support/page-forms.js';
import { formsOf, type PageForm } from '../support/oauth-flow.js';

/**
 * Moderation in a browser (contract §21b), for administrators: a topic's panel on its page, a member's silence and
 * suspension from their profile, and the review queue (§18) at /admin/review. Driven as a browser drives the pages
 * (signed in through the sign-in page, each form with its hidden fields and the button pressed, a redirect after each
 * success), and checked through the API and the audit log: every act is the API's (or forumctl's) use case.
 */

/** The button of `form` whose value is `value` (the act it asks for): it must be on the page. */
function press(form: PageForm, name: string, value: string): Record<string, string> {
  const button = form.buttons.find((candidate) => candidate.name === name && candidate.value === value);
  if (!button) throw new Error(`no button ${name}=${value} in the form to ${form.action}: ${JSON.stringify(form.buttons)}`);
  return { [name]: value };
}

async function auditOf(targetType: string, targetId: number) {
  return testEnv().sql<{ action: string; reason: string | null; login: string }>(
    `select a.action, a.reason, u.login from audit_entries a join users u on u.id = a.actor_id
      where a.target_type = $1 and a.target_id = $2 order by a.id`,
    [targetType, targetId],
  );
}

describe('the forum in a browser: moderation for administrators (contract §21b)', () => {
  let alice: TestUser;
  let general: number;
  let topic: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    general = await makeNode('General');
    topic = await makeTopic(alice, general, 'Mind the gap', 'Some words');
  });

  const apiTopic = async (id: number) => (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic;

  describe('a topic’s panel', () => {
    it('pins, marks excellent, closes, moves, bans and deletes from the page: the API’s acts, each audited', async () => {
      const root = await signedInAs('root', { admin: true });
      const act = async (value: string, typed: Record<string, string> = {}, from = `/topics/${topic}`) => {
        const page = await root.get(from).expect(200);
        const form = formFor(page.text, `/topics/${topic}/moderate`);
        return submit(root, form, { ...press(form, 'act', value), ...typed }).expect(303);
      };

      const pinned = await act('suggest', { reason: 'for the front page' });
      expect(pinned.headers.location).to.equal(`/topics/${topic}`);
      expect((await apiTopic(topic)).suggested_at).to.be.a('string');
      await act('excellent');
      expect((await apiTopic(topic)).excellent).to.equal(1);
      await act('close');
      expect((await apiTopic(topic)).closed_at).to.be.a('string');
      // The page says so (pinned, excellent, closed); the panel now offers to undo each; the header leads to the queue.
      const marked = await root.get(`/topics/${topic}`).expect(200);
      expect(marked.text).to.match(/<h1>[^<]*<\/h1>[\s\S]*Pinned[\s\S]*Excellent[\s\S]*Closed/);
      expect(marked.text).to.include('<a href="/admin/review">Review</a>');
      const panel = formFor(marked.text, `/topics/${topic}/moderate`);
      for (const undo of ['unsuggest', 'unexcellent', 'open']) press(panel, 'act', undo);

      // Moving: the topic's moderation page lists the nodes.
      const elsewhere = await makeNode('Elsewhere');
      const moved = await act('move', { node_id: String(elsewhere), reason: 'belongs there' }, `/topics/${topic}/moderate`);
      expect(moved.headers.location).to.equal(`/topics/${topic}`);
      expect(await apiTopic(topic)).to.deep.include({ node_id: elsewhere, lock_node: true });

      await act('ban', { reason: 'off topic' });
      const banned = await apiTopic(topic);
      expect(banned.node_name).to.equal('NoPoint');
      const page = await root.get(`/topics/${topic}`).expect(200);
      expect(page.text).to.include('root banned this topic');

      const deleted = await act('delete', { reason: 'spam after all' });
      expect(deleted.headers.location).to.equal(`/topics/node${banned.node_id}`);
      await api().get(`/api/v3/topics/${topic}`).expect(404);

      const audit = await auditOf('Topic', topic);
      expect(audit.map((entry) => [entry.action, entry.reason])).to.deep.equal([
        ['topic.suggest', 'for the front page'],
        ['topic.excellent', null],
        ['topic.close', null],
        ['topic.move', 'belongs there'],
        ['topic.ban', 'off topic'],
        ['topic.delete', 'spam after all'],
      ]);
      expect(new Set(audit.map((entry) => entry.login))).to.deep.equal(new Set(['root']));
    });

    it('shows a refusal on the topic’s moderation page with what was typed (no node chosen, a node that is gone)', async () => {
      const root = await signedInAs('root', { admin: true });
      const page = await root.get(`/topics/${topic}/moderate`).expect(200);
      const form = formFor(page.text, `/topics/${topic}/moderate`);
      const unchosen = await submit(root, form, { ...press(form, 'act', 'move'), reason: 'keep me' }).expect(400);
      expect(alertOf(unchosen.text)).to.equal('Choose a node');
      expect(unchosen.text).to.include('value="keep me"');
      const gone = await submit(root, form, { act: 'move', node_id: '999999', reason: 'still here' }).expect(400);
      expect(alertOf(gone.text)).to.include('node 999999 not found');
      expect(gone.text).to.include('value="still here"');
      expect((await apiTopic(topic)).node_id).to.equal(general);
    });

    it('is not there for a member, whose forged form the API’s rule refuses (403) and changes nothing', async () => {
      const bob = await signedInAs('bob');
      const page = await bob.get(`/topics/${topic}`).expect(200);
      expect(page.text).not.to.include('/moderate').and.not.include('id="moderation"').and.not.include('href="/admin/review"');
      const csrf = formFor(page.text, `/topics/${topic}/replies`).fields.csrf_token!;
      for (const act of ['ban', 'suggest', 'delete']) {
        const forged = await bob.post(`/topics/${topic}/moderate`).type('form').send({ csrf_token: csrf, act }).expect(403);
        expect(alertOf(forged.text), act).to.equal('Only an administrator may do that.');
        expect(forged.text).not.to.include('id="moderation"');
      }
      await bob.get(`/topics/${topic}/moderate`).expect(404);
      await api().get(`/topics/${topic}/moderate`).expect(404);
      expect(await apiTopic(topic)).to.deep.include({ node_id: general, suggested_at: null });
      expect(await auditOf('Topic', topic)).to.deep.equal([]);
    });

    it('refuses a form without the session’s token (403), and sends a browser not signed in to sign in', async () => {
      const root = await signedInAs('root', { admin: true });
      const page = await root.get(`/topics/${topic}`).expect(200);
      const form = formFor(page.text, `/topics/${topic}/moderate`);
      await submit(root, form, { act: 'ban', csrf_token: 'not the token' }).expect(403);
      await root.post(`/topics/${topic}/moderate`).type('form').send({ act: 'ban' }).expect(403);
      const stranger = await api().post(`/topics/${topic}/moderate`).type('form').send({ act: 'ban' }).expect(303);
      expect(stranger.headers.location).to.equal('/account/sign-in?lang=en');
      expect((await apiTopic(topic)).node_id).to.equal(general);
    });
  });

  describe('a member’s panel', () => {
    it('silences from the profile: the member’s reply is refused, until the silence is lifted; each audited', async () => {
      const root = await signedInAs('root', { admin: true });
      const bob = await signedInAs('bob');
      const profile = await root.get('/bob').expect(200);
      const form = formFor(profile.text, '/admin/users/bob');
      const silenced = await submit(root, form, { ...press(form, 'act', 'silence'), days: '3', reason: 'cool down' }).expect(303);
      expect(silenced.headers.location).to.equal('/admin/users/bob');
      const standing = await root.get('/admin/users/bob').expect(200);
      expect(standing.text).to.include('Silenced until').and.include('Not suspended.');

      const topicPage = await bob.get(`/topics/${topic}`).expect(200);
      const refused = await submit(bob, formFor(topicPage.text, `/topics/${topic}/replies`), { body: 'let me speak' });
      expect(refused.status).to.equal(403);
      expect(alertOf(refused.text)).to.include('silenced');
      expect(refused.text).to.include('let me speak');

      const lift = formFor(standing.text, '/admin/users/bob');
      await submit(root, lift, press(lift, 'act', 'unsilence')).expect(303);
      expect((await root.get('/admin/users/bob').expect(200)).text).to.include('Not silenced.');
      await submit(bob, formFor(topicPage.text, `/topics/${topic}/replies`), { body: 'thank you' }).expect(303);

      const [user] = await testEnv().sql<{ id: number }>("select id from users where login = 'bob'");
      const audit = await auditOf('User', user!.id);
      expect(audit.map((entry) => [entry.action, entry.reason, entry.login])).to.deep.equal([
        ['user.silence', 'cool down', 'root'],
        ['user.unsilence', null, 'root'],
      ]);
    });

    it('suspends (ending the member’s browser session), shows a refusal with what was typed, and is not there for a member', async () => {
      const root = await signedInAs('root', { admin: true });
      const bob = await signedInAs('bob');
      const form = formFor((await root.get('/bob').expect(200)).text, '/admin/users/bob');
      const missing = await submit(root, form, { act: 'suspend', reason: 'wait' }).expect(400);
      expect(alertOf(missing.text)).to.include('days');
      expect(missing.text).to.include('value="wait"');
      await submit(root, form, { act: 'suspend', days: '7' }).expect(303);
      expect((await root.get('/admin/users/bob').expect(200)).text).to.include('Suspended until');
      const signedOut = await bob.get('/').expect(200);
      expect(signedOut.text).to.include('href="/account/sign-in"');

      const carol = await signedInAs('carol');
      const own = await carol.get('/carol').expect(200);
      expect(own.text).not.to.include('/admin/users/');
      await carol.get('/admin/users/bob').expect(404);
      const csrf = formFor((await carol.get(`/topics/${topic}`).expect(200)).text, `/topics/${topic}/replies`).fields.csrf_token;
      const forged = await carol.post('/admin/users/alice').type('form').send({ csrf_token: csrf, act: 'silence', days: '1' });
      expect(forged.status).to.equal(403);
      expect(alertOf(forged.text)).to.equal('Only an administrator may do that.');
      expect(forged.text).not.to.include('Standing');
      expect(await auditOf('User', alice.id)).to.deep.equal([]);
    });
  });

  describe('/admin/review', () => {
    it('lists a flagged reply for an administrator, with its text and flags; a member gets the not-found page', async () => {
      const bob = await makeUser('bob');
      const reply = await makeReply(bob, topic, 'Buy **cheap** watches');
      await api().post(`/api/v3/replies/${reply}/flag`).set(alice.auth).send({ reason: 'spam' }).expect(200);
      const root = await signedInAs('root', { admin: true });
      const queue = await root.get('/admin/review').expect(200);
      expect(queue.headers['cache-control']).to.equal('private, no-cache');
      expect(queue.text).to.include('Flagged reply').and.include('Buy <strong>cheap</strong> watches');
      expect(queue.text).to.match(/alice<\/a>: <strong>Spam<\/strong>/);
      const [item] = (
        await api()
          .get('/api/v3/admin/review')
          .set((await makeUser('admin2', 'admin')).auth)
          .expect(200)
      ).body.items as { id: number }[];
      const form = formFor(queue.text, `/admin/review/${item!.id}`);
      for (const action of ['agree', 'disagree', 'spammer']) press(form, 'action', action);

      const carol = await signedInAs('carol');
      const denied = await carol.get('/admin/review').expect(404);
      expect(denied.text).to.include('Not found').and.not.include('watches');
      await api().get('/admin/review').expect(404);
      const csrf = formFor((await carol.get(`/topics/${topic}`).expect(200)).text, `/topics/${topic}/replies`).fields.csrf_token;
      const forged = await carol.post(`/admin/review/${item!.id}`).type('form').send({ csrf_token: csrf, action: 'agree' });
      expect(forged.status).to.equal(403);
      expect(forged.text).not.to.include('watches');

      const done = await submit(root, form, { ...press(form, 'action', 'agree'), reason: 'spam', silence_days: '2' }).expect(303);
      expect(done.headers.location).to.equal('/admin/review');
      expect((await root.get('/admin/review').expect(200)).text).to.include('Nothing waits for review.');
      const resolved = await root.get('/admin/review?status=resolved').expect(200);
      expect(resolved.text).to.include('Deleted (flags agreed with)');
      const replies = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies as { deleted: boolean }[];
      expect(replies.map((each) => each.deleted)).to.deep.equal([true]);
      const audit = await auditOf('Reply', reply);
      expect(audit.map((entry) => [entry.action, entry.reason, entry.login])).to.deep.include(['review.agree', 'spam', 'root']);
      expect((await auditOf('User', bob.id)).map((entry) => entry.action)).to.deep.equal(['user.silence']);

      // Resolved already: the refusal is the core's, on the queue.
      const again = await submit(root, form, { action: 'agree', reason: 'twice' }).expect(400);
      expect(alertOf(again.text)).to.include(`#${item!.id}`).and.include('resolved already');
    });

    it('publishes a held post approved from the queue (HOLD_FIRST_POSTS)', async () => {
      const { app } = configuredWith({ review: { ...testEnv().config.review, holdFirstPosts: 1 } });
      const dave = await makeUser('dave');
      await testEnv().sql("update users set self_registered = true where login = 'dave'");
      await checkedApi(app).post(`/api/v3/topics/${topic}/replies`).set(dave.auth).send({ body: 'my first words' }).expect(200);
      expect((await api().get(`/topics/${topic}`).expect(200)).text).not.to.include('my first words');

      const root = await signedInAs('root', { admin: true });
      const queue = await root.get('/admin/review').expect(200);
      expect(queue.text).to.include('Held reply').and.include('my first words');
      const form = formsOf(queue.text).find((candidate) => candidate.action.startsWith('/admin/review/'))!;
      expect(form.buttons.filter((button) => button.name === 'action').map((button) => button.value)).to.deep.equal([
        'approve',
        'reject',
        'spammer',
      ]);
      await submit(root, form, press(form, 'action', 'approve')).expect(303);
      expect((await api().get(`/topics/${topic}`).expect(200)).text).to.include('my first words');
      const replies = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies as { body: string }[];
      expect(replies.map((each) => each.body)).to.deep.equal(['my first words']);
    });
  });
});

describe('the forum in a browser: moderation for a node’s moderators (contract §23)', () => {
  let keeper: Browser;
  let author: TestUser;
  let ruby: number;
  let rails: number;
  let go: number;

  beforeEach(async () => {
    keeper = await signedInAs('keeper');
    author = await makeUser('author');
    [ruby, rails, go] = [await makeNode('Ruby'), await makeNode('Rails'), await makeNode('Go')];
    const [row] = await testEnv().sql<{ id: number }>("select id from users where login = 'keeper'");
    await makeGroup('keepers', [{ id: row!.id, login: 'keeper', role: 'member' }]);
    for (const node of [ruby, rails]) await setNodeAccess(node, { moderators: ['keepers'] });
  });

  it('offers the panel on their node’s topics only, with the review queue, and moves between their nodes only', async () => {
    const inRuby = await makeTopic(author, ruby, 'In Ruby');
    const inGo = await makeTopic(author, go, 'In Go');

    const page = (await keeper.get(`/topics/${inRuby}`).expect(200)).text;
    expect(page).to.contain(`action="/topics/${inRuby}/moderate`);
    expect(page, 'their queue holds their nodes’ items').to.contain('<a href="/admin/review">Review queue</a>');
    expect((await keeper.get(`/topics/${inGo}`).expect(200)).text).not.to.contain(`/topics/${inGo}/moderate`);

    const moderate = (await keeper.get(`/topics/${inRuby}/moderate`).expect(200)).text;
    const options = [...moderate.matchAll(/<option value="(\d+)"/g)].map((match) => Number(match[1]));
    expect(options.sort((a, b) => a - b)).to.deep.equal([ruby, rails].sort((a, b) => a - b));
    await keeper.get(`/topics/${inGo}/moderate`).expect(404);
    // A move elsewhere (a forged form) is refused in the core's words, which say why.
    const form = formFor(moderate, `/topics/${inRuby}/moderate`);
    const elsewhere = await submit(keeper, form, { act: 'move', node_id: String(go) }).expect(403);
    expect(alertOf(elsewhere.text)).to.equal('A moderator moves topics only between nodes they moderate.');
    expect((await api().get(`/api/v3/topics/${inRuby}`).expect(200)).body.topic.node_id).to.equal(ruby);
  });

  it('shows one Delete on a topic they moderate, the panel’s; its author alone keeps their own', async () => {
    const inRuby = await makeTopic(author, ruby, 'In Ruby');
    /** The controls of a page that delete the topic: its own delete form, and the panel's delete button. */
    const deletes = (html: string) =>
      formsOf(html).flatMap((form) => [
        ...(form.action === `/topics/${inRuby}/delete` ? ['own'] : []),
        ...form.buttons.filter((button) => button.name === 'act' && button.value === 'delete').map(() => 'panel'),
      ]);
    expect(deletes((await keeper.get(`/topics/${inRuby}`).expect(200)).text)).to.deep.equal(['panel']);
    const root = await signedInAs('root', { admin: true });
    expect(deletes((await root.get(`/topics/${inRuby}`).expect(200)).text)).to.deep.equal(['panel']);
    const own = await signedInAs('writer');
    const [row] = await testEnv().sql<{ id: number }>("select id from users where login = 'writer'");
    const mine = await makeTopic({ id: row!.id, login: 'writer', role: 'member' }, ruby, 'Mine');
    const ownPage = (await own.get(`/topics/${mine}`).expect(200)).text;
    expect(formsOf(ownPage).map((form) => form.action)).to.include(`/topics/${mine}/delete`);

    const page = (await keeper.get(`/topics/${inRuby}`).expect(200)).text;
    const form = formFor(page, `/topics/${inRuby}/moderate`);
    await submit(keeper, form, { ...press(form, 'act', 'delete'), reason: 'duplicate' }).expect(303);
    await api().get(`/api/v3/topics/${inRuby}`).expect(404);
    expect((await auditOf('Topic', inRuby)).map((entry) => [entry.action, entry.reason, entry.login])).to.deep.equal([
      ['topic.delete', 'duplicate', 'keeper'],
    ]);
  });

  it('opens the review queue with the items of their nodes’ posts, resolves them, and leaves the rest to administrators', async () => {
    const inRuby = await makeTopic(author, ruby, 'In Ruby');
    const inGo = await makeTopic(author, go, 'In Go');
    const flagger = await makeUser('flagger');
    const rubyReply = await makeReply(author, inRuby, 'Buy cheap rubies');
    const goReply = await makeReply(author, inGo, 'Buy cheap gophers');
    for (const reply of [rubyReply, goReply]) {
      await api().post(`/api/v3/replies/${reply}/flag`).set(flagger.auth).send({ reason: 'spam' }).expect(200);
    }

    const queue = await keeper.get('/admin/review').expect(200);
    expect(queue.text).to.include('Buy cheap rubies').and.not.include('Buy cheap gophers');
    expect(queue.text).to.include('The flagged and held posts of the nodes you moderate.');
    const form = formsOf(queue.text).find((candidate) => candidate.action.startsWith('/admin/review/'))!;
    expect(form.buttons.filter((button) => button.name === 'action').map((button) => button.value)).to.deep.equal([
      'agree',
      'disagree',
    ]);
    expect(queue.text).not.to.include('name="silence_days"');

    // What stays the administrators': refused on the queue, nothing done.
    const spammer = await submit(keeper, form, { action: 'spammer' }).expect(403);
    expect(alertOf(spammer.text)).to.include('Only an administrator may do that.');
    expect(spammer.text).to.include('Buy cheap rubies');
    const [standing] = await testEnv().sql<{ role: string }>("select role from users where login = 'author'");
    expect(standing!.role).to.equal('member');

    const done = await submit(keeper, form, { action: 'agree', reason: 'spam' }).expect(303);
    expect(done.headers.location).to.equal('/admin/review');
    expect((await keeper.get('/admin/review').expect(200)).text).to.include('Nothing waits for review.');
    const resolved = (await keeper.get('/admin/review?status=resolved').expect(200)).text;
    expect(resolved).to.include('Deleted (flags agreed with)').and.not.include('Buy cheap gophers');
    expect((await auditOf('Reply', rubyReply)).map((entry) => [entry.action, entry.login])).to.deep.include([
      'review.agree',
      'keeper',
    ]);
    // The administrators' queue still holds the other node's item; a member who moderates nothing gets the not-found page.
    const root = await signedInAs('root', { admin: true });
    expect((await root.get('/admin/review').expect(200)).text).to.include('Buy cheap gophers');
    const member = await signedInAs('carol');
    expect((await member.get('/admin/review').expect(404)).text).to.include('Not found');
  });
});

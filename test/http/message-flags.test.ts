import { expect } from 'chai';
import { api, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { signedInAs } from '../support/page-forms.js';
import { testEnv } from '../support/env.js';

/**
 * Contract §24 with §18: a participant who flags a message shows it, and only it, to the administrators who review
 * it; each look is audited; nobody else learns anything of the conversation.
 */
describe('flagged private messages (contract §24, §18)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let root: TestUser;
  let conversation: number;
  let spam: number;

  const items = async () =>
    (await api().get('/api/v3/admin/review').set(root.auth).expect(200)).body.items as Record<string, any>[];
  const looks = async () =>
    (await api().get('/api/v3/admin/audit?action=review.message_viewed').set(root.auth).expect(200)).body.entries as Record<
      string,
      any
    >[];

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    carol = await makeUser('carol');
    root = await makeUser('root', 'admin');
    const sent = await api()
      .post('/api/v3/messages')
      .set(alice.auth)
      .send({ to: ['bob'], title: 'A very private title', body: 'the private opening' })
      .expect(200);
    conversation = sent.body.message.id;
    await api().post(`/api/v3/messages/${conversation}/replies`).set(bob.auth).send({ body: 'an innocent answer' }).expect(200);
    await api().post(`/api/v3/messages/${conversation}/replies`).set(alice.auth).send({ body: 'buy cheap pills' }).expect(200);
    const [row] = await testEnv().sql<{ id: number }>('select max(id) as id from replies where topic_id = $1', [conversation]);
    spam = row!.id;
  });

  it('a participant flags a message; its reviewers see that message alone, and each look is audited', async () => {
    await api().post(`/api/v3/replies/${spam}/flag`).set(bob.auth).send({ reason: 'spam' }).expect(200, { ok: 1 });
    expect(await looks()).to.deep.equal([]);

    const [item] = await items();
    expect(item).to.include({ target_type: 'Reply', target_id: spam, kind: 'flag' });
    expect(item).not.to.have.property('reply');
    expect(item).not.to.have.property('topic');
    expect(item!.message).to.include({ id: spam, body: 'buy cheap pills', deleted: false });
    expect(item!.message.user.login).to.equal('alice');
    const shown = JSON.stringify(item);
    for (const secret of ['A very private title', 'the private opening', 'an innocent answer'])
      expect(shown).not.to.contain(secret);

    const one = (await api().get(`/api/v3/admin/review/${item!.id}`).set(root.auth).expect(200)).body.item;
    expect(one.message.body).to.equal('buy cheap pills');
    const entries = await looks();
    expect(entries).to.have.length(2, 'the list and the item, each a look');
    expect(entries[0]).to.include({ target_type: 'Reply', target_id: spam });
    expect(entries[0].actor.login).to.equal('root');
    // The reviewer still cannot read the conversation.
    await api().get(`/api/v3/messages/${conversation}`).set(root.auth).expect(404);
    await api().get(`/api/v3/messages/${conversation}/replies`).set(root.auth).expect(404);

    // Agreeing deletes that message: its place stays, with no text, for those in the conversation.
    await api().post(`/api/v3/admin/review/${item!.id}`).set(root.auth).send({ action: 'agree' }).expect(200);
    const replies = (await api().get(`/api/v3/messages/${conversation}/replies`).set(bob.auth).expect(200)).body.replies;
    expect(replies.map((r: { body: string; deleted: boolean }) => [r.body, r.deleted])).to.deep.equal([
      ['an innocent answer', false],
      ['', true],
    ]);
    const [counts] = await testEnv().sql<{ replies_count: number }>('select replies_count from users where id = $1', [alice.id]);
    expect(counts!.replies_count).to.equal(0, 'the forum’s counters never counted it, nor uncount it');
  });

  it('the review page shows the flagged message alone, says the look is recorded, and records it', async () => {
    await api().post(`/api/v3/replies/${spam}/flag`).set(bob.auth).send({ reason: 'spam' }).expect(200);
    const reviewer = await signedInAs('keeper', { admin: true });
    const page = await reviewer.get('/admin/review').expect(200);
    expect(page.text).to.contain('A private message').and.to.contain('buy cheap pills');
    expect(page.text).to.contain('your seeing it is written in the audit log');
    for (const secret of ['A very private title', 'the private opening', 'an innocent answer'])
      expect(page.text).not.to.contain(secret);
    expect(page.text).not.to.contain(`/topics/${conversation}`);
    const entries = await looks();
    expect(entries.map((entry) => entry.actor.login)).to.deep.equal(['keeper']);
  });

  it('only a participant may flag one (404 otherwise, an administrator included); the opening message too', async () => {
    for (const outsider of [carol, root]) {
      await api().post(`/api/v3/replies/${spam}/flag`).set(outsider.auth).send({ reason: 'spam' }).expect(404);
      await api().post(`/api/v3/messages/${conversation}/flag`).set(outsider.auth).send({ reason: 'spam' }).expect(404);
    }
    await api().post(`/api/v3/messages/${conversation}/flag`).set(alice.auth).send({ reason: 'spam' }).expect(400);
    await api()
      .post(`/api/v3/messages/${conversation}/flag`)
      .set(bob.auth)
      .send({ reason: 'other', message: 'not nice' })
      .expect(200);
    const [item] = await items();
    expect(item).to.include({ target_type: 'Topic', target_id: conversation });
    expect(item!.message).to.include({ body: 'the private opening' });
    expect(JSON.stringify(item)).not.to.contain('A very private title');
  });

  it('tells no webhook of a flag on a message, and forumctl review shows what the API shows', async () => {
    await forumctl(['webhooks', 'create', 'https://hooks.example/forum', '--events', '*', '--private-nodes']);
    await api().post(`/api/v3/replies/${spam}/flag`).set(bob.auth).send({ reason: 'spam' }).expect(200);
    const [row] = await testEnv().sql<{ count: number }>('select count(*)::int as count from webhook_deliveries');
    expect(row!.count).to.equal(0);
    const listed = await forumctl(['review', 'list']);
    expect(listed.stdout).to.contain(`private message (reply ${spam})`).and.to.contain('buy cheap pills');
    expect(listed.stdout).not.to.contain('A very private title');
    const [item] = await testEnv().sql<{ id: number }>('select id from review_items');
    const shown = await forumctl(['review', 'show', String(item!.id)]);
    expect(shown.stdout).to.contain('buy cheap pills').and.to.contain('written in the audit log');
    expect(shown.stdout).not.to.contain('an innocent answer');
    expect(await looks()).to.have.length(2, 'each look through forumctl is audited too');
  });
});

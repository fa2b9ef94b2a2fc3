import { expect } from 'chai';
import { api, makeGroup, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { checkedApi } from '../support/openapi.js';
import { formsOf } from '../support/oauth-flow.js';
import { type Browser, alertOf, formFor, signedInAs, submit } from '../support/page-forms.js';

/**
 * Private messages in a browser (contract §24, §21): `/messages`, the new message form, a conversation's page and its
 * forms, and the link on a profile, driven as a browser drives them. The API's use cases decide who sees a
 * conversation: its pages are the not-found page to anyone outside it, administrators included.
 */

/** Starts a conversation over the API, as `from`; returns its id. */
async function send(from: TestUser, to: string[], title = 'About the meetup', body = 'Shall we meet at **six**?') {
  const res = await api().post('/api/v3/messages').set(from.auth).send({ to, title, body }).expect(200);
  return res.body.message.id as number;
}

/** The conversations a list page shows, in order: [title, its "n new" marker or null]. */
const listed = (html: string) =>
  [
    ...html.matchAll(
      /<li class="topic conversation"><a class="title" href="\/messages\/\d+">([^<]*)<\/a>(?: <span class="new-count">([^<]*)<\/span>)?/g,
    ),
  ].map((match) => [match[1], match[2] ?? null]);

/** Who a conversation's page (or a list's item) says takes part. */
const takingPart = (html: string) =>
  /<p class="muted taking-part">([\s\S]*?)<\/p>/
    .exec(html)?.[1]
    ?.replace(/<[^>]+>/g, '')
    .trim();

/** The form's token of a signed-in browser (any of its pages' forms carries it). */
async function tokenOf(browser: Browser): Promise<string> {
  const page = await browser.get('/messages/new').expect(200);
  return formFor(page.text, '/messages').fields.csrf_token!;
}

describe('private messages in a browser (contract §24)', () => {
  let alice: TestUser;
  let bob: Browser;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await signedInAs('bob');
  });

  describe('/messages', () => {
    it('lists the reader’s conversations, newest activity first, with who takes part and what is new; kept by no cache', async () => {
      const first = await send(alice, ['bob'], 'First');
      await send(alice, ['bob'], 'Second');
      const page = await bob.get('/messages').expect(200);
      expect(page.headers['cache-control']).to.equal('private, no-store');
      expect(page.headers).not.to.have.property('etag');
      expect(listed(page.text)).to.deep.equal([
        ['Second', '1 new'],
        ['First', '1 new'],
      ]);
      expect(page.text).to.include('With <a href="/alice">alice</a>, <a href="/bob">bob</a>');
      expect(page.text).to.include('<a class="act-link" href="/messages/new">New message</a>');

      // Read, it is new no more; answered, it comes first.
      await bob.get(`/messages/${first}`).expect(200);
      await api().post(`/api/v3/messages/${first}/replies`).set(alice.auth).send({ body: 'Well?' }).expect(200);
      const after = await bob.get('/messages').expect(200);
      expect(listed(after.text)).to.deep.equal([
        ['First', '1 new'],
        ['Second', '1 new'],
      ]);
      expect(after.text).to.match(/last message by <a href="\/alice">alice<\/a>/);
      expect(listed((await bob.get('/messages?lang=zh-CN').expect(200)).text)[0]).to.deep.equal(['First', '1 条新回复']);
    });

    it('says there is none yet, and pages like the other lists (20 a page)', async () => {
      const empty = await bob.get('/messages').expect(200);
      expect(empty.text).to.include('No messages yet. To write to someone, open their profile and choose “Send a message”.');

      // An account older than a day: past the new accounts' messages a day.
      await testEnv().sql("update users set created_at = now() - interval '30 days' where id = $1", [alice.id]);
      for (let n = 1; n <= 21; n++) await send(alice, ['bob'], `Conversation ${n}`);
      const first = await bob.get('/messages').expect(200);
      expect(listed(first.text)).to.have.length(20);
      expect(listed(first.text)[0]![0]).to.equal('Conversation 21');
      expect(first.text).to.include('<a href="/messages?page=2" rel="next">');
      const second = await bob.get('/messages?page=2').expect(200);
      expect(listed(second.text)).to.deep.equal([['Conversation 1', '1 new']]);
    });

    it('sends a browser that is not signed in to sign in, from every page of messages', async () => {
      const id = await send(alice, ['bob']);
      const anonymous = checkedApi(testEnv().app, { cookies: true });
      for (const path of ['/messages', '/messages/new?to=alice', `/messages/${id}`]) {
        const res = await anonymous.get(path).expect(303);
        expect(res.headers.location, path).to.equal('/account/sign-in?lang=en');
      }
    });
  });

  describe('a new message', () => {
    it('starts one from the form (to whom prefilled from ?to=), a preview first, then goes to it', async () => {
      const form = await bob.get('/messages/new?to=alice').expect(200);
      expect(form.headers['cache-control']).to.equal('private, no-store');
      expect(form.text).to.include('<input type="text" id="message-to" name="to" value="alice"');
      const fields = { to: 'alice', title: 'Lunch?', body: 'At *noon*?' };
      const preview = await submit(bob, formFor(form.text, '/messages'), { ...fields, preview: '1' }).expect(200);
      expect(preview.text).to.include('<em>noon</em>');
      expect(preview.text).to.include('value="alice"').and.include('value="Lunch?"');
      const sent = await submit(bob, formFor(preview.text, '/messages'), fields).expect(303);
      const id = Number(/^\/messages\/(\d+)$/.exec(sent.headers.location!)![1]);

      const seen = (await api().get(`/api/v3/messages/${id}`).set(alice.auth).expect(200)).body.message;
      expect(seen).to.include({ title: 'Lunch?', body: 'At *noon*?' });
      expect(seen.participants.map((user: { login: string }) => user.login)).to.have.members(['bob', 'alice']);
    });

    it('shows a refusal on the form with the API’s words, keeping what was typed (a name of nobody)', async () => {
      const form = formFor((await bob.get('/messages/new').expect(200)).text, '/messages');
      const typed = { to: 'alice, nobody9', title: 'Kept title', body: 'Kept as typed' };
      const refused = await submit(bob, form, typed).expect(400);
      expect(alertOf(refused.text)).to.equal('to names no user or group: nobody9.');
      expect(refused.text).to.include('value="alice, nobody9"').and.include('value="Kept title"').and.include('Kept as typed');
      const inChinese = await submit(bob, form, typed).set('Accept-Language', 'zh-CN').expect(400);
      expect(alertOf(inChinese.text)).to.equal('没有名为 nobody9 的用户或小组。');

      const alone = await submit(bob, form, { to: 'bob', title: 'Me', body: 'Myself' }).expect(400);
      expect(alertOf(alone.text)).to.equal('A conversation needs someone besides you.');
      expect((await api().get('/api/v3/messages').set(alice.auth).expect(200)).body.messages).to.deep.equal([]);
    });
  });

  describe('a conversation’s page', () => {
    let id: number;

    beforeEach(async () => {
      id = await send(alice, ['bob'], 'About the meetup');
      await api().post(`/api/v3/messages/${id}/replies`).set(alice.auth).send({ body: 'Or at *seven*.' }).expect(200);
    });

    it('shows its title, who takes part, the opening message and the messages; reading it reads them', async () => {
      expect(listed((await bob.get('/messages').expect(200)).text)).to.deep.equal([['About the meetup', '2 new']]);
      const page = await bob.get(`/messages/${id}`).expect(200);
      expect(page.headers['cache-control']).to.equal('private, no-store');
      expect(page.text).to.include('<h1>About the meetup</h1>');
      expect(takingPart(page.text)).to.equal('With alice, bob');
      expect(page.text).to.include('Shall we meet at <strong>six</strong>?');
      expect(page.text).to.match(/id="reply1"[\s\S]*Or at <em>seven<\/em>\./);
      // A message has none of a topic's reply acts (no quote, edit, flag or delete leading to a topic's paths).
      expect(page.text)
        .not.to.match(/\/topics\/\d/)
        .and.not.to.include('<details class="post-acts">');
      expect(listed((await bob.get('/messages').expect(200)).text)).to.deep.equal([['About the meetup', null]]);
    });

    it('replies from the page (a preview first), the browser going to the message by its floor', async () => {
      const page = await bob.get(`/messages/${id}`).expect(200);
      const form = formFor(page.text, `/messages/${id}/replies`);
      const preview = await submit(bob, form, { body: 'Six *it is*', preview: '1' }).expect(200);
      expect(preview.text).to.include('<em>it is</em>');
      const sent = await submit(bob, formFor(preview.text, `/messages/${id}/replies`), { body: 'Six *it is*' }).expect(303);
      expect(sent.headers.location).to.equal(`/messages/${id}#reply2`);
      const replies = (await api().get(`/api/v3/messages/${id}/replies`).set(alice.auth).expect(200)).body.replies;
      expect(replies.map((reply: { body: string }) => reply.body)).to.deep.equal(['Or at *seven*.', 'Six *it is*']);

      const empty = await submit(bob, form, { body: '   ' }).expect(400);
      expect(alertOf(empty.text)).to.be.a('string').and.not.equal('');
      expect(empty.text).to.include('<h1>About the meetup</h1>');
    });

    it('adds people, who can then read it; a name of nobody is refused on the page, keeping the names', async () => {
      const carol = await makeUser('carol');
      const page = await bob.get(`/messages/${id}`).expect(200);
      const form = formFor(page.text, `/messages/${id}/participants`);
      const refused = await submit(bob, form, { to: 'carol nobody9' }).expect(400);
      expect(alertOf(refused.text)).to.equal('to names no user or group: nobody9.');
      expect(refused.text).to.include('<input type="text" id="add-to" name="to" value="carol nobody9"');
      await api().get(`/api/v3/messages/${id}`).set(carol.auth).expect(404);

      await makeGroup('ruby-team', []);
      await submit(bob, form, { to: 'carol, ruby-team' }).expect(303).expect('Location', `/messages/${id}`);
      const after = await bob.get(`/messages/${id}`).expect(200);
      expect(takingPart(after.text)).to.equal('With alice, bob, carol, ruby-team (group)');
      await api().get(`/api/v3/messages/${id}`).set(carol.auth).expect(200);
    });

    it('leaves: back to the list, and the conversation is then not there for the one who left', async () => {
      const page = await bob.get(`/messages/${id}`).expect(200);
      await submit(bob, formFor(page.text, `/messages/${id}/leave`))
        .expect(303)
        .expect('Location', '/messages');
      expect(listed((await bob.get('/messages').expect(200)).text)).to.deep.equal([]);
      await bob.get(`/messages/${id}`).expect(404);
      await api().get(`/api/v3/messages/${id}`).set(alice.auth).expect(200);
    });

    for (const who of ['another member', 'an administrator'] as const) {
      it(`is the not-found page to ${who}, and its forms too`, async () => {
        const outsider = await signedInAs('outsider', { admin: who === 'an administrator' });
        const csrf_token = await tokenOf(outsider);
        const page = await outsider.get(`/messages/${id}`).expect(404);
        expect(page.text).to.include('<h1>Not found</h1>');
        expect(page.text).not.to.include('About the meetup');
        for (const [action, fields] of [
          [`/messages/${id}/replies`, { body: 'let me in' }],
          [`/messages/${id}/participants`, { to: 'outsider' }],
          [`/messages/${id}/leave`, {}],
        ] as const) {
          const res = await outsider
            .post(action)
            .type('form')
            .send({ csrf_token, ...fields })
            .expect(404);
          expect(res.text, action).not.to.include('About the meetup');
        }
        const replies = (await api().get(`/api/v3/messages/${id}/replies`).set(alice.auth).expect(200)).body.replies;
        expect(replies).to.have.length(1);
        expect(listed((await outsider.get('/messages').expect(200)).text)).to.deep.equal([]);
      });
    }
  });

  it('links to /messages from every signed-in page, and to a new message from someone else’s profile', async () => {
    const home = await bob.get('/').expect(200);
    expect(home.text).to.include('<a href="/messages">Messages</a>');
    const profile = await bob.get('/alice').expect(200);
    expect(profile.text).to.include('<a class="act-link" href="/messages/new?to=alice">Send a message</a>');
    expect((await bob.get('/alice?lang=zh-CN').expect(200)).text).to.include('>发私信</a>');
    expect((await bob.get('/bob').expect(200)).text).not.to.include('/messages/new?to=');

    const anonymous = await api().get('/alice').expect(200);
    expect(anonymous.text).not.to.include('/messages');
  });

  it('keeps the pages’ forms behind the session’s token', async () => {
    const id = await send(alice, ['bob']);
    for (const action of ['/messages', `/messages/${id}/replies`, `/messages/${id}/participants`, `/messages/${id}/leave`]) {
      await bob.post(action).type('form').send({ csrf_token: 'forged', to: 'alice', title: 't', body: 'b' }).expect(403);
    }
    expect(formsOf((await bob.get(`/messages/${id}`).expect(200)).text).map((form) => form.action)).to.include.members([
      `/messages/${id}/replies#reply-form`,
      `/messages/${id}/participants#people`,
      `/messages/${id}/leave`,
    ]);
  });
});

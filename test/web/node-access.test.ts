import { expect } from 'chai';
import type { ActingUser } from '../../src/application/actor.js';
import { api, makeGroup, makeNode, makeReply, makeTopic, setNodeAccess } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { formsOf } from '../support/oauth-flow.js';
import { type Browser, alertOf, formFor, signedInAs, submit } from '../support/page-forms.js';

/**
 * Who may write where, in a browser (contract §23): a page offers only the forms a node takes, and says who may write
 * there instead of a form the use case would refuse; a refusal all the same (a page left open while the node changed,
 * a forged form) is said in a sentence.
 */

/** A member signed in through the pages, and who they are to the builders. */
async function member(login: string): Promise<{ browser: Browser; user: ActingUser }> {
  const browser = await signedInAs(login);
  const [row] = await testEnv().sql<{ id: number }>('select id from users where login = $1', [login]);
  return { browser, user: { id: row!.id, login, role: 'member' } };
}

/** The nodes a topic form offers, by id. */
const offered = (html: string) => [...html.matchAll(/<option value="(\d+)"/g)].map((match) => Number(match[1]));

/** The one line that says who may write, where a form would be. */
const notice = (html: string) => /<p class="notice" role="status">([\s\S]*?)<\/p>/.exec(html)?.[1]?.trim();

describe('the forum in a browser: who may write where (contract §23)', () => {
  let alice: { browser: Browser; user: ActingUser };
  let bob: { browser: Browser; user: ActingUser };
  let open: number;
  let news: number;
  let team: number;

  beforeEach(async () => {
    alice = await member('alice');
    bob = await member('bob');
    await makeGroup('ruby-team', [alice.user]);
    open = await makeNode('Open');
    news = await makeNode('News');
    team = await makeNode('Team room');
    await setNodeAccess(news, { topics: { audience: 'staff' } });
    await setNodeAccess(team, { topics: { groups: ['ruby-team'] }, replies: { groups: ['ruby-team'] } });
  });

  describe('the new topic form', () => {
    it('offers only the nodes the reader may start topics in', async () => {
      const forBob = await bob.browser.get('/topics/new').expect(200);
      expect(offered(forBob.text)).to.deep.equal([open]);
      const forAlice = await alice.browser.get('/topics/new').expect(200);
      expect(offered(forAlice.text).sort((a, b) => a - b)).to.deep.equal([open, team]);
      const root = await signedInAs('root', { admin: true });
      const forRoot = await root.get('/topics/new').expect(200);
      expect(offered(forRoot.text)).to.include.members([open, news, team]);
    });

    it('starts with the node chosen (?node_id=), or says who may start topics there instead of the form', async () => {
      const chosen = await bob.browser.get(`/topics/new?node_id=${open}`).expect(200);
      expect(chosen.text).to.match(new RegExp(`<option value="${open}" selected`));

      const news403 = await bob.browser.get(`/topics/new?node_id=${news}`).expect(403);
      expect(notice(news403.text)).to.equal('Only staff may start topics in News.');
      expect(formsOf(news403.text).map((form) => form.action)).not.to.include('/topics');
      expect(news403.text).to.include('<a href="/topics/new">Start a topic in another node</a>');

      const team403 = await bob.browser.get(`/topics/new?node_id=${team}`).expect(403);
      expect(notice(team403.text)).to.equal('Only members of ruby-team may start topics in Team room.');
      const inChinese = await bob.browser.get(`/topics/new?node_id=${team}&lang=zh-CN`).expect(403);
      expect(notice(inChinese.text)).to.equal('只有 ruby-team 小组的成员可以在 Team room 节点发布话题。');

      // A hidden group is not named to whom it is hidden (contract §23).
      await makeGroup('inner-circle', [], { hidden: true });
      await setNodeAccess(team, { topics: { groups: ['inner-circle'] } });
      const hidden = await bob.browser.get(`/topics/new?node_id=${team}`).expect(403);
      expect(notice(hidden.text)).to.equal('Only members of certain groups may start topics in Team room.');
      expect(hidden.text).not.to.include('inner-circle');

      // A node the reader may start topics in, or one they do not know of: the form as ever.
      await setNodeAccess(team, { topics: { groups: ['ruby-team'] } });
      const forAlice = await alice.browser.get(`/topics/new?node_id=${team}`).expect(200);
      expect(forAlice.text).to.match(new RegExp(`<option value="${team}" selected`));
      expect(offered((await bob.browser.get('/topics/new?node_id=999999').expect(200)).text)).to.deep.equal([open]);
    });

    it('says a refusal of the use case in a sentence, with what was typed (a form from before the node changed)', async () => {
      const page = await bob.browser.get('/topics/new').expect(200);
      const form = formFor(page.text, '/topics');
      await setNodeAccess(open, { topics: { audience: 'staff' } });
      const refused = await submit(bob.browser, form, { node_id: String(open), title: 'Hello', body: 'Kept as typed' });
      expect(refused.status).to.equal(403);
      expect(alertOf(refused.text)).to.equal('You may not start topics in this node.');
      expect(refused.text).to.include('Kept as typed');
      const topics = (await api().get(`/api/v3/topics?node_id=${open}`).expect(200)).body.topics as unknown[];
      expect(topics).to.deep.equal([]);
    });
  });

  describe('a topic’s reply form', () => {
    it('is there for whom the node lets reply; anyone else is told who may, instead', async () => {
      const topic = await makeTopic(alice.user, team, 'Team plans');
      const reply = await makeReply(alice.user, topic, 'First step');
      const forAlice = await alice.browser.get(`/topics/${topic}`).expect(200);
      formFor(forAlice.text, `/topics/${topic}/replies`);

      const forBob = await bob.browser.get(`/topics/${topic}`).expect(200);
      expect(formsOf(forBob.text).map((form) => form.action.split('#')[0])).not.to.include(`/topics/${topic}/replies`);
      expect(forBob.text).to.include('<p class="muted">Only members of ruby-team may reply in this node.</p>');
      // Quoting a reply does not bring the form back.
      expect((await bob.browser.get(`/topics/${topic}?quote=${reply}`).expect(200)).text).to.include(
        'Only members of ruby-team may reply in this node.',
      );

      await setNodeAccess(team, { replies: { audience: 'staff' } });
      const staffOnly = await bob.browser.get(`/topics/${topic}`).expect(200);
      expect(staffOnly.text).to.include('<p class="muted">Only staff may reply in this node.</p>');
      const root = await signedInAs('root', { admin: true });
      formFor((await root.get(`/topics/${topic}`).expect(200)).text, `/topics/${topic}/replies`);
    });

    it('says a refusal of the use case in a sentence, with what was typed', async () => {
      const topic = await makeTopic(alice.user, open, 'Open to all');
      const page = await bob.browser.get(`/topics/${topic}`).expect(200);
      const form = formFor(page.text, `/topics/${topic}/replies`);
      await setNodeAccess(open, { replies: { groups: ['ruby-team'] } });
      const refused = await submit(bob.browser, form, { body: 'my two cents' });
      expect(refused.status).to.equal(403);
      expect(alertOf(refused.text)).to.equal('You may not reply in this node.');
      expect(refused.text).to.include('my two cents');
      expect((await api().get(`/api/v3/topics/${topic}`).expect(200)).body.topic.replies_count).to.equal(0);
    });
  });

  it('keeps the edit form’s node for a topic whose node no longer lets its author start topics there', async () => {
    const topic = await makeTopic(alice.user, open, 'Mine');
    await setNodeAccess(open, { topics: { audience: 'staff' } });
    const page = await alice.browser.get(`/topics/${topic}/edit`).expect(200);
    expect(offered(page.text).sort((a, b) => a - b)).to.deep.equal([open, team]);
  });
});

import { expect } from 'chai';
import { READERS, type ReaderName } from '../../src/domain/visibility/visibility.js';
import { api, makeGroup, makeNode, makeReply, makeTopic, makeUser, setNodeAccess, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { forumctl } from '../support/cli.js';
import { type Browser, signedInAs } from '../support/page-forms.js';
import { checkedApi } from '../support/openapi.js';

/**
 * Contract §23: a node a caller may not read does not exist for them, for every reader of the visibility policy; and
 * contract §24: a conversation exists only for its participants, and for nobody in the forum's readers.
 * Each row is one reader (an endpoint), with the profile(s) of the policy it reads by; every profile that decides what
 * a person is shown has a row (or says why not), so that a new reader without one fails here. Each row is walked with
 * an insider (a member of the node's group), an outsider (a member who is not) and someone signed out.
 */

interface World {
  insider: TestUser;
  outsider: TestUser;
  /** Each one's browser, signed in (the pages of contract §21). */
  browsers: Map<number, Browser>;
  team: number;
  topic: number;
  reply: number;
  /** The secret is a conversation (contract §24), not a topic of the team's node (which is then an open one). */
  conversation?: boolean;
}

interface Row {
  reader: string;
  profiles: ReaderName[];
  /** What everyone alike is served (feeds, the sitemap): nobody finds it there, insiders included. */
  everyones?: boolean;
  /** A reader of nodes themselves (not of topics): it has no conversation to find. */
  ofNodes?: boolean;
  /** Whether `who` finds the private topic (or its reply, or its node) through this reader. */
  finds: (world: World, who: TestUser | null) => Promise<boolean>;
}

const as = (who: TestUser | null) => (who ? who.auth : {});
/** `who`'s browser (signed in), or a browser signed out. */
const browserOf = (w: World, who: TestUser | null) => (who ? w.browsers.get(who.id)! : checkedApi(testEnv().app));
const page = async (w: World, who: TestUser | null, path: string) => browserOf(w, who).get(path);
const titles = (body: { topics: { title: string }[] }) => body.topics.map((topic) => topic.title);
const SECRET = 'Secret plans';
/** A topic of the private node that nobody has opened: new to whoever may read it. */
const FRESH = 'Fresh plans';

const ROWS: Row[] = [
  {
    reader: 'GET /topics',
    profiles: ['topicList'],
    finds: async (_w, who) => titles((await api().get('/api/v3/topics').set(as(who))).body).includes(SECRET),
  },
  {
    reader: 'GET /topics?node_id',
    profiles: ['nodeTopics'],
    finds: async (w, who) => {
      const res = await api().get(`/api/v3/topics?node_id=${w.team}`).set(as(who));
      // Not there at all (404), not an empty page: the node does not exist for them.
      if (res.status === 404) return false;
      if (w.conversation) return titles(res.body).includes(SECRET);
      expect(titles(res.body), 'a page of a node one may not read').to.include(SECRET);
      return true;
    },
  },
  {
    reader: 'GET /topics?type=new',
    profiles: ['newTopics'],
    finds: async (_w, who) =>
      who !== null && titles((await api().get('/api/v3/topics?type=new').set(as(who))).body).includes(FRESH),
  },
  {
    reader: 'GET /nodes',
    profiles: [],
    ofNodes: true,
    finds: async (_w, who) =>
      ((await api().get('/api/v3/nodes').set(as(who))).body.nodes as { name: string }[]).some((n) => n.name === 'Team'),
  },
  {
    reader: 'GET /nodes/:id',
    profiles: [],
    ofNodes: true,
    finds: async (w, who) => (await api().get(`/api/v3/nodes/${w.team}`).set(as(who))).status === 200,
  },
  {
    reader: 'GET /topics/:id',
    profiles: ['post'],
    finds: async (w, who) => (await api().get(`/api/v3/topics/${w.topic}`).set(as(who))).status === 200,
  },
  {
    reader: 'GET /topics/:id/replies',
    profiles: ['post'],
    finds: async (w, who) => (await api().get(`/api/v3/topics/${w.topic}/replies`).set(as(who))).status === 200,
  },
  {
    reader: 'GET /replies/:id',
    profiles: ['post'],
    finds: async (w, who) => (await api().get(`/api/v3/replies/${w.reply}`).set(as(who))).status === 200,
  },
  {
    reader: 'GET /search',
    profiles: ['search'],
    finds: async (_w, who) => ((await api().get('/api/v3/search?q=plans').set(as(who))).body.results as unknown[]).length > 0,
  },
  {
    reader: 'GET /users/:login/topics',
    profiles: ['post'],
    finds: async (w, who) =>
      titles((await api().get(`/api/v3/users/${w.insider.login}/topics`).set(as(who))).body).includes(SECRET),
  },
  {
    reader: 'GET /users/:login (topics_count as the caller may see it)',
    profiles: ['counted'],
    finds: async (w, who) =>
      ((await api().get(`/api/v3/users/${w.insider.login}`).set(as(who))).body.user.topics_count as number) > 0,
  },
  {
    reader: 'GET /users/:login/replies',
    profiles: ['post'],
    finds: async (w, who) =>
      ((await api().get(`/api/v3/users/${w.insider.login}/replies`).set(as(who))).body.replies as { body: string }[]).some(
        (reply) => reply.body === 'the plans, in detail',
      ),
  },
  {
    reader: 'GET /users/:login/favorites',
    profiles: ['post'],
    finds: async (w, who) =>
      titles((await api().get(`/api/v3/users/${w.insider.login}/favorites`).set(as(who))).body).includes(SECRET),
  },
  {
    reader: 'GET /notifications and unread_count',
    profiles: ['post'],
    finds: async (_w, who) => {
      if (who === null) return false;
      const listed = (await api().get('/api/v3/notifications').set(as(who))).body.notifications as unknown[];
      const count = (await api().get('/api/v3/notifications/unread_count').set(as(who))).body.count as number;
      expect(count, 'the count says what the list holds').to.equal(listed.length);
      return listed.length > 0;
    },
  },
  {
    reader: 'the front page /',
    profiles: ['topicList'],
    finds: async (w, who) => (await page(w, who, '/')).text.includes(SECRET),
  },
  {
    reader: 'a node’s page',
    profiles: ['nodeTopics'],
    finds: async (w, who) => {
      const res = await page(w, who, `/topics/node${w.team}`);
      return res.status === 200 && res.text.includes(SECRET);
    },
  },
  {
    reader: 'the nodes page',
    profiles: [],
    ofNodes: true,
    finds: async (w, who) => (await page(w, who, '/nodes')).text.includes('Team'),
  },
  {
    reader: 'a topic’s page',
    profiles: ['post'],
    finds: async (w, who) => (await page(w, who, `/topics/${w.topic}`)).status === 200,
  },
  {
    reader: 'a member’s page',
    profiles: ['post'],
    finds: async (w, who) => (await page(w, who, `/${w.insider.login}`)).text.includes(SECRET),
  },
  {
    reader: 'the search page',
    profiles: ['search'],
    finds: async (w, who) => (await page(w, who, '/search?q=plans')).text.includes(SECRET),
  },
  {
    reader: 'the feeds',
    profiles: [],
    everyones: true,
    finds: async (w) => {
      const feeds = ['/topics/feed', `/topics/node${w.team}/feed`, `/${w.insider.login}/feed`];
      const served = await Promise.all(feeds.map((path) => checkedApi(testEnv().app).get(path)));
      return served.some((res) => res.text.includes(SECRET));
    },
  },
  {
    reader: 'the sitemap',
    profiles: ['topicList'],
    everyones: true,
    finds: async (w) => {
      const index = (await checkedApi(testEnv().app).get('/sitemap.xml').expect(200)).text;
      const files = [...index.matchAll(/<loc>https?:\/\/[^/]+(\/sitemap\/[^<]+)<\/loc>/g)].map((m) => m[1]!);
      const served = await Promise.all(files.map((path) => checkedApi(testEnv().app).get(path)));
      const node = !w.conversation && served.some((res) => res.text.includes(`/topics/node${w.team}<`));
      return node || served.some((res) => res.text.includes(`/topics/${w.topic}<`));
    },
  },
  {
    reader: 'GET /topics/unread_count and type=unread',
    profiles: ['unread'],
    finds: async (w, who) => {
      if (who === null) return false;
      // Opened before the insider's reply: that reply is unread to whoever may read the topic.
      const res = await api().get('/api/v3/topics?type=unread').set(as(who));
      return titles(res.body).includes(SECRET);
    },
  },
];

/** The readers of conversations (contract §24): only their participants find them. */
const MESSAGE_ROWS: Row[] = [
  {
    reader: 'GET /messages',
    profiles: ['conversation', 'conversationUnread'],
    finds: async (_w, who) =>
      who !== null &&
      ((await api().get('/api/v3/messages').set(as(who))).body.messages as { title: string }[]).some((m) => m.title === SECRET),
  },
  {
    reader: 'GET /messages/:id and its replies',
    profiles: ['conversation'],
    finds: async (w, who) => {
      const shown = (await api().get(`/api/v3/messages/${w.topic}`).set(as(who))).status === 200;
      const replies = (await api().get(`/api/v3/messages/${w.topic}/replies`).set(as(who))).status === 200;
      expect(replies, 'its replies as the conversation').to.equal(shown);
      return shown;
    },
  },
  {
    reader: 'GET /messages/unread_count',
    profiles: ['conversationUnread'],
    finds: async (_w, who) =>
      who !== null && ((await api().get('/api/v3/messages/unread_count').set(as(who))).body.count as number) > 0,
  },
];

/** Profiles that decide no person's view of a post, each with why it has no row here. */
const NOT_A_PERSONS_VIEW: Partial<Record<ReaderName, string>> = {
  authored: 'the posting rules’ record of an author',
  written: 'the new-account limits’ record of an author, and their export',
  standing: 'what an author still has (a purge)',
  kept: 'what still names an upload (the orphans’ purge)',
  anyState: 'a post in any state, before deciding what to show of it: forumctl, webhooks (walked by forumctl’s tests)',
  digest: 'mailed: walked by the digest tests',
  mail: 'mailed: walked by the notification mail tests',
  webhook: 'webhooks: what everyone alike is sent',
};

/** A member signed up in a browser (kept in `browsers`), with a token for the API; made an administrator if asked. */
async function personWithBrowser(browsers: Map<number, Browser>, login: string, role: 'member' | 'admin' = 'member') {
  const browser = await signedInAs(login);
  if (role === 'admin') await testEnv().sql("update users set role = 'admin' where login = $1", [login]);
  const [row] = await testEnv().sql<{ id: number }>('select id from users where login = $1', [login]);
  const issued = await testEnv().scope(() => testEnv().useCases.issueToken.execute({ userId: row!.id, clientId: null }));
  const user: TestUser = {
    id: row!.id,
    login,
    role,
    token: issued.access_token,
    auth: { Authorization: `Bearer ${issued.access_token}` },
  };
  browsers.set(user.id, browser);
  return user;
}

describe('node access: every reader, with an insider and an outsider (contract §23)', () => {
  let world: World;

  beforeEach(async () => {
    const browsers = new Map<number, Browser>();
    const person = (login: string) => personWithBrowser(browsers, login);
    const insider = await person('insider');
    const outsider = await person('outsider');
    const team = await makeNode('Team');
    const general = await makeNode('General');
    await makeGroup('team', [insider]);
    const topic = await makeTopic(insider, team, SECRET, 'Where the plans are');
    await makeTopic(outsider, general, 'Open talk', 'Anyone reads this');
    // Both open the topic while everyone may read it (read state), then it becomes the team's.
    for (const who of [insider, outsider]) await api().get(`/api/v3/topics/${topic}`).set(who.auth).expect(200);
    await setNodeAccess(team, { read: { groups: ['team'] }, topics: { groups: ['team'] }, replies: { groups: ['team'] } });
    const reply = await makeReply(insider, topic, 'the plans, in detail');
    await makeReply(outsider, topic, 'cannot').catch(() => undefined);
    world = { insider, outsider, browsers, team, topic, reply };
    await api().post(`/api/v3/topics/${topic}/favorite`).set(insider.auth).expect(200);
    // The insider's own reply is no news to them: one from another insider makes the topic unread.
    const other = await makeUser('other');
    await testEnv().sql('insert into group_members (group_id, user_id) select id, $1 from groups where name = $2', [
      other.id,
      'team',
    ]);
    // It names both: only the one who may read hears of it (notifications, their count, the stream, mail).
    await makeReply(other, topic, 'more plans for @insider and @outsider');
    await makeTopic(other, team, FRESH, 'Nobody opened these yet');
  });

  it('has a row for every profile that decides what a person is shown', () => {
    const covered = new Set([...ROWS, ...MESSAGE_ROWS].flatMap((row) => row.profiles));
    const missing = (Object.keys(READERS) as ReaderName[]).filter((name) => !covered.has(name) && !NOT_A_PERSONS_VIEW[name]);
    expect(missing, 'reader profiles without a row').to.deep.equal([]);
  });

  for (const row of ROWS) {
    const title = row.everyones
      ? `${row.reader}: served to everyone alike, never carries it`
      : `${row.reader}: the insider finds it, the outsider and someone signed out do not`;
    it(title, async () => {
      expect(await row.finds(world, world.insider), 'insider').to.equal(!row.everyones);
      expect(await row.finds(world, world.outsider), 'outsider').to.equal(false);
      expect(await row.finds(world, null), 'signed out').to.equal(false);
    });
  }

  it('lets an administrator read it, and a member who joins the group; one who leaves loses it', async () => {
    const admin = await makeUser('boss', 'admin');
    await api().get(`/api/v3/topics/${world.topic}`).set(admin.auth).expect(200);
    await api().get(`/api/v3/topics/${world.topic}`).set(world.outsider.auth).expect(404);
    await testEnv().sql('insert into group_members (group_id, user_id) select id, $1 from groups where name = $2', [
      world.outsider.id,
      'team',
    ]);
    await api().get(`/api/v3/topics/${world.topic}`).set(world.outsider.auth).expect(200);
    await testEnv().sql('delete from group_members where user_id = $1', [world.outsider.id]);
    await api().get(`/api/v3/topics/${world.topic}`).set(world.outsider.auth).expect(404);
  });

  it('refuses a reply or a topic where one may read but not write: 403 AccessDenied saying so', async () => {
    await setNodeAccess(world.team, { read: { audience: 'members' } });
    await api().get(`/api/v3/topics/${world.topic}`).set(world.outsider.auth).expect(200);
    const reply = await api()
      .post(`/api/v3/topics/${world.topic}/replies`)
      .set(world.outsider.auth)
      .send({ body: 'may I?' })
      .expect(403);
    expect(reply.body).to.deep.equal({
      error: 'AccessDenied',
      message: 'The current user does not have permission to reply to topics in this node.',
    });
    const topic = await api()
      .post('/api/v3/topics')
      .set(world.outsider.auth)
      .send({ title: 'Mine', body: 'here', node_id: world.team })
      .expect(403);
    expect(topic.body.message).to.equal('The current user does not have permission to create topics in this node.');
    // Where one may not read at all, the node does not exist: 404.
    await setNodeAccess(world.team, { read: { groups: ['team'] } });
    await api()
      .post('/api/v3/topics')
      .set(world.outsider.auth)
      .send({ title: 'Mine', body: 'here', node_id: world.team })
      .expect(404);
    await api().post(`/api/v3/topics/${world.topic}/replies`).set(world.outsider.auth).send({ body: 'x' }).expect(404);
    // Nor may they block it: blocking a node they may not read would say that it exists.
    await api().post(`/api/v3/nodes/${world.team}/block`).set(world.outsider.auth).expect(404);
    await api().post(`/api/v3/nodes/${world.team}/block`).set(world.insider.auth).expect(200);
  });

  it('a topic moved out of a private node is everyone’s again, and moved in, nobody else’s', async () => {
    const [general] = await testEnv().sql<{ id: number }>("select id from nodes where name = 'General'");
    await testEnv().sql('update topics set node_id = $1 where id = $2', [general!.id, world.topic]);
    await api().get(`/api/v3/topics/${world.topic}`).expect(200);
    await testEnv().sql('update topics set node_id = $1 where id = $2', [world.team, world.topic]);
    await api().get(`/api/v3/topics/${world.topic}`).expect(404);
  });

  it('sends a private node’s events only to webhooks made for them (--private-nodes)', async () => {
    const made = async (...flags: string[]) =>
      (await forumctl(['webhooks', 'create', 'https://hooks.example/forum', '--events', '*', ...flags, '--json'])).json<{
        id: number;
        private_nodes: boolean;
      }>();
    const everyones = await made();
    const privates = await made('--private-nodes');
    expect(privates.private_nodes).to.equal(true);
    const [general] = await testEnv().sql<{ id: number }>("select id from nodes where name = 'General'");
    const open = await makeTopic(world.outsider, general!.id, 'Open again', 'for all');
    const secret = await makeTopic(world.insider, world.team, 'More secrets', 'for the team');
    const heard = async (webhookId: number) =>
      (
        await testEnv().sql<{ topic_id: number }>(
          `select (payload->>'topicId')::int as topic_id from webhook_deliveries where webhook_id = $1 and event = 'topic.created'
           order by topic_id`,
          [webhookId],
        )
      ).map((row) => row.topic_id);
    expect(await heard(everyones.id)).to.deep.equal([open]);
    expect(await heard(privates.id)).to.deep.equal([open, secret].sort((a, b) => a - b));
  });
});

describe('conversations: every reader, with a participant, an outsider and an administrator (contract §24)', () => {
  let world: World;
  let admin: TestUser;

  beforeEach(async () => {
    const browsers = new Map<number, Browser>();
    const person = (login: string, role: 'member' | 'admin' = 'member') => personWithBrowser(browsers, login, role);
    const insider = await person('insider');
    const outsider = await person('outsider');
    admin = await person('boss', 'admin');
    const other = await makeUser('other');
    const team = await makeNode('Team');
    const general = await makeNode('General');
    await makeTopic(outsider, general, 'Open talk', 'Anyone reads this');
    const send = async (from: TestUser, to: string, title: string, body: string) =>
      (
        await api()
          .post('/api/v3/messages')
          .set(from.auth)
          .send({ to: [to], title, body })
          .expect(200)
      ).body.message.id as number;
    const topic = await send(insider, 'other', SECRET, 'Where the plans are');
    await api().post(`/api/v3/messages/${topic}/replies`).set(insider.auth).send({ body: 'the plans, in detail' }).expect(200);
    const [mine] = await testEnv().sql<{ id: number }>('select max(id) as id from replies where topic_id = $1', [topic]);
    // Named, they hear of nothing in the forum's notifications; the insider's reply is unread to them until read.
    await api()
      .post(`/api/v3/messages/${topic}/replies`)
      .set(other.auth)
      .send({ body: 'more plans for @insider and @outsider' })
      .expect(200);
    // A conversation cannot be favorited through the forum; a row put there by hand still shows nowhere.
    await api().post(`/api/v3/topics/${topic}/favorite`).set(insider.auth).expect(404);
    await testEnv().sql('insert into topic_favorites (user_id, topic_id) values ($1, $2)', [insider.id, topic]);
    await send(other, 'insider', FRESH, 'Nobody opened these yet');
    world = { insider, outsider, browsers, team, topic, reply: mine!.id, conversation: true };
  });

  for (const row of ROWS.filter((row) => !row.ofNodes)) {
    it(`${row.reader}: nobody finds it there, its participants included`, async () => {
      for (const who of [world.insider, world.outsider, admin, null]) {
        expect(await row.finds(world, who), who?.login ?? 'signed out').to.equal(false);
      }
    });
  }

  for (const row of MESSAGE_ROWS) {
    it(`${row.reader}: its participant finds it; an outsider, an administrator and someone signed out do not`, async () => {
      expect(await row.finds(world, world.insider), 'participant').to.equal(true);
      expect(await row.finds(world, world.outsider), 'outsider').to.equal(false);
      expect(await row.finds(world, admin), 'administrator').to.equal(false);
      expect(await row.finds(world, null), 'signed out').to.equal(false);
    });
  }
});

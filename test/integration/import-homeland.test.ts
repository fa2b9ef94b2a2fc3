import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import type { HomelandImportReport, ImportedTable } from '../../src/application/imports/ports.js';
import { NodeRepository } from '../../src/domain/nodes/node-repository.js';
import { api, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';
import { startIdentityServers, throughProvider } from '../support/identity-servers.js';
import { checkedApi } from '../support/openapi.js';
import {
  addHomelandRows,
  fillHomeland,
  type HomelandFixture,
  inMilliseconds,
  writeHomelandUploads,
} from '../support/homeland/factory.js';
import { createHomelandDatabase, type HomelandDatabase } from '../support/homeland/schema.js';

/**
 * `forumctl import homeland` (contract §20, issue 36), end to end: a database with homeland's real schema
 * (test/support/homeland/schema.ts, at the commit it names), filled as homeland's models and factories would
 * (factory.ts), imported into the test database, and then checked through the HTTP API as a client would see it.
 */

/** The test database's URL: homeland's databases are made on the same server. */
function databaseUrl(): string {
  const url = testEnv().config.databaseUrl;
  if (!url) throw new Error('the test database has no URL');
  return url;
}

async function withSource<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

const tableOf = (report: HomelandImportReport, name: string): ImportedTable => {
  const table = report.tables.find((t) => t.table === name);
  if (!table) throw new Error(`no table ${name} in the report`);
  return table;
};

async function tokenOf(login: string): Promise<Record<string, string>> {
  const issued = await forumctl(['tokens', 'issue', login, '--json']);
  expect(issued.code, issued.stderr).to.equal(0);
  return { Authorization: `Bearer ${issued.json<{ access_token: string }>().access_token}` };
}

describe('forumctl import homeland (contract §20)', function () {
  this.timeout(120_000);
  let source: HomelandDatabase;
  let fixture: HomelandFixture;
  let uploads: string;

  before(async () => {
    source = await createHomelandDatabase(databaseUrl());
    fixture = await fillHomeland(source.url);
    uploads = await mkdtemp(path.join(os.tmpdir(), 'homeland-uploads-'));
    await writeHomelandUploads(uploads, fixture);
  });

  after(async () => {
    await source?.drop();
    if (uploads) await rm(uploads, { recursive: true, force: true });
  });

  async function importFrom(url: string, ...extra: string[]): Promise<HomelandImportReport> {
    const run = await forumctl(['import', 'homeland', '--from', url, '--uploads', uploads, '--json', ...extra]);
    expect(run.code, run.stderr).to.equal(0);
    return run.json<HomelandImportReport>();
  }

  describe('a first import', () => {
    let report: HomelandImportReport;
    /** The event log's last id before the import (the log is not emptied between tests). */
    let eventsBefore: string;
    beforeEach(async () => {
      // A process that found NoPoint before the import (a ban) remembers where it was: it must notice the move.
      const env = testEnv();
      await env.scope(() => env.container.get<NodeRepository>(NodeRepository).noPoint());
      [{ last: eventsBefore }] = await env.sql<{ last: string }>('select coalesce(max(id), 0) as last from events');
      report = await importFrom(source.url);
    });

    it('reports, per table, what was read, imported and skipped with why', () => {
      expect(report.repeated).to.equal(false);
      expect(report.sourceVersion).to.equal(fixture.schemaVersion);
      const users = tableOf(report, 'users');
      expect(users.read).to.equal(fixture.users.length + 1);
      expect(users.inserted).to.equal(fixture.users.length);
      expect(users.skipped).to.deep.equal({ 'a team (imported as a group)': 1 });
      expect(tableOf(report, 'groups')).to.include({ read: 1, inserted: 1, updated: 0, unchanged: 0, removed: 0 });
      expect(tableOf(report, 'groups').skipped).to.deep.equal({});
      const members = tableOf(report, 'group_members');
      expect(members).to.include({ read: fixture.team.memberships, inserted: fixture.team.memberIds.length, removed: 0 });
      expect(members.skipped).to.deep.equal({ 'an invitation not accepted': fixture.team.invitedIds.length });
      const replies = tableOf(report, 'replies');
      expect(replies.read).to.equal(fixture.replies.length);
      expect(replies.inserted).to.equal(fixture.replies.filter((r) => r.imported).length);
      expect(Object.values(replies.skipped).reduce((a, b) => a + b, 0)).to.equal(
        fixture.replies.filter((r) => !r.imported).length,
      );
      const tokens = tableOf(report, 'oauth_tokens');
      expect(tokens.inserted).to.equal(fixture.tokens.filter((t) => t.live).length);
      expect(tokens.skipped).to.have.property('revoked');
      expect(tokens.skipped).to.have.property('expired');
      const notifications = tableOf(report, 'notifications');
      expect(notifications.inserted).to.equal(fixture.notifications.filter((n) => n.becomes.type !== null).length);
      for (const table of report.tables) {
        const skipped = Object.values(table.skipped).reduce((a, b) => a + b, 0);
        expect(table.inserted + table.updated + table.unchanged + skipped, table.table).to.equal(table.read);
      }
      expect(report.notes.join('\n')).to.match(/maintainer/);
    });

    it('keeps every topic’s id, author, node, title, body and grade; counts are ours', async () => {
      const noPoint = fixture.maxNodeId + 1;
      for (const topic of fixture.topics) {
        const [row] = await testEnv().sql<Record<string, unknown>>(
          `select user_id, node_id, title, body, grade, lock_node, deleted_at, deleted_by_id, replies_count, last_reply_id,
                  last_reply_user_login, likes_count, created_at from topics where id = $1`,
          [topic.id],
        );
        expect(row, `topic ${topic.id}`).to.not.equal(undefined);
        expect(row!.user_id).to.equal(topic.userId);
        expect(row!.node_id, `topic ${topic.id}'s node`).to.equal(
          topic.expectedNodeId === 'NoPoint' ? noPoint : topic.expectedNodeId,
        );
        expect(row!.title).to.equal(topic.title);
        expect(row!.grade).to.equal(topic.grade);
        expect(row!.lock_node).to.equal(topic.expectedLockNode);
        expect(row!.deleted_by_id).to.equal(topic.expectedDeletedById);
        expect((row!.created_at as Date).toISOString()).to.equal(inMilliseconds(topic.createdAt));
        expect(row!.replies_count, `topic ${topic.id}'s replies`).to.equal(topic.expected.repliesCount);
        expect(row!.last_reply_id).to.equal(topic.expected.lastReplyId);
        expect(row!.last_reply_user_login).to.equal(topic.expected.lastReplyUserLogin);
        expect(row!.likes_count, `topic ${topic.id}'s likes`).to.equal(topic.expected.likesCount);
        if (!fixture.photos.some((photo) => photo.links.some((link) => link.in === 'topic' && link.id === topic.id))) {
          expect(row!.body).to.equal(topic.body);
        }
      }
      // As a client reads them: a topic that is neither deleted nor banned, with its body rendered by §5's rules.
      const shown = fixture.topics.find((t) => t.deletedAt === null && t.grade === 'normal' && t.expected.repliesCount > 0)!;
      const res = await api().get(`/api/v3/topics/${shown.id}`).expect(200);
      expect(res.body.topic.id).to.equal(shown.id);
      expect(res.body.topic.title).to.equal(shown.title);
      expect(res.body.topic.replies_count).to.equal(shown.expected.repliesCount);
      expect(res.body.topic.body_html).to.be.a('string').and.not.equal('');
      const replies = await api().get(`/api/v3/topics/${shown.id}/replies?limit=150`).expect(200);
      const expectedIds = fixture.replies.filter((r) => r.topicId === shown.id && r.imported).map((r) => r.id);
      expect(replies.body.replies.map((r: { id: number }) => r.id)).to.deep.equal(expectedIds);
      const events = replies.body.replies.filter((r: { action: string | null }) => r.action !== null);
      const expectedEvents = fixture.replies.filter((r) => r.topicId === shown.id && r.imported && r.action !== null);
      expect(events.map((r: { action: string }) => r.action)).to.deep.equal(expectedEvents.map((r) => r.action));
    });

    it('keeps every account: login, role and state as the mapping says, counters recounted by our rules', async () => {
      for (const user of fixture.users) {
        const [row] = await testEnv().sql<Record<string, unknown>>(
          `select login, email, role, state, password_hash, topics_count, replies_count, followers_count, following_count,
                  favorites_count, email_digest from users where id = $1`,
          [user.id],
        );
        expect(row, `user ${user.id}`).to.not.equal(undefined);
        expect(row!.login).to.equal(user.becomes.login);
        expect(row!.email).to.equal(user.becomes.email);
        expect(row!.role, `${user.login}'s role`).to.equal(user.becomes.role);
        expect(row!.state, `${user.login}'s state`).to.equal(user.becomes.state);
        expect(row!.password_hash !== null, `${user.login}'s password`).to.equal(user.becomes.hasPassword);
        if (user.becomes.hasPassword) expect(row!.password_hash as string).to.match(/^\$devise-bcrypt\$[A-Za-z0-9_-]+\$2a\$/);
        expect(row!.email_digest).to.equal('none');
        expect(
          [row!.topics_count, row!.replies_count, row!.followers_count, row!.following_count, row!.favorites_count],
          `${user.login}'s counters`,
        ).to.deep.equal([
          user.expected.topicsCount,
          user.expected.repliesCount,
          user.expected.followersCount,
          user.expected.followingCount,
          user.expected.favoritesCount,
        ]);
      }
      const member = fixture.users.find((u) => !u.becomes.anonymized && u.state === 1 && u.confirmed)!;
      const res = await api().get(`/api/v3/users/${member.login}`).expect(200);
      expect(res.body.user.id).to.equal(member.id);
      expect(res.body.user.topics_count).to.equal(member.expected.topicsCount);
    });

    it('makes the team a group of its login, titled with its name, its accepted members only (contract §23)', async () => {
      const groups = await testEnv().sql<Record<string, unknown>>('select id, name, title, hidden from groups');
      expect(groups).to.deep.equal([{ id: fixture.team.id, name: fixture.team.login, title: fixture.team.name, hidden: false }]);
      const members = await testEnv().sql<{ user_id: number }>(
        'select user_id from group_members where group_id = $1 order by user_id',
        [fixture.team.id],
      );
      expect(members.map((row) => row.user_id)).to.deep.equal(fixture.team.memberIds);
      // The readers' copy on each member's row (users.group_ids) says the same.
      const onRows = await testEnv().sql<{ id: number }>('select id from users where $1 = any(group_ids) order by id', [
        fixture.team.id,
      ]);
      expect(onRows.map((row) => row.id)).to.deep.equal(fixture.team.memberIds);
      expect(fixture.team.invitedIds).to.have.length.at.least(1);
      // As a client sees it: the group, and a member's groups.
      const group = await api().get(`/api/v3/groups/${fixture.team.login}`).expect(200);
      expect(group.body.group).to.include({ name: fixture.team.login, title: fixture.team.name });
      for (const id of [...fixture.team.memberIds, ...fixture.team.invitedIds]) {
        const login = fixture.users.find((u) => u.id === id)!.becomes.login;
        const user = await api().get(`/api/v3/users/${login}`).expect(200);
        expect(user.body.user.groups, login).to.deep.equal(fixture.team.memberIds.includes(id) ? [fixture.team.login] : []);
      }
      // New groups continue after the team's id.
      const made = await forumctl(['groups', 'create', 'newcomers', '--json']);
      expect(made.code, made.stderr).to.equal(0);
      expect(made.json<{ id: number }>().id).to.be.greaterThan(fixture.team.id);
    });

    it('moves the built-ins out of homeland’s ids: system and NoPoint above them, still working', async () => {
      const [system] = await testEnv().sql<{ id: number }>(`select id from users where login = 'system'`);
      expect(system!.id).to.equal(fixture.maxUserId + 1);
      const [noPoint] = await testEnv().sql<{ id: number; hidden: boolean; topics_count: number }>(
        `select id, hidden, topics_count from nodes where name = 'NoPoint'`,
      );
      expect(noPoint).to.deep.equal({
        id: fixture.maxNodeId + 1,
        hidden: true,
        topics_count: fixture.expectedNoPointTopicsCount,
      });
      expect(report.notes.join('\n')).to.include(`moved from id 1 to id ${fixture.maxUserId + 1}`);
      // Node 1 and user 1 are homeland's now.
      const [first] = await testEnv().sql<{ name: string }>('select name from nodes where id = 1');
      expect(first!.name).to.equal(fixture.nodes.find((n) => n.id === 1)!.name);
      // forumctl's default actor is still the system moderator: a ban lands in NoPoint.
      const topic = fixture.topics.find((t) => t.deletedAt === null && t.grade === 'normal')!;
      const ban = await forumctl(['topics', 'ban', String(topic.id), '--yes', '--json']);
      expect(ban.code, ban.stderr).to.equal(0);
      const [banned] = await testEnv().sql<{ node_id: number }>('select node_id from topics where id = $1', [topic.id]);
      expect(banned!.node_id).to.equal(noPoint!.id);
      // New rows continue after homeland's ids.
      const made = await forumctl([
        'users',
        'create',
        'newcomer',
        '--email',
        'newcomer@example.com',
        '--password',
        'a long password here',
        '--json',
      ]);
      expect(made.code, made.stderr).to.equal(0);
      expect(made.json<{ id: number }>().id).to.be.greaterThan(fixture.maxUserId + 1);
    });

    it('signs in with a homeland password (and rehashes it), and keeps homeland’s live tokens working, the dead ones dead', async () => {
      const app = fixture.applications.find((a) => a.confidential)!;
      const person = fixture.users.find((u) => u.password !== null && u.becomes.hasPassword && u.becomes.state === 'active')!;
      const token = await api()
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'password',
          username: person.login,
          password: person.password,
          client_id: app.uid,
          client_secret: app.secret,
        })
        .expect(200);
      expect(token.body.access_token).to.be.a('string');
      const [row] = await testEnv().sql<{ password_hash: string }>('select password_hash from users where id = $1', [person.id]);
      expect(row!.password_hash.startsWith('$argon2id$')).to.equal(true);
      // Every topic it brought reads as read up to its import for a member it brought (contract §22: their horizon), as
      // if they had read it all; a member who joins after the import starts with none opened.
      const lastReplies = await testEnv().sql<{ id: number; last: number | null }>(
        'select t.id, (select max(r.id) from replies r where r.topic_id = t.id) as last from topics t',
      );
      const states = async (auth: Record<string, string>) =>
        new Map(
          (
            (await api().get('/api/v3/topics?limit=150').set(auth).expect(200)).body.topics as {
              id: number;
              read_state: unknown;
            }[]
          ).map((topic) => [topic.id, topic.read_state]),
        );
      const imported = await states({ Authorization: `Bearer ${token.body.access_token}` });
      expect(imported.size).to.be.greaterThan(1);
      for (const [id, state] of imported) {
        const last = lastReplies.find((topic) => topic.id === id)!.last;
        expect(state, `topic ${id}`).to.deep.equal({ last_read_reply_id: last, unread_replies_count: 0 });
      }
      const newcomer = await states((await makeUser('newcomer')).auth);
      expect(newcomer.size).to.be.greaterThan(1);
      for (const [id, state] of newcomer) expect(state, `topic ${id}`).to.equal(null);
      await api()
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'password',
          username: person.login,
          password: `${person.password}x`,
          client_id: app.uid,
          client_secret: app.secret,
        })
        .expect(400);

      for (const old of fixture.tokens) {
        const me = await api().get('/api/v3/users/me').set('Authorization', `Bearer ${old.token}`);
        if (old.live && old.userId !== null && new Date(old.expiresAt) > new Date()) {
          expect(me.status, `token ${old.id}: ${old.why}`).to.equal(200);
          expect(me.body.user.id).to.equal(old.userId);
        } else if (!old.live) {
          expect(me.status, `token ${old.id}: ${old.why}`).to.equal(401);
        }
      }
      // A live refresh token renews, as homeland's would.
      const refreshable = fixture.tokens.find((t) => t.live && t.refreshToken !== null && t.userId !== null)!;
      const client = fixture.applications.find((a) => a.id === refreshable.applicationId)!;
      const renewed = await api()
        .post('/oauth/token')
        .type('form')
        .send({
          grant_type: 'refresh_token',
          refresh_token: refreshable.refreshToken,
          client_id: client.uid,
          client_secret: client.secret,
        })
        .expect(200);
      await api().get('/api/v3/users/me').set('Authorization', `Bearer ${renewed.body.access_token}`).expect(200);
      // Nothing of a token is stored in clear.
      const stored = await testEnv().sql<{ access_digest: string }>('select access_digest from oauth_tokens');
      for (const old of fixture.tokens) expect(stored.map((s) => s.access_digest)).to.not.include(old.token);
    });

    it('brings homeland’s sign-in bindings as links: a GitHub sign-up signs in with GitHub on day one (contract §25)', async () => {
      const links = tableOf(report, 'provider_links');
      const kept = fixture.authorizations.flatMap((row) => ('link' in row.becomes ? [row.becomes.link] : []));
      const skipped: Record<string, number> = {};
      for (const row of fixture.authorizations) {
        if ('skipped' in row.becomes) skipped[row.becomes.skipped] = (skipped[row.becomes.skipped] ?? 0) + 1;
      }
      expect(links).to.include({ read: fixture.authorizations.length, inserted: kept.length, updated: 0, removed: 0 });
      expect(links.skipped).to.deep.equal(skipped);
      const rows = await testEnv().sql<{ link: string }>(
        `select provider || ':' || subject as link from provider_links order by id`,
      );
      expect(rows.map((row) => row.link).sort()).to.deep.equal([...kept].sort());
      // The GitHub sign-up has no password but a link: not told to use "forgot password"; its provider is to configure.
      const notes = report.notes.join('\n');
      expect(notes).to.not.match(/no password/);
      expect(notes).to.match(/linked to the provider github, which is not configured here/);

      const servers = await startIdentityServers([]);
      try {
        const added = await forumctl(
          [
            'auth',
            'providers',
            'add',
            'github',
            '--kind',
            'github',
            '--client-id',
            'gh-client',
            '--authorize-url',
            `${servers.github}/login/oauth/authorize`,
            '--token-url',
            `${servers.github}/login/oauth/access_token`,
            '--api-url',
            servers.github,
          ],
          { stdin: 'github-client-secret\n' },
        );
        expect(added.code, added.stderr).to.equal(0);
        // GitHub knows them by the binding's id alone: another login, an address it does not vouch for.
        const octocat = fixture.users.find((user) => user.login === 'octocat')!;
        const binding = fixture.authorizations.find((row) => row.user === octocat.id)!;
        await servers.next({
          github: {
            id: Number(binding.uid),
            login: 'octo-renamed',
            name: 'The Octocat',
            emails: [{ email: 'elsewhere@example.net', primary: true, verified: false }],
          },
        });
        const browser = checkedApi(testEnv().app, { cookies: true });
        const started = await browser.get('/account/auth/github').expect(302);
        const back = await browser.get(await throughProvider(started.headers.location!, PUBLIC_URL));
        expect(back.status, back.text.slice(0, 500)).to.equal(303);
        const settings = await browser.get('/account/settings').expect(200);
        expect(settings.text).to.contain('Linked with GitHub').and.contain(octocat.email);
        const [count] = await testEnv().sql<{ n: number }>('select count(*)::int as n from users where login = $1', [
          'octo-renamed',
        ]);
        expect(count!.n).to.equal(0);
      } finally {
        servers.close();
      }
    });

    it('copies the photos into the upload store and rewrites their links in bodies', async () => {
      for (const photo of fixture.photos.filter((p) => p.file)) {
        for (const link of photo.links) {
          const [row] = await testEnv().sql<{ body: string }>(
            `select body from ${link.in === 'topic' ? 'topics' : 'replies'} where id = $1`,
            [link.id],
          );
          expect(row!.body, `${link.in} ${link.id}`).to.not.include(link.url);
          const url = /\((http:\/\/forum\.test\/uploads\/photos\/[^)\s]+)\)/.exec(row!.body)?.[1];
          expect(url, row!.body).to.be.a('string');
          const served = await api().get(url!.slice(PUBLIC_URL.length)).buffer(true).expect(200);
          const meta = await sharp(served.body as Buffer).metadata();
          expect([meta.width, meta.height]).to.deep.equal([photo.width, photo.height]);
        }
      }
      const missing = fixture.photos.filter((p) => !p.file).length;
      expect(tableOf(report, 'uploads').skipped['file missing'] ?? 0).to.equal(missing);
    });

    it('copies likes, follows, favorites, blocks and notifications as a client sees them', async () => {
      const likes = fixture.actions.filter((a) => a.fate.table === 'likes');
      const [{ n }] = (await testEnv().sql<{ n: number }>('select count(*)::int as n from likes')) as [{ n: number }];
      expect(n).to.equal(likes.length);
      for (const table of ['user_follows', 'topic_follows', 'topic_favorites', 'user_blocks', 'node_blocks'] as const) {
        const [row] = await testEnv().sql<{ n: number }>(`select count(*)::int as n from ${table}`);
        expect(row!.n, table).to.equal(fixture.actions.filter((a) => a.fate.table === table).length);
      }
      const recipient = fixture.notifications.find((x) => x.becomes.type !== null)!.userId;
      const login = fixture.users.find((u) => u.id === recipient)!.becomes.login;
      const auth = await tokenOf(login);
      // Old news: nothing is queued for mail, and no live stream is told of them (reading them, below, is news).
      const [queued] = await testEnv().sql<{ n: number }>('select count(*)::int as n from notification_mail_queue');
      expect(queued!.n).to.equal(0);
      const [announced] = await testEnv().sql<{ n: number }>(
        `select count(*)::int as n from events where id > $1 and type like 'notification.%'`,
        [eventsBefore],
      );
      expect(announced!.n).to.equal(0);
      // Their unread counts are kept all the same (by the same triggers).
      const unread = fixture.notifications.filter((x) => x.userId === recipient && x.becomes.type !== null && !x.read).length;
      const count = await api().get('/api/v3/notifications/unread_count').set(auth).expect(200);
      expect(count.body.count).to.equal(unread);
      const res = await api().get('/api/v3/notifications?limit=150').set(auth).expect(200);
      const expected = fixture.notifications.filter((x) => x.userId === recipient && x.becomes.type !== null);
      expect(res.body.notifications.map((x: { id: number }) => x.id).sort()).to.deep.equal(expected.map((x) => x.id).sort());
      for (const shown of res.body.notifications as { id: number; type: string; read: boolean }[]) {
        const one = expected.find((x) => x.id === shown.id)!;
        expect(shown.type).to.equal(one.becomes.type);
        expect(shown.read).to.equal(one.read);
      }
    });

    it('a second run changes nothing, and says so, after members signed in here (their hashes upgraded)', async () => {
      // Two members sign in meanwhile: their devise hashes become argon2id, which the import leaves as they are (issue 44).
      const app = fixture.applications.find((a) => a.confidential)!;
      const people = fixture.users.filter((u) => u.password !== null && u.becomes.hasPassword && u.becomes.state === 'active');
      expect(people.length).to.be.at.least(2);
      for (const person of people.slice(0, 2)) {
        await api()
          .post('/oauth/token')
          .type('form')
          .send({
            grant_type: 'password',
            username: person.login,
            password: person.password,
            client_id: app.uid,
            client_secret: app.secret,
          })
          .expect(200);
      }
      const before = await testEnv().sql(`select md5(string_agg(t::text, '|' order by id)) as h from topics t`);
      const again = await importFrom(source.url);
      expect(again.repeated).to.equal(true);
      for (const table of again.tables) {
        expect([table.inserted, table.updated, table.removed], table.table).to.deep.equal([0, 0, 0]);
      }
      expect(await testEnv().sql(`select md5(string_agg(t::text, '|' order by id)) as h from topics t`)).to.deep.equal(before);
    });
  });

  it('after new rows in the source, a run copies just those (and the built-ins move again)', async () => {
    const changing = await createHomelandDatabase(databaseUrl());
    try {
      const base = await fillHomeland(changing.url);
      await importFrom(changing.url);
      const changes = await addHomelandRows(changing.url, base);
      const report = await importFrom(changing.url);
      expect(tableOf(report, 'users').inserted).to.equal(1);
      expect(tableOf(report, 'nodes').inserted).to.equal(1);
      expect(tableOf(report, 'topics').inserted).to.equal(1);
      expect(tableOf(report, 'topics').updated).to.be.at.least(1);
      expect(tableOf(report, 'replies').inserted).to.equal(1);
      expect(tableOf(report, 'likes')).to.include({ inserted: 1, removed: 1 });
      expect(tableOf(report, 'notifications').inserted).to.equal(1);
      // The invitation accepted: a member more; the team was touched.
      expect(tableOf(report, 'group_members')).to.include({ inserted: 1, removed: 0 });
      expect(tableOf(report, 'groups')).to.include({ inserted: 0, updated: 1 });
      const members = await testEnv().sql<{ user_id: number }>('select user_id from group_members where group_id = $1', [
        changes.acceptedInvitation.teamId,
      ]);
      expect(members.map((row) => row.user_id)).to.include(changes.acceptedInvitation.userId);
      const [system] = await testEnv().sql<{ id: number }>(`select id from users where login = 'system'`);
      expect(system!.id).to.equal(changes.expected.systemUserId);
      const [noPoint] = await testEnv().sql<{ id: number }>(`select id from nodes where name = 'NoPoint'`);
      expect(noPoint!.id).to.equal(changes.expected.noPointNodeId);
      const topic2 = await api().get(`/api/v3/topics/${changes.reply.topicId}`).expect(200);
      expect(topic2.body.topic.replies_count).to.equal(changes.expected.topic2RepliesCount);
      const [lastReply] = await testEnv().sql<{ last_reply_id: number }>('select last_reply_id from topics where id = $1', [
        changes.reply.topicId,
      ]);
      expect(lastReply!.last_reply_id).to.equal(changes.expected.topic2LastReplyId);
      const [edited] = await testEnv().sql<{ body: string }>('select body from topics where id = $1', [changes.editedTopic.id]);
      // The edit is here, its photo link pointing at the photo's copy.
      const withoutImages = (body: string) => body.replace(/!\[[^\]]*\]\([^)]*\)/g, '![]()');
      expect(withoutImages(edited!.body)).to.equal(withoutImages(changes.editedTopic.body));
      expect(edited!.body).to.include(`${PUBLIC_URL}/uploads/photos/`);
      const [topic1] = await testEnv().sql<{ likes_count: number }>('select likes_count from topics where id = 1');
      expect(topic1!.likes_count).to.equal(changes.expected.topic1LikesCount);
      const newcomer = await api().get(`/api/v3/users/${changes.user.login}`).expect(200);
      expect(newcomer.body.user.id).to.equal(changes.user.id);
    } finally {
      await changing.drop();
    }
  });

  it('refuses, before writing anything, what cannot be kept as it is; --rename-login settles it', async () => {
    const odd = await createHomelandDatabase(databaseUrl());
    try {
      const base = await fillHomeland(odd.url);
      const person = base.users.find((u) => !u.becomes.anonymized)!;
      await withSource(odd.url, (client) => client.query(`update users set login = 'not a login' where id = $1`, [person.id]));
      const refused = await forumctl(['import', 'homeland', '--from', odd.url]);
      expect(refused.code).to.equal(2);
      expect(refused.stderr).to.include(`user ${person.id}`).and.include('--rename-login');
      const [{ n }] = (await testEnv().sql<{ n: number }>('select count(*)::int as n from users')) as [{ n: number }];
      expect(n, 'nothing was written').to.equal(1);
      const [{ id }] = (await testEnv().sql<{ id: number }>(`select id from users where login = 'system'`)) as [{ id: number }];
      expect(id, 'the built-in did not move').to.equal(1);
      const renamed = await forumctl([
        'import',
        'homeland',
        '--from',
        odd.url,
        '--rename-login',
        `${person.id}=renamed_one`,
        '--json',
      ]);
      expect(renamed.code, renamed.stderr).to.equal(0);
      await api().get('/api/v3/users/renamed_one').expect(200);
    } finally {
      await odd.drop();
    }
  });

  it('keeps the sections of a homeland from before 2020, which still has them', async () => {
    const older = await createHomelandDatabase(databaseUrl());
    try {
      const base = await fillHomeland(older.url);
      // As db/migrate/20160117061547_init_pg_db.rb made them, before 20201224095900_remove_section.rb.
      await withSource(older.url, async (client) => {
        await client.query(`create table sections (id serial primary key, name varchar not null, sort integer default 0 not null,
                              created_at timestamp, updated_at timestamp)`);
        await client.query(`alter table nodes add column section_id integer`);
        await client.query(`insert into sections (id, name, sort, created_at, updated_at)
                            values (1, 'Programming', 10, now(), now()), (2, 'Community', 5, now(), now())`);
        await client.query('update nodes set section_id = 2 where id = $1', [base.nodes[0]!.id]);
        await client.query('update nodes set section_id = 1 where id <> $1', [base.nodes[0]!.id]);
      });
      const report = await importFrom(older.url);
      expect(tableOf(report, 'sections').inserted).to.equal(2);
      const nodes = (await api().get('/api/v3/nodes').expect(200)).body.nodes as {
        id: number;
        section_id: number;
        section_name: string;
      }[];
      const first = nodes.find((node) => node.id === base.nodes[0]!.id)!;
      expect([first.section_id, first.section_name]).to.deep.equal([2, 'Community']);
      const other = nodes.find((node) => node.id === base.nodes[1]!.id)!;
      expect([other.section_id, other.section_name]).to.deep.equal([1, 'Programming']);
    } finally {
      await older.drop();
    }
  });

  it('skips, with why, a team whose login is no group name or whose name a group here has; reads a source without team_users', async () => {
    const teams = await createHomelandDatabase(databaseUrl());
    try {
      const base = await fillHomeland(teams.url);
      // A group here before the import holds the team's name, in another case (not made by forumctl: its audit entry
      // would name the built-in user, which must make room for homeland's user 1).
      const [made] = await testEnv().sql<{ id: number }>('insert into groups (name) values ($1) returning id', [
        base.team.login.toUpperCase(),
      ]);
      await withSource(teams.url, (client) =>
        client.query(
          `insert into users (id, login, name, email, email_md5, state, created_at, updated_at, type)
                      values ($1, 'x', 'X', 'x@example.com', md5('x@example.com'), 1, now(), now(), 'Team')`,
          [base.maxUserId + 1],
        ),
      );
      const report = await importFrom(teams.url);
      expect(tableOf(report, 'groups')).to.include({ read: 2, inserted: 0 });
      expect(tableOf(report, 'groups').skipped).to.deep.equal({
        'its login is not a group name (2 to 40 letters, digits, "_", "." or "-")': 1,
        "its name is another group's here": 1,
      });
      expect(tableOf(report, 'group_members')).to.include({ inserted: 0 });
      expect(tableOf(report, 'group_members').skipped).to.deep.equal({
        'an invitation not accepted': base.team.invitedIds.length,
        'its team is not imported': base.team.memberIds.length,
      });
      const groups = await testEnv().sql<{ id: number; name: string }>('select id, name from groups');
      expect(groups).to.deep.equal([{ id: made!.id, name: base.team.login.toUpperCase() }]);
      expect(await testEnv().sql('select * from group_members')).to.deep.equal([]);
      // A homeland without team_users (not one that this import supports has none, but a trimmed copy may not).
      await withSource(teams.url, (client) => client.query('drop table team_users'));
      const again = await importFrom(teams.url);
      expect(tableOf(again, 'group_members')).to.include({ read: 0, inserted: 0, removed: 0 });
    } finally {
      await teams.drop();
    }
  });

  it('refuses a first import into a forum that is already in use', async () => {
    const made = await forumctl([
      'users',
      'create',
      'someone',
      '--email',
      'someone@example.com',
      '--password',
      'a long password here',
    ]);
    expect(made.code, made.stderr).to.equal(0);
    const refused = await forumctl(['import', 'homeland', '--from', source.url]);
    expect(refused.code).to.equal(2);
    expect(refused.stderr).to.include('fresh database');
  });

  it('refuses a database that is not homeland’s, and one it cannot reach', async () => {
    const notHomeland = await forumctl(['import', 'homeland', '--from', databaseUrl()]);
    expect(notHomeland.code).to.equal(2);
    expect(notHomeland.stderr).to.include('no homeland database');
    const unreachable = await forumctl(['import', 'homeland', '--from', 'postgres://nobody@127.0.0.1:1/none']);
    expect(unreachable.code).to.equal(2);
    expect(unreachable.stderr).to.include('cannot connect');
  });
});

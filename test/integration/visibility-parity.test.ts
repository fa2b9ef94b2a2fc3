import { expect } from 'chai';
import type { Visibility } from '../../src/domain/shared/post.js';
import type { Viewer } from '../../src/domain/users/role.js';
import {
  ANONYMOUS,
  READERS,
  REPLY_RULES,
  type Reader,
  type ReaderProfile,
  type ReplyFacts,
  type ReplyRule,
  TOPIC_RULES,
  type TopicFacts,
  type TopicRule,
  replyVisibleTo,
  topicVisibleTo,
} from '../../src/domain/visibility/visibility.js';
import {
  SIGNED_OUT,
  type SqlReader,
  VIEWER,
  groupsOf,
  memberAt,
  moderatedCondition,
  readerAs,
  readerOf,
  replyCondition,
  topicCondition,
} from '../../src/adapters/persistence/read-models/visibility.js';
import { testEnv } from '../support/env.js';
import { type Audience, type NodeAccess, OPEN_NODE, mayModerate } from '../../src/domain/nodes/access.js';

/**
 * The visibility policy has two faces: the domain's conditions in TypeScript (what code holding a post asks) and
 * their SQL, compiled for statements (what lists, search, mail and counts ask). This runs both over the same rows,
 * for every condition alone and for every reader profile, with every form a statement gives its reader in: the
 * sets of posts they find must be equal. Changed on one side alone, a condition fails it; the fixtures are checked
 * to give every condition both answers, so that none can change unseen.
 */

const VISIBILITIES: Visibility[] = ['public', 'held', 'hidden'];
const BOOLEANS = [false, true];

interface World {
  users: { reader: number; other: number; blocked: number; admin: number; banned: number };
  nodes: { plain: number; hidden: number; blocked: number };
  topics: (TopicFacts & { id: number })[];
  replies: (ReplyFacts & { id: number })[];
  groupsOf: Map<number, number[]>;
  /** Every node of the fixtures, with its access. */
  placed: { id: number; access: NodeAccess }[];
}

/**
 * Every combination of what the conditions read: 288 topics in 8 nodes (3 open, 5 of each kind of access, §23), 32
 * conversations in no node (§24), 36 replies, the blocks of the reader and the admin, the reader's groups.
 */
async function arrange(): Promise<World> {
  const env = testEnv();
  const user = async (login: string, role: string) =>
    (
      await env.sql<{ id: number }>('insert into users (login, email, role) values ($1, $2, $3) returning id', [
        login,
        `${login}@example.com`,
        role,
      ])
    )[0]!.id;
  const node = async (name: string, hidden: boolean) =>
    (await env.sql<{ id: number }>('insert into nodes (name, hidden) values ($1, $2) returning id', [name, hidden]))[0]!.id;
  const users = {
    reader: await user('reader', 'member'),
    other: await user('other', 'member'),
    blocked: await user('blocked', 'member'),
    admin: await user('admin', 'admin'),
    banned: await user('banned', 'blocked'),
  };
  const nodes = { plain: await node('Plain', false), hidden: await node('Hidden', true), blocked: await node('Blocked', false) };
  // The reader is in `readers` and `keepers`; the account blocked by the administrators (`banned`) is in `readers` too.
  const group = async (name: string, members: number[]) => {
    const [row] = await env.sql<{ id: number }>('insert into groups (name) values ($1) returning id', [name]);
    for (const member of members) {
      await env.sql('insert into group_members (group_id, user_id) values ($1, $2)', [row!.id, member]);
    }
    return row!.id;
  };
  const readers = await group('readers', [users.reader, users.banned]);
  const keepers = await group('keepers', [users.reader]);
  const strangers = await group('strangers', [users.other]);
  const restricted = async (name: string, access: NodeAccess) => {
    const [row] = await env.sql<{ id: number }>(
      `insert into nodes (name, read_access, read_groups, moderator_groups) values ($1, $2, $3, $4) returning id`,
      [name, access.read.audience, access.read.groupIds, access.moderatorGroupIds],
    );
    return { id: row!.id, hidden: false, access };
  };
  const reading = (audience: Audience, groupIds: number[] = [], moderatorGroupIds: number[] = []): NodeAccess => ({
    ...OPEN_NODE,
    read: { audience, groupIds },
    moderatorGroupIds,
  });
  const placed = [
    { id: nodes.plain, hidden: false, access: OPEN_NODE },
    { id: nodes.hidden, hidden: true, access: OPEN_NODE },
    { id: nodes.blocked, hidden: false, access: OPEN_NODE },
    await restricted('Members', reading('members')),
    await restricted('Readers', reading('groups', [readers])),
    await restricted('Strangers', reading('groups', [strangers])),
    await restricted('Staff', reading('staff')),
    await restricted('Kept', reading('staff', [], [keepers])),
  ];
  // The reader blocked a user and a node; the administrator blocked the other member.
  await env.sql('insert into user_blocks (user_id, blocked_user_id) values ($1, $2), ($3, $4)', [
    users.reader,
    users.blocked,
    users.admin,
    users.other,
  ]);
  await env.sql('insert into node_blocks (user_id, node_id) values ($1, $2)', [users.reader, nodes.blocked]);

  const topics: World['topics'] = [];
  for (const userId of [users.reader, users.other, users.blocked])
    for (const visibility of VISIBILITIES)
      for (const deleted of BOOLEANS)
        for (const banned of BOOLEANS)
          for (const { id: nodeId, hidden, access } of placed) {
            const [row] = await env.sql<{ id: number }>(
              `insert into topics (user_id, node_id, title, body, body_html, visibility, grade, deleted_at)
               values ($1, $2, 't', 'b', '<p>b</p>', $3, $4, $5) returning id`,
              [userId, nodeId, visibility, banned ? 'ban' : 'normal', deleted ? new Date() : null],
            );
            topics.push({ id: row!.id, userId, visibility, deleted, banned, nodeId, node: { hidden, access } });
          }

  // Conversations (contract §24), in no node: the reader named in one, in a group that takes part in another, gone
  // from a third while that group takes part, and in none of a fourth, which an administrator is named in.
  const conversations: { userIds: number[]; groupIds: number[]; leftIds: number[] }[] = [
    { userIds: [users.reader, users.other], groupIds: [], leftIds: [] },
    { userIds: [users.other, users.blocked], groupIds: [readers], leftIds: [] },
    { userIds: [users.other], groupIds: [readers], leftIds: [users.reader] },
    { userIds: [users.other, users.admin], groupIds: [strangers], leftIds: [] },
  ];
  for (const { userIds, groupIds, leftIds } of conversations)
    for (const userId of [users.reader, users.other])
      for (const visibility of ['public', 'hidden'] as const)
        for (const deleted of BOOLEANS) {
          const [row] = await env.sql<{ id: number }>(
            `insert into topics (user_id, node_id, title, body, body_html, visibility, deleted_at)
             values ($1, null, 'c', 'b', '<p>b</p>', $2, $3) returning id`,
            [userId, visibility, deleted ? new Date() : null],
          );
          const id = row!.id;
          for (const user of [...userIds, ...leftIds]) {
            await env.sql('insert into conversation_participants (topic_id, user_id, left_at) values ($1, $2, $3)', [
              id,
              user,
              leftIds.includes(user) ? new Date() : null,
            ]);
          }
          for (const group of groupIds) {
            await env.sql('insert into conversation_participants (topic_id, group_id) values ($1, $2)', [id, group]);
          }
          topics.push({
            id,
            userId,
            visibility,
            deleted,
            banned: false,
            nodeId: null,
            conversation: { userIds: new Set(userIds), groupIds: new Set(groupIds), leftIds: new Set(leftIds) },
          });
        }

  const replies: World['replies'] = [];
  const topicId = topics[0]!.id;
  for (const userId of [users.reader, users.other, users.blocked])
    for (const visibility of VISIBILITIES)
      for (const deleted of BOOLEANS)
        for (const systemEvent of BOOLEANS) {
          const [row] = await env.sql<{ id: number }>(
            `insert into replies (topic_id, user_id, body, body_html, visibility, action, deleted_at)
             values ($1, $2, 'r', '<p>r</p>', $3, $4, $5) returning id`,
            [topicId, userId, visibility, systemEvent ? 'close' : null, deleted ? new Date() : null],
          );
          replies.push({ id: row!.id, userId, visibility, deleted, systemEvent });
        }
  return {
    users,
    nodes,
    topics,
    replies,
    groupsOf: new Map([
      [users.reader, [readers, keepers]],
      [users.banned, [readers]],
    ]),
    placed,
  };
}

/** A reader as code knows it and as a statement names it, and the user id the statement binds as `$1`. */
interface ReaderForm {
  name: string;
  domain: Reader;
  sql: SqlReader;
  id: number | null;
  role: string | null;
}

function readerForms(world: World): ReaderForm[] {
  const blocksOf = (userId: number) => ({
    nodeIds: new Set(userId === world.users.reader ? [world.nodes.blocked] : []),
    userIds: new Set(
      userId === world.users.reader ? [world.users.blocked] : userId === world.users.admin ? [world.users.other] : [],
    ),
  });
  const as = (viewer: Viewer): Reader => ({
    viewer,
    blocks: blocksOf(viewer.id),
    groupIds: new Set(world.groupsOf.get(viewer.id) ?? []),
  });
  const member: Viewer = { id: world.users.reader, role: 'member' };
  const admin: Viewer = { id: world.users.admin, role: 'admin' };
  const banned: Viewer = { id: world.users.banned, role: 'blocked' };
  const forms: ReaderForm[] = [
    { name: 'signed out', domain: ANONYMOUS, sql: SIGNED_OUT, id: null, role: null },
    { name: 'signed out, as a null id', domain: ANONYMOUS, sql: readerAs(null, '$1::int'), id: null, role: null },
  ];
  for (const viewer of [member, admin, banned]) {
    const who = { admin: 'an administrator', member: 'a member', blocked: 'a blocked account' }[viewer.role];
    forms.push(
      { name: `${who}, known to the code`, domain: as(viewer), sql: readerAs(viewer, '$1::int'), id: viewer.id, role: null },
      { name: `${who}, looked up by id`, domain: as(viewer), sql: readerOf('$1::int'), id: viewer.id, role: null },
      { name: `${who}, the statement's caller`, domain: as(viewer), sql: VIEWER, id: viewer.id, role: viewer.role },
      {
        name: `${who}, read as a member (mail)`,
        domain: as({ id: viewer.id, role: 'member' }),
        sql: memberAt('$1::int'),
        id: viewer.id,
        role: null,
      },
    );
  }
  return forms;
}

/** The ids `form`'s reader finds under `profile` by SQL: topics (with their nodes) or replies. */
async function foundBySql(
  world: World,
  profile: ReaderProfile,
  form: ReaderForm,
  kind: 'topic' | 'reply',
  nodeJoined = true,
): Promise<number[]> {
  // `v` stands for the caller a statement finds by its token (VIEWER reads v.id, v.role and v.groups, the groups off
  // their row); no row when signed out.
  const caller = `(select $1::int as id, $3::text as role, ${groupsOf('$1::int')} as groups) v`;
  const text =
    kind === 'topic'
      ? `select t.id from topics t left join nodes n on n.id = t.node_id left join ${caller} on v.id is not null
         where t.id = any($2::int[]) and ${topicCondition(profile, form.sql, nodeJoined ? { topic: 't', node: 'n' } : { topic: 't' })}
         order by t.id`
      : `select r.id from replies r left join ${caller} on v.id is not null
         where r.id = any($2::int[]) and ${replyCondition(profile, form.sql, 'r')} order by r.id`;
  const ids = kind === 'topic' ? world.topics.map((t) => t.id) : world.replies.map((r) => r.id);
  const rows = await testEnv().sql<{ id: number }>(text, [form.id, ids, form.role]);
  return rows.map((row) => row.id);
}

function foundByCode(world: World, profile: ReaderProfile, form: ReaderForm, kind: 'topic' | 'reply'): number[] {
  return kind === 'topic'
    ? world.topics.filter((topic) => topicVisibleTo(profile, form.domain, topic)).map((t) => t.id)
    : world.replies.filter((reply) => replyVisibleTo(profile, form.domain, reply)).map((r) => r.id);
}

const ruleAlone = (kind: 'topic' | 'reply', rule: string): ReaderProfile =>
  kind === 'topic'
    ? { name: `${rule} alone`, topic: [rule as TopicRule], reply: [] }
    : { name: `${rule} alone`, topic: [], reply: [rule as ReplyRule] };

describe('the visibility policy: the domain and its SQL agree', () => {
  let world: World;
  beforeEach(async () => {
    world = await arrange();
  });

  it('gives every condition both answers over the fixtures, so that a change to either side shows', () => {
    for (const [kind, rules] of [
      ['topic', Object.keys(TOPIC_RULES)],
      ['reply', Object.keys(REPLY_RULES)],
    ] as const) {
      for (const rule of rules) {
        const answers = new Set(
          readerForms(world).flatMap((form) => foundByCode(world, ruleAlone(kind, rule), form, kind).length),
        );
        const all = kind === 'topic' ? world.topics.length : world.replies.length;
        const some = [...answers].some((found) => found > 0 && found < all);
        expect(some, `${kind} condition ${rule} keeps some posts and leaves others for some reader`).to.equal(true);
      }
    }
  });

  it('finds the same posts by each condition alone, for every form of reader', async () => {
    for (const [kind, rules] of [
      ['topic', Object.keys(TOPIC_RULES)],
      ['reply', Object.keys(REPLY_RULES)],
    ] as const) {
      for (const rule of rules) {
        for (const form of readerForms(world)) {
          const profile = ruleAlone(kind, rule);
          expect(await foundBySql(world, profile, form, kind), `${kind} ${rule}, ${form.name}`).to.deep.equal(
            foundByCode(world, profile, form, kind),
          );
          // A statement that does not join the topic's node gets it by the topic's node id.
          if (kind === 'topic' && rule === 'nodeReadable') {
            expect(await foundBySql(world, profile, form, kind, false), `${rule} unjoined, ${form.name}`).to.deep.equal(
              foundByCode(world, profile, form, kind),
            );
          }
        }
      }
    }
  });

  it('finds the same posts under every reader profile, for every form of reader', async () => {
    for (const profile of Object.values(READERS)) {
      for (const form of readerForms(world)) {
        for (const kind of ['topic', 'reply'] as const) {
          expect(await foundBySql(world, profile, form, kind), `${profile.name} (${kind}), ${form.name}`).to.deep.equal(
            foundByCode(world, profile, form, kind),
          );
        }
      }
    }
  });

  it('finds the same posts through the search functions as the search profile does in code', async () => {
    const env = testEnv();
    const thread = world.topics[0]!;
    // A document for every topic, and one for every reply of the thread's topic.
    const hits = `array(
      select row(t.id, null, now(), false)::search_hit from unnest($1::int[]) as t(id)
      union all
      select row($2::int, r.id, now(), false)::search_hit from unnest($3::int[]) as r(id))`;
    const signedOutAndCallers = readerForms(world).filter((form) => form.sql === SIGNED_OUT || form.sql === VIEWER);
    for (const form of signedOutAndCallers) {
      const rows = await env.sql<{ topic_id: number; reply_id: number | null }>(
        `select topic_id, reply_id from search_visible(${hits}, $4::int, 100000)`,
        [world.topics.map((t) => t.id), thread.id, world.replies.map((r) => r.id), form.id],
      );
      const found = rows.map((row) => `${row.topic_id}:${row.reply_id ?? ''}`).sort();
      const threadShown = topicVisibleTo(READERS.search, form.domain, thread);
      const expected = [
        ...world.topics.filter((t) => topicVisibleTo(READERS.search, form.domain, t)).map((t) => `${t.id}:`),
        ...world.replies
          .filter((r) => threadShown && replyVisibleTo(READERS.search, form.domain, r))
          .map((r) => `${thread.id}:${r.id}`),
      ].sort();
      expect(found, form.name).to.deep.equal(expected);
    }
  });

  it('says who moderates a node as the domain does, for everyone who is not an administrator (moderatedCondition)', async () => {
    const env = testEnv();
    const everyone = [world.users.reader, world.users.other, world.users.banned, world.users.blocked];
    let moderating = 0;
    for (const userId of everyone) {
      const [user] = await env.sql<{ role: Viewer['role'] }>('select role from users where id = $1', [userId]);
      const who = { viewer: { id: userId, role: user!.role }, groupIds: new Set(world.groupsOf.get(userId) ?? []) };
      const rows = await env.sql<{ id: number }>(
        `select n.id from nodes n where n.id = any($2::int[]) and ${moderatedCondition(groupsOf('$1::int'), 'n')} order by n.id`,
        [userId, world.placed.map((node) => node.id)],
      );
      const expected = world.placed.filter((node) => mayModerate(node.access, who)).map((node) => node.id);
      expect(
        rows.map((row) => row.id),
        `user ${userId}`,
      ).to.deep.equal(expected.sort((a, b) => a - b));
      moderating += expected.length;
    }
    expect(moderating, 'someone moderates something').to.be.greaterThan(0);
  });
});

import { checkedApi } from './openapi.js';
import type { NodeAccessChange } from '../../src/application/nodes/node-access.js';
import type { ActingUser } from '../../src/application/actor.js';
import type { Role } from '../../src/domain/users/role.js';
import { testEnv } from './env.js';

export interface TestUser extends ActingUser {
  token: string;
  auth: { Authorization: string };
}

/** The HTTP API of the test environment, through `app.callback()` (no port), every response checked against the document. */
export function api() {
  return checkedApi(testEnv().app);
}

/** A user with a live access token. Inserted directly: hashing a password per test would only slow the suite. */
export async function makeUser(login: string, role: Role = 'member'): Promise<TestUser> {
  const env = testEnv();
  const [row] = await env.sql<{ id: number }>('insert into users (login, email, role) values ($1, $2, $3) returning id', [
    login,
    `${login.toLowerCase()}@example.com`,
    role,
  ]);
  const issued = await env.scope(() => env.useCases.issueToken.execute({ userId: row!.id, clientId: null }));
  return { id: row!.id, login, role, token: issued.access_token, auth: { Authorization: `Bearer ${issued.access_token}` } };
}

export async function makeNode(name: string, options: { hidden?: boolean; sort?: number } = {}): Promise<number> {
  const env = testEnv();
  const [system] = await env.sql<{ id: number }>("select id from users where login = 'system'");
  const admin = { id: system!.id, login: 'system', role: 'admin' as const };
  return env.scope(() => env.useCases.createNode.execute(admin, { name, ...options }));
}

export async function makeTopic(author: ActingUser, nodeId: number, title = 'A topic', body = 'Some **body**'): Promise<number> {
  const env = testEnv();
  return env.scope(() => env.useCases.createTopic.execute(author, { title, body, nodeId }));
}

/** A reply row as issue 3's use cases will write it; enough for rules that look at replies. */
export async function insertReply(topicId: number, userId: number, options: { action?: string; deleted?: boolean } = {}) {
  const [row] = await testEnv().sql<{ id: number }>(
    `insert into replies (topic_id, user_id, body, body_html, action, deleted_at)
     values ($1, $2, 'a reply', '<p>a reply</p>', $3, $4) returning id`,
    [topicId, userId, options.action ?? null, options.deleted ? new Date() : null],
  );
  return row!.id;
}

export async function topicRow(id: number) {
  const [row] = await testEnv().sql<Record<string, unknown>>('select * from topics where id = $1', [id]);
  return row!;
}

export async function makeReply(author: ActingUser, topicId: number, body = 'a reply'): Promise<number> {
  const env = testEnv();
  return (await env.scope(() => env.useCases.createReply.execute(author, { topicId, body }))).reply.id;
}

/** A group (contract §23) with these members. */
export async function makeGroup(name: string, members: readonly ActingUser[] = [], options: { hidden?: boolean } = {}) {
  const [row] = await testEnv().sql<{ id: number }>('insert into groups (name, hidden) values ($1, $2) returning id', [
    name,
    options.hidden ?? false,
  ]);
  for (const member of members) {
    await testEnv().sql('insert into group_members (group_id, user_id) values ($1, $2)', [row!.id, member.id]);
  }
  return row!.id;
}

/** Sets who may read, start topics and reply in node `nodeId`, as `forumctl nodes access` does (contract §23). */
export async function setNodeAccess(nodeId: number, change: NodeAccessChange): Promise<void> {
  const env = testEnv();
  const [system] = await env.sql<{ id: number }>("select id from users where login = 'system'");
  const admin = { id: system!.id, login: 'system', role: 'admin' as const };
  await env.scope(() => env.useCases.setNodeAccess.execute(admin, nodeId, change));
}

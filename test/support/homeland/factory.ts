import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hash as bcryptHash } from '@node-rs/bcrypt';
import pg from 'pg';
import sharp from 'sharp';
import { HOMELAND_DEVISE_PEPPER } from '../../../src/application/imports/import-homeland.js';

/**
 * A small, complete, deterministic homeland community (issue 36), written into a database that
 * `createHomelandDatabase` (schema.ts) made, the way homeland's models (at HOMELAND_COMMIT) would have left it:
 * for `forumctl import homeland` tests. Every id and value is explicit; only the OAuth tokens' times follow `now`.
 *
 * What "the way homeland leaves it" means here (read from homeland's app/models, app/jobs and its gems):
 * - timestamps are `timestamp without time zone` holding UTC, with microseconds (Rails writes them);
 * - counter caches are Rails': `users.topics_count`/`replies_count` and `nodes.topics_count` count every row ever
 *   created (system events and `mention` events included; soft deletes never lower them; a team's `topics_count`
 *   counts the topics with its `team_id`); `topics.replies_count` and the last-reply columns are what
 *   `Topic#update_last_reply` last wrote (stale when someone other than the last replier deletes a reply);
 *   `likes_count`, `followers_count`, `following_count` are action-store's recounts of `actions` (a duplicate row
 *   counts twice, a self-follow counts);
 * - `touch: true` and `update_attribute` bump `updated_at` (a reply touches its topic, a like its target);
 * - `mentioned_user_ids`, `last_active_mark` (epoch seconds), `replies.target_id` (a string), `actions` rows with
 *   `action_type`/`target_type`/`user_type`, `notifications` with `notify_type` and (second) targets as the jobs
 *   write them, doorkeeper's tables with secrets and tokens in clear, `settings` rows YAML-encoded as
 *   rails-settings-cached 2.9 stores them, and every `schema_migrations` version of homeland's db/migrate.
 *
 * Where the fixture goes beyond what homeland's current code would do, it says so: a self-like and a self-follow
 * (older homeland did not refuse them), a duplicate like (action-store's `find_or_create_by` race), a
 * `last_active_mark` left null (a row from before the column), two users on one device token.
 */

/** homeland's shipped devise pepper (config/initializers/devise.rb at HOMELAND_COMMIT): the import's default. */
export const HOMELAND_PEPPER = HOMELAND_DEVISE_PEPPER;

/** The address homeland's absolute links use in this fixture (`Setting.domain`, from the environment there). */
export const HOMELAND_SITE_URL = 'https://ruby-china.org';

/** Every migration version under homeland's db/migrate at HOMELAND_COMMIT: what `rails db:migrate` records. */
// prettier-ignore
export const HOMELAND_MIGRATIONS = [
  '20160117061547', '20160119135131', '20160119163218', '20160119191013', '20160126061903', '20160219075601',
  '20160302043713', '20160329032533', '20160329091441', '20160518061135', '20160518083347', '20160602020013',
  '20160707084438', '20160710111853', '20160819093756', '20160826044113', '20160912124102', '20161215014636',
  '20161221022846', '20161228064225', '20161230094832', '20170204090209', '20170207141208', '20170217050010',
  '20170222062457', '20170224074052', '20170302084611', '20180316113342', '20180316130855', '20180614093642',
  '20180912075805', '20200213140928', '20200213155459', '20200331102233', '20200717154057', '20200721020514',
  '20200721022652', '20201016074728', '20201119010515', '20201221082655', '20201224095900', '20210409032709',
  '20220113130722', '20231003022419', '20231003022420', '20231003022421', '20250630092055',
];

/**
 * The 72 bytes bcrypt saw for a devise password (devise 4.9.4 `Devise::Encryptor`: `"#{password}#{pepper}"`, and
 * bcrypt reads at most 72 bytes): the password's UTF-8 bytes, then the pepper's, cut at 72 (a multi-byte character
 * may be cut).
 */
export function devisePasswordBytes(password: string, pepper: string = HOMELAND_PEPPER): Buffer {
  return Buffer.from(password + pepper, 'utf8').subarray(0, 72);
}

/**
 * A devise hash as homeland stores it in `users.encrypted_password`: `$2a$<cost>$…` (Ruby's bcrypt gem writes `$2a$`;
 * homeland's production cost is 10, tests use 4). `salt` (16 bytes) makes it deterministic.
 */
export async function devisePasswordHash(
  password: string,
  options: { pepper?: string; cost?: number; salt?: Uint8Array } = {},
): Promise<string> {
  const hashed = await bcryptHash(devisePasswordBytes(password, options.pepper), options.cost ?? 4, options.salt);
  return hashed.replace(/^\$2b\$/, '$2a$');
}

/**
 * An ISO 8601 UTC time with microseconds, as the rows hold it: `2024-01-10T08:00:00.112233Z` (Rails writes
 * microseconds; ours keep milliseconds: compare through `inMilliseconds`).
 */
export type HomelandTime = string;

/**
 * A homeland time as our `timestamptz(3)` columns keep it: rounded to the millisecond (PostgreSQL rounds; no time
 * here is on a half millisecond), as an ISO string (`2024-01-10T08:00:00.112Z`).
 */
export function inMilliseconds(time: HomelandTime): string {
  const match = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?Z$/.exec(time);
  if (!match) throw new Error(`not a homeland time: ${time}`);
  const micros = Number((match[2] ?? '').padEnd(6, '0'));
  return new Date(Date.parse(`${match[1]}Z`) + Math.round(micros / 1000)).toISOString();
}

/** What a homeland account is, and what the import should make of it (docs/import-homeland.md, users). */
export interface FixtureUser {
  id: number;
  login: string;
  /** As stored; '' (blank) becomes null here. */
  name: string | null;
  email: string;
  /** The password that opens `encrypted_password` (with HOMELAND_PEPPER); null: none (`''` stored). */
  password: string | null;
  /** homeland's `users.state`: -1 deleted, 1 member, 2 blocked, 3 vip, 4 hr, 90 maintainer, 99 admin. */
  state: number;
  /** `confirmed_at` is set. */
  confirmed: boolean;
  /** Why they are an administrator in homeland: state 99, or their e-mail in the `admin_emails` setting. */
  adminBy: 'state' | 'setting' | null;
  createdAt: HomelandTime;
  /** Ours after the import: role, account state, whether anonymized (state -1), login and e-mail then. */
  becomes: {
    role: 'admin' | 'member' | 'blocked';
    state: 'active' | 'unverified' | 'left';
    anonymized: boolean;
    login: string;
    email: string;
    /** Whether a password hash is copied (not for anonymized accounts nor empty ones). */
    hasPassword: boolean;
  };
  /** The counter caches as homeland left them (Rails' rules, not ours). */
  homeland: { topicsCount: number; repliesCount: number; followersCount: number; followingCount: number };
  /**
   * Our counters after the import's recount (counter-maintenance.ts): topics not deleted; replies with no `action`
   * and not deleted (in any topic); follows not of oneself nor of a team; favorites.
   */
  expected: { topicsCount: number; repliesCount: number; followersCount: number; followingCount: number; favoritesCount: number };
}

export interface FixtureNode {
  id: number;
  name: string;
  /** null where the row has none (becomes ''). */
  summary: string | null;
  sort: number;
  /** Listed in the `node_ids_hide_in_topics_index` setting: `hidden` after the import. */
  hidden: boolean;
  /** `created_at` is null (an old row): the import's time. */
  nullTimestamps: boolean;
  /** homeland's `topics_count` (every topic ever in it, deleted and banned ones included). */
  homelandTopicsCount: number;
  /** Ours: its topics not deleted, banned ones excluded (they move to NoPoint). */
  expectedTopicsCount: number;
}

export interface FixtureTopic {
  id: number;
  userId: number;
  /** homeland's node. */
  nodeId: number;
  /** Ours: `nodeId`, or 'NoPoint' for a banned topic. */
  expectedNodeId: number | 'NoPoint';
  title: string;
  body: string;
  grade: 'normal' | 'excellent' | 'ban';
  closedAt: HomelandTime | null;
  deletedAt: HomelandTime | null;
  /** `who_deleted`: the deleter's login (ours: `deleted_by_id` = that user's id). */
  whoDeleted: string | null;
  expectedDeletedById: number | null;
  suggestedAt: HomelandTime | null;
  /** As stored; ours is true for banned topics too. */
  lockNode: boolean;
  expectedLockNode: boolean;
  /** The team that owns it (dropped by the import). */
  teamId: number | null;
  /** Epoch seconds, or null (a row from before the column: ours is `created_at`). */
  lastActiveMark: number | null;
  createdAt: HomelandTime;
  updatedAt: HomelandTime;
  mentionedUserIds: number[];
  /** As homeland left them: `Topic#update_last_reply`'s last write, and action-store's like count. */
  homeland: { repliesCount: number; lastReplyId: number | null; likesCount: number };
  /**
   * Ours after the recount: replies with no `action` and not deleted; the last of them; likes from the imported
   * like rows (self-likes and duplicates skipped; a deleted account's like is kept: the account is imported,
   * anonymized). `lastReplyUserLogin` is the login after the import (`deleted_<id>` for a deleted account).
   */
  expected: {
    repliesCount: number;
    lastReplyId: number | null;
    lastReplyUserId: number | null;
    lastReplyUserLogin: string | null;
    repliedAt: HomelandTime | null;
    likesCount: number;
  };
}

export interface FixtureReply {
  id: number;
  topicId: number;
  userId: number;
  body: string;
  /** null (written by someone), or a system event: ban, excellent, unexcellent, close, reopen, mention. */
  action: string | null;
  deletedAt: HomelandTime | null;
  replyToId: number | null;
  /** `mention` events only: what linked the topic (`target_type` 'Reply' or 'Topic', `target_id` as a string). */
  target: { type: string; id: string } | null;
  mentionedUserIds: number[];
  createdAt: HomelandTime;
  /** false for `mention` events (skipped, open question 12). */
  imported: boolean;
  homelandLikesCount: number;
  /** Ours: like rows imported for it. */
  expectedLikesCount: number;
}

/** Where an `actions` row goes (docs/import-homeland.md, actions), or why it does not. */
export type ActionFate =
  | { table: 'likes'; targetType: 'topic' | 'reply' }
  | { table: 'user_follows' | 'topic_follows' | 'topic_favorites' | 'user_blocks' | 'node_blocks' }
  | { table: null; reason: 'dropped' | 'self' | 'duplicate' | 'team' };

export interface FixtureAction {
  id: number;
  actionType: string;
  targetType: string;
  targetId: number;
  userType: string;
  userId: number;
  createdAt: HomelandTime;
  fate: ActionFate;
}

/** Our notification a homeland one becomes, or null with why. */
export type NotificationFate =
  | {
      type: 'TopicReply' | 'Mention' | 'Topic' | 'Follow' | 'NodeChanged';
      topicId: number | null;
      replyId: number | null;
      nodeId: number | null;
      mentionType: 'Topic' | 'Reply' | null;
    }
  | { type: null; reason: 'comment' | 'team' };

export interface FixtureNotification {
  id: number;
  userId: number;
  actorId: number | null;
  notifyType: string;
  targetType: string | null;
  targetId: number | null;
  secondTargetType: string | null;
  secondTargetId: number | null;
  read: boolean;
  createdAt: HomelandTime;
  becomes: NotificationFate;
}

export interface FixtureDevice {
  id: number;
  userId: number;
  platform: 'ios' | 'android';
  token: string;
  lastActivedAt: HomelandTime | null;
  /** Skipped: its user is deleted, or another user's device with the same token was active more recently. */
  imported: boolean;
  why: string;
}

export interface FixtureApplication {
  id: number;
  name: string;
  uid: string;
  /** In clear, as doorkeeper keeps it (ours: its SHA-256 hex, for a confidential one). */
  secret: string;
  /** `redirect_uri` split on its lines. */
  redirectUris: string[];
  confidential: boolean;
  ownerId: number;
  /** doorkeeper `level` (1: 7-day tokens). */
  level: number;
}

export interface FixtureToken {
  id: number;
  /** null: a client-credentials token. */
  userId: number | null;
  applicationId: number;
  token: string;
  refreshToken: string | null;
  createdAt: HomelandTime;
  expiresIn: number;
  /** `created_at + expires_in`. */
  expiresAt: HomelandTime;
  revokedAt: HomelandTime | null;
  /** Imported (works in homeland, and its user is imported and neither deleted nor unverified). */
  live: boolean;
  why: string;
}

export interface FixturePhoto {
  id: number;
  userId: number | null;
  /** `photos.image`: `<login>/<uuid>.png` (or `<year>/…` for a photo without a user). */
  image: string;
  /** writeHomelandUploads writes it (`<folder>/photo/<image>`); false: the file is missing. */
  file: boolean;
  width: number;
  height: number;
  /** Where bodies link it, with the link text as written. */
  links: { in: 'topic' | 'reply'; id: number; url: string }[];
}

export interface HomelandFixture {
  /** The `now` the tokens' times were built from. */
  now: Date;
  pepper: string;
  /** schema_migrations' newest version. */
  schemaVersion: string;
  /** How the settings rows are encoded (see HomelandFillOptions.settingsStyle). */
  settingsStyle: 'admin-page' | 'console';
  /** The `settings` rows as stored (`value` is the YAML text). */
  settings: { var: string; value: string }[];
  /** What the settings say: admin e-mails, hidden node ids, the default locale. */
  adminEmails: string[];
  hiddenNodeIds: number[];
  defaultLocale: string;
  /** People (the team is apart), by id. */
  users: FixtureUser[];
  /**
   * The one team row (`type = 'Team'`): a group here (its login, its name as the title, its accepted members), not
   * a user; its follows and its invitation's notification are skipped.
   */
  team: {
    id: number;
    login: string;
    name: string;
    topicIds: number[];
    /** Its `team_users` rows. */
    memberships: number;
    /** Who accepted (status 1): the group's members. */
    memberIds: number[];
    /** Who was invited and has not accepted (status 0): not members. */
    invitedIds: number[];
  };
  /** `max(users.id)`, the team included: our `system` moves to this + 1. */
  maxUserId: number;
  nodes: FixtureNode[];
  /** `max(nodes.id)`: our NoPoint moves to this + 1 (no source node is named NoPoint). */
  maxNodeId: number;
  /** Topics in NoPoint after the import (banned, not deleted). */
  expectedNoPointTopicsCount: number;
  topics: FixtureTopic[];
  replies: FixtureReply[];
  actions: FixtureAction[];
  notifications: FixtureNotification[];
  devices: FixtureDevice[];
  applications: FixtureApplication[];
  tokens: FixtureToken[];
  photos: FixturePhoto[];
  authorizations: FixtureAuthorization[];
  /** Rows of tables the import drops, by table. */
  droppedRows: Record<string, number>;
}

export interface HomelandFillOptions {
  /** The tokens' times are relative to it (the live token was made an hour before). Default: the current time. */
  now?: Date;
  /**
   * How the settings were saved in homeland: 'admin-page' (default: the admin form stores the text typed, a YAML
   * string: `admin_emails` as `"--- |-\n  a@x\n  b@y\n"`, one hidden node as `"--- '5'\n"`), or 'console'
   * (`Setting.admin_emails = …` stores the field's array: `"---\n- a@x\n- b@y\n"`).
   */
  settingsStyle?: 'admin-page' | 'console';
  /** bcrypt cost of the password hashes (homeland's production uses 10). Default 4. */
  cost?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// The community, as written. Times are UTC, as stored.

interface UserRow {
  id: number;
  login: string;
  name: string;
  email: string;
  state: number;
  password: string | null;
  confirmed: boolean;
  created: string;
  type?: 'Team';
  extra?: Record<string, unknown>;
}

// prettier-ignore
const USERS: UserRow[] = [
  {
    id: 1, login: 'huacnlee', name: 'Jason Lee', email: 'huacnlee@example.com', state: 99, password: 'founder-pass-1',
    confirmed: true, created: '2023-01-03 02:00:00.100001',
    extra: { location: 'Chengdu', location_id: 1, website: 'https://huacnlee.com', github: 'huacnlee', twitter: 'huacnlee',
      company: 'Longbridge', tagline: 'Ruby China founder', bio: 'Writes homeland.', email_public: true,
      sign_in_count: 120, current_sign_in_ip: '203.0.113.10', last_sign_in_ip: '203.0.113.10',
      current_sign_in_at: '2024-04-01 10:00:00.000001', last_sign_in_at: '2024-03-28 09:00:00.000001' },
  },
  {
    // A password with non-ASCII characters.
    id: 2, login: 'rei', name: 'Rei', email: 'rei@example.com', state: 1, password: 'pässwörd-中文-1',
    confirmed: true, created: '2023-02-10 03:30:00.200002',
    extra: { location: 'Shanghai', location_id: 2, github: 'rei-vilo', sign_in_count: 40, avatar: 'e5f8c7a0.jpg' },
  },
  {
    // A maintainer with a passphrase longer than bcrypt's 72 bytes: the 72nd byte cuts '€' (bytes 71-73) in two.
    id: 3, login: 'lgn21st', name: 'Daniel Lv', email: 'lgn21st@example.com', state: 90,
    password: 'long-passphrase-of-a-maintainer-who-likes-typing-many-words-every-day!€-tail',
    confirmed: true, created: '2023-02-11 05:00:00.300003',
    extra: { location: 'Shanghai', location_id: 2, company: 'Ruby Conf China' },
  },
  {
    // Signed up, never confirmed; a blank name.
    id: 4, login: 'newbie', name: '', email: 'newbie@example.com', state: 1, password: 'newbie-pass',
    confirmed: false, created: '2024-03-20 12:00:00.400004',
  },
  {
    // Deleted their account (state -1): login, name and e-mail stay. Their e-mail is in admin_emails too.
    id: 5, login: 'gone', name: 'Gone Away', email: 'gone@example.com', state: -1, password: 'gone-pass-1',
    confirmed: true, created: '2023-03-01 08:00:00.500005', extra: { location: 'Beijing', bio: 'bye' },
  },
  {
    // An administrator by the admin_emails setting only; a 6-character password (homeland's minimum).
    id: 6, login: 'jasl', name: 'Jasl', email: 'jasl@example.com', state: 1, password: 'secret',
    confirmed: true, created: '2023-04-01 09:00:00.600006', extra: { twitter: 'jasl9187' },
  },
  {
    // Blocked (may sign in, only reads).
    id: 7, login: 'mary', name: 'Mary', email: 'mary@example.com', state: 2, password: 'blocked-pass-7',
    confirmed: true, created: '2023-05-05 10:00:00.700007',
  },
  {
    // Signed up with GitHub (omniauth): no password, a binding in `authorizations` (AUTHORIZATIONS).
    id: 9, login: 'octocat', name: 'The Octocat', email: 'octocat@example.com', state: 1, password: null,
    confirmed: true, created: '2023-07-01 00:00:00.900009', extra: { github: 'octocat' },
  },
  {
    // A team: a users row with type 'Team' and no password; owns topic 7 through topics.team_id.
    id: 8, login: 'homeland-team', name: 'Homeland Team', email: 'team@example.com', state: 1, password: null,
    confirmed: true, created: '2023-06-01 00:00:00.800008', type: 'Team',
  },
];

/** `authorizations` (omniauth's bindings, `app/models/authorization.rb`), and the link each becomes here (or why not). */
export interface FixtureAuthorization {
  id: number;
  provider: string;
  uid: string;
  user: number;
  created: string;
  /** `provider:subject` of the link it becomes, or the reason it is skipped. */
  becomes: { link: string } | { skipped: string };
}

// prettier-ignore
const AUTHORIZATIONS: FixtureAuthorization[] = [
  { id: 1, provider: 'github', uid: '6008', user: 6, created: '2023-04-01 09:00:00.000901', becomes: { link: 'github:6008' } },
  { id: 2, provider: 'github', uid: '583231', user: 9, created: '2023-07-01 00:00:00.000902', becomes: { link: 'github:583231' } },
  { id: 3, provider: 'twitter', uid: 'rei_tw', user: 2, created: '2023-02-10 03:30:00.000903', becomes: { link: 'twitter:rei_tw' } },
  // The same GitHub identity bound again to another account (homeland's index on the pair is not unique).
  { id: 4, provider: 'github', uid: '6008', user: 7, created: '2023-05-05 10:00:00.000904',
    becomes: { skipped: 'the same identity bound twice (the first kept)' } },
  { id: 5, provider: 'github', uid: '5005', user: 5, created: '2023-03-01 08:00:00.000905',
    becomes: { skipped: "its user's account was deleted" } },
];

/** `team_users` (`app/models/team_user.rb`): `role` 0 owner, 1 member; `status` 0 pendding (invited), 1 accepted. */
interface TeamUserRow {
  id: number;
  team: number;
  user: number;
  role: 0 | 1;
  status: 0 | 1;
  created: string;
}

// prettier-ignore
const TEAM_USERS: TeamUserRow[] = [
  // rei made the team (its owner, accepted as the team is created).
  { id: 1, team: 8, user: 2, role: 0, status: 1, created: '2023-06-01 00:00:00.000801' },
  // jasl was invited (notification 4, team_invite) and never accepted: not a member.
  { id: 2, team: 8, user: 6, role: 1, status: 0, created: '2023-06-05 00:00:00.000404' },
];

interface NodeRow {
  id: number;
  name: string;
  summary: string | null;
  sort: number;
  created: string | null;
}

const NODES: NodeRow[] = [
  { id: 1, name: 'Ruby', summary: 'Ruby 语言', sort: 10, created: '2023-01-03 02:10:00.000011' },
  { id: 2, name: 'Rails', summary: 'Ruby on Rails', sort: 9, created: '2023-01-03 02:11:00.000012' },
  { id: 3, name: 'Go', summary: null, sort: 0, created: null },
  { id: 4, name: '招聘', summary: '**招聘**与求职', sort: 5, created: '2023-01-03 02:13:00.000014' },
  { id: 5, name: 'Off-topic', summary: '灌水', sort: 1, created: '2023-01-03 02:14:00.000015' },
];
/** In `node_ids_hide_in_topics_index`. */
const HIDDEN_NODE_IDS = [5];

const UUID = {
  photo1: '3f2b6c1e-8a4d-4c2b-9d7e-1a2b3c4d5e6f',
  photo2: 'b7e1f0c2-5d3a-4e8f-a1b2-c3d4e5f6a7b8',
  photo3: '0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f',
};
const PHOTO1 = `rei/${UUID.photo1}.png`;
const PHOTO2 = `2024/${UUID.photo2}.png`;
const PHOTO3 = `huacnlee/${UUID.photo3}.png`;

interface TopicRow {
  id: number;
  user: number;
  node: number;
  title: string;
  body: string;
  created: string;
  grade?: -1 | 1;
  closed?: string;
  deleted?: string;
  whoDeleted?: string;
  suggested?: string;
  lockNode?: boolean;
  team?: number;
  mentioned?: number[];
  /** A row from before last_active_mark. */
  noMark?: boolean;
  /** Extra times it was touched (node moved, edited…). */
  touched?: string[];
}

// prettier-ignore
const TOPICS: TopicRow[] = [
  {
    id: 1, user: 2, node: 1, created: '2024-01-10 08:00:00.112233', mentioned: [3],
    title: 'Ruby 3.4 的 YJIT 有多快？',
    body: [
      'YJIT 在 Ruby 3.4 里又快了不少，@lgn21st 之前测过。',
      '',
      '```ruby',
      'def fib(n) = n < 2 ? n : fib(n - 1) + fib(n - 2)',
      'puts fib(30)',
      '```',
      '',
      '跑分截图：',
      '',
      `![bench.png](/uploads/photo/${PHOTO2})`,
      '',
      '详见 [官方说明](https://www.ruby-lang.org/en/news/2024/12/25/ruby-3-4-0-released/)。',
    ].join('\n'),
  },
  {
    id: 2, user: 1, node: 2, created: '2024-01-11 01:00:00.223344', grade: 1,
    title: 'Rails 8 发布了',
    body: 'Rails 8 带来了 **Solid Queue**、Solid Cache 和 Kamal 2。\n\n- https://rubyonrails.org/2024/11/7/rails-8-no-paas-required\n- 升级指南见 `guides/upgrading_ruby_on_rails.md`',
  },
  {
    id: 3, user: 6, node: 2, created: '2024-01-15 06:00:00.334455', grade: -1,
    title: '出售二手显卡',
    body: '全新未拆封，联系 QQ 123456。',
  },
  {
    id: 4, user: 3, node: 3, created: '2024-02-01 09:00:00.445566', closed: '2024-02-04 10:00:00.000020',
    title: 'Go 1.22 的 range over int',
    body: `\`for i := range 10 {}\` 终于可以写了。\n\n![range.png](${HOMELAND_SITE_URL}/uploads/photo/${PHOTO1}!md)`,
    touched: ['2024-02-01 09:30:00.000021'],
  },
  {
    id: 5, user: 2, node: 2, created: '2024-02-05 03:00:00.556677',
    deleted: '2024-02-07 12:00:00.000030', whoDeleted: 'huacnlee',
    title: '重复的帖子',
    body: '发重了，请管理员删掉。',
  },
  {
    id: 6, user: 3, node: 1, created: '2024-02-10 02:00:00.667788',
    suggested: '2024-02-11 00:00:00.000040', lockNode: true,
    title: '[置顶] 社区公约',
    body: `请友善交流。\n\n![rules.png](/uploads/photo/${PHOTO3}!large)\n\n> 违者封号。`,
  },
  {
    // Posted in Ruby by rei for the team, moved to 招聘 by an administrator (node_changed notification 19).
    id: 7, user: 2, node: 4, team: 8, created: '2024-03-01 04:00:00.778899',
    title: 'Homeland 团队招聘 Ruby 工程师',
    body: '远程，全职。简历发送至 jobs@example.com',
    touched: ['2024-03-01 05:00:00.000050'],
  },
  {
    id: 8, user: 5, node: 1, created: '2024-03-05 07:00:00.889900',
    title: '告别帖',
    body: '我要离开社区一段时间了，感谢大家。',
  },
  {
    id: 9, user: 6, node: 5, created: '2024-03-10 11:00:00.990011', noMark: true,
    title: '周末去哪玩',
    body: '有推荐吗？',
  },
];

interface ReplyRow {
  id: number;
  topic: number;
  user: number;
  body: string;
  created: string;
  action?: 'ban' | 'excellent' | 'unexcellent' | 'close' | 'reopen' | 'mention';
  deleted?: string;
  replyTo?: number;
  target?: { type: string; id: string };
  mentioned?: number[];
}

/** In the order homeland created them (ids follow time across topics, as a sequence hands them out). */
// prettier-ignore
const REPLIES: ReplyRow[] = [
  { id: 1, topic: 1, user: 3, created: '2024-01-10 09:00:00.100101',
    body: 'YJIT 在我们的 Rails 应用里快了 15%。\n\n```ruby\nRubyVM::YJIT.enable\n```' },
  { id: 2, topic: 1, user: 1, created: '2024-01-11 02:00:00.100102', mentioned: [3], body: '@lgn21st 用的是哪个版本？' },
  { id: 3, topic: 1, user: 3, created: '2024-01-11 03:00:00.100103', replyTo: 2, mentioned: [1],
    body: '3.4.1，见 [发布说明](https://www.ruby-lang.org/en/news/)' },
  { id: 4, topic: 2, user: 1, created: '2024-01-12 00:00:00.100104', action: 'excellent', body: '' },
  { id: 5, topic: 2, user: 2, created: '2024-01-12 01:00:00.100105', body: 'Solid Queue 已经在生产上用了，很稳。' },
  // Spam by mary, deleted on 2024-01-20 (after the last reply, so topic 1's stored replies_count still counts it).
  { id: 6, topic: 1, user: 7, created: '2024-01-13 04:00:00.100106', deleted: '2024-01-20 00:00:00.100199',
    body: '加微信领取免费课程 http://spam.example' },
  // An upvote: homeland's Reply::Voteable likes the topic for the replier (action 3).
  { id: 7, topic: 1, user: 6, created: '2024-01-14 05:00:00.100107', body: '+1' },
  { id: 8, topic: 1, user: 2, created: '2024-01-15 07:00:00.100108',
    body: `补一张图：\n\n![a.png](/uploads/photo/${PHOTO1}!large)` },
  { id: 9, topic: 1, user: 5, created: '2024-01-16 08:00:00.100109', body: '谢谢分享' },
  // Links topic 2: homeland's MentionTopicJob adds the `mention` event 11 to topic 2 (and TopicReferenceJob action 22).
  { id: 10, topic: 1, user: 1, created: '2024-01-17 09:00:00.100110', body: `参考 ${HOMELAND_SITE_URL}/topics/2 里的讨论。` },
  { id: 11, topic: 2, user: 1, created: '2024-01-17 09:00:01.100111', action: 'mention', body: '',
    target: { type: 'Reply', id: '10' } },
  { id: 12, topic: 2, user: 1, created: '2024-01-18 00:00:00.100112', action: 'unexcellent', body: '' },
  { id: 13, topic: 2, user: 1, created: '2024-01-18 00:05:00.100113', action: 'excellent', body: '' },
  { id: 14, topic: 3, user: 2, created: '2024-01-19 01:00:00.100114', body: '这是广告吧' },
  // `ban!(reason:)` keeps the reason as the event's body.
  { id: 15, topic: 3, user: 1, created: '2024-01-19 02:00:00.100115', action: 'ban', body: '标题或正文描述不清楚' },
  { id: 16, topic: 4, user: 2, created: '2024-02-01 10:00:00.100116', body: '终于！' },
  { id: 17, topic: 4, user: 1, created: '2024-02-02 00:00:00.100117', action: 'close', body: '' },
  { id: 18, topic: 4, user: 1, created: '2024-02-03 00:00:00.100118', action: 'reopen', body: '' },
  { id: 19, topic: 4, user: 6, created: '2024-02-03 01:00:00.100119', body: '还有 `for range func` 的迭代器。' },
  { id: 20, topic: 4, user: 1, created: '2024-02-04 10:00:00.000020', action: 'close', body: '' },
  { id: 21, topic: 5, user: 3, created: '2024-02-05 04:00:00.100121', body: '已经有人发过了。' },
  // Deleted by its author, the topic's last replier: homeland recounts topic 5 then (Topic#update_deleted_last_reply).
  { id: 22, topic: 5, user: 6, created: '2024-02-06 05:00:00.100122', deleted: '2024-02-06 06:00:00.100123', body: '同上' },
  { id: 23, topic: 6, user: 1, created: '2024-02-10 03:00:00.100124',
    body: '补充：\n\n```yaml\nrules:\n  - be_nice: true\n```' },
  { id: 24, topic: 6, user: 7, created: '2024-02-12 04:00:00.100125', body: '收到' },
  { id: 25, topic: 7, user: 6, created: '2024-03-01 06:00:00.100126', body: '可以远程吗？' },
  { id: 26, topic: 8, user: 2, created: '2024-03-05 08:00:00.100127', mentioned: [5], body: '@gone 保重！' },
  { id: 27, topic: 8, user: 3, created: '2024-03-06 09:00:00.100128', body: '一路顺风' },
];

interface ActionRow {
  id: number;
  type: string;
  targetType: string;
  target: number;
  userType?: string;
  user: number;
  created: string;
  fate: ActionFate;
}

const like = (targetType: 'topic' | 'reply'): ActionFate => ({ table: 'likes', targetType });
// prettier-ignore
const ACTIONS: ActionRow[] = [
  // 2023: follows.
  { id: 1, type: 'follow', targetType: 'User', target: 2, user: 3, created: '2023-06-01 01:00:00.000301', fate: { table: 'user_follows' } },
  { id: 2, type: 'follow', targetType: 'User', target: 2, user: 6, created: '2023-06-02 01:00:00.000302', fate: { table: 'user_follows' } },
  { id: 3, type: 'follow', targetType: 'User', target: 1, user: 2, created: '2023-06-03 01:00:00.000303', fate: { table: 'user_follows' } },
  // Following a team: skipped with the team.
  { id: 4, type: 'follow', targetType: 'User', target: 8, user: 2, created: '2023-06-04 01:00:00.000304', fate: { table: null, reason: 'team' } },
  // Following oneself (older homeland did not refuse it): skipped.
  { id: 5, type: 'follow', targetType: 'User', target: 4, user: 4, created: '2024-03-20 12:10:00.000305', fate: { table: null, reason: 'self' } },
  // 2024: likes, follows of topics, favorites, blocks.
  { id: 6, type: 'like', targetType: 'Topic', target: 1, user: 3, created: '2024-01-10 09:00:30.000306', fate: like('topic') },
  { id: 7, type: 'like', targetType: 'Reply', target: 1, user: 2, created: '2024-01-10 10:00:00.000307', fate: like('reply') },
  { id: 8, type: 'follow', targetType: 'Topic', target: 1, user: 3, created: '2024-01-10 10:30:00.000308', fate: { table: 'topic_follows' } },
  { id: 9, type: 'favorite', targetType: 'Topic', target: 1, user: 3, created: '2024-01-10 11:00:00.000309', fate: { table: 'topic_favorites' } },
  { id: 10, type: 'like', targetType: 'Topic', target: 1, user: 1, created: '2024-01-11 02:00:30.000310', fate: like('topic') },
  { id: 11, type: 'like', targetType: 'Reply', target: 1, user: 1, created: '2024-01-11 02:01:00.000311', fate: like('reply') },
  { id: 12, type: 'like', targetType: 'Topic', target: 2, user: 2, created: '2024-01-12 01:00:30.000312', fate: like('topic') },
  { id: 13, type: 'favorite', targetType: 'Topic', target: 2, user: 2, created: '2024-01-12 01:01:00.000313', fate: { table: 'topic_favorites' } },
  { id: 14, type: 'follow', targetType: 'Topic', target: 2, user: 6, created: '2024-01-12 02:00:00.000314', fate: { table: 'topic_follows' } },
  // Reply 7 ("+1") liked topic 1 for jasl; a second row for the same pair (find_or_create_by raced): skipped.
  { id: 15, type: 'like', targetType: 'Topic', target: 1, user: 6, created: '2024-01-14 05:00:00.500315', fate: like('topic') },
  { id: 16, type: 'like', targetType: 'Topic', target: 1, user: 6, created: '2024-01-14 05:00:00.500316', fate: { table: null, reason: 'duplicate' } },
  // rei liking her own topic (older homeland did not refuse it): skipped.
  { id: 17, type: 'like', targetType: 'Topic', target: 1, user: 2, created: '2024-01-15 07:10:00.000317', fate: { table: null, reason: 'self' } },
  // A like by the account deleted later: kept (the account is imported, anonymized).
  { id: 18, type: 'like', targetType: 'Topic', target: 2, user: 5, created: '2024-01-16 08:10:00.000318', fate: like('topic') },
  { id: 19, type: 'like', targetType: 'Reply', target: 10, user: 3, created: '2024-01-17 10:00:00.000319', fate: like('reply') },
  // TopicReferenceJob: topic 1 (through reply 10) links topic 2. Dropped.
  { id: 20, type: 'reference', targetType: 'Topic', target: 2, userType: 'Topic', user: 1, created: '2024-01-17 09:00:02.000320', fate: { table: null, reason: 'dropped' } },
  { id: 21, type: 'block', targetType: 'User', target: 3, user: 6, created: '2024-02-03 02:00:00.000321', fate: { table: 'user_blocks' } },
  { id: 22, type: 'block', targetType: 'Node', target: 4, user: 2, created: '2024-03-02 00:00:00.000322', fate: { table: 'node_blocks' } },
];

interface NotificationRow {
  id: number;
  user: number;
  actor: number | null;
  type: string;
  target?: [string, number];
  second?: [string, number];
  read?: string;
  created: string;
  becomes: NotificationFate;
}

// prettier-ignore
const N = {
  topicReply: (reply: number, topic: number): NotificationFate => ({
    type: 'TopicReply', topicId: topic, replyId: reply, nodeId: null, mentionType: null,
  }),
  mentionReply: (reply: number, topic: number): NotificationFate => ({
    type: 'Mention', topicId: topic, replyId: reply, nodeId: null, mentionType: 'Reply',
  }),
  mentionTopic: (topic: number): NotificationFate => ({ type: 'Mention', topicId: topic, replyId: null, nodeId: null, mentionType: 'Topic' }),
  topic: (topic: number): NotificationFate => ({ type: 'Topic', topicId: topic, replyId: null, nodeId: null, mentionType: null }),
  follow: (): NotificationFate => ({ type: 'Follow', topicId: null, replyId: null, nodeId: null, mentionType: null }),
  nodeChanged: (topic: number, node: number): NotificationFate => ({
    type: 'NodeChanged', topicId: topic, replyId: null, nodeId: node, mentionType: null,
  }),
};

/**
 * As homeland's jobs write them: a reply notifies the topic's author and followers and the replier's followers,
 * but not the replier nor whom it mentions (they get a `mention`); a topic notifies its author's followers but not
 * whom it mentions; deleting a reply deleted its notifications (none here for replies 6 and 22).
 */
// prettier-ignore
const NOTIFICATIONS: NotificationRow[] = [
  { id: 1, user: 2, actor: 3, type: 'follow', created: '2023-06-01 01:00:00.000401', read: '2023-06-01 02:00:00.000401', becomes: N.follow() },
  { id: 2, user: 2, actor: 6, type: 'follow', created: '2023-06-02 01:00:00.000402', read: '2023-06-02 03:00:00.000402', becomes: N.follow() },
  { id: 3, user: 1, actor: 2, type: 'follow', created: '2023-06-03 01:00:00.000403', becomes: N.follow() },
  { id: 4, user: 6, actor: 2, type: 'team_invite', target: ['TeamUser', 2], second: ['Team', 8], created: '2023-06-05 00:00:00.000404',
    becomes: { type: null, reason: 'team' } },
  // Topic 1 mentions lgn21st: a mention for them, the topic notification for rei's other follower.
  { id: 5, user: 3, actor: 2, type: 'mention', target: ['Topic', 1], created: '2024-01-10 08:00:01.000405', read: '2024-01-10 09:00:00.000405',
    becomes: N.mentionTopic(1) },
  { id: 6, user: 6, actor: 2, type: 'topic', target: ['Topic', 1], created: '2024-01-10 08:00:02.000406', read: '2024-01-11 00:00:00.000406',
    becomes: N.topic(1) },
  { id: 7, user: 2, actor: 3, type: 'topic_reply', target: ['Reply', 1], second: ['Topic', 1], created: '2024-01-10 09:00:01.000407',
    read: '2024-01-10 12:00:00.000407', becomes: N.topicReply(1, 1) },
  { id: 8, user: 2, actor: 1, type: 'topic', target: ['Topic', 2], created: '2024-01-11 01:00:01.000408', becomes: N.topic(2) },
  { id: 9, user: 3, actor: 1, type: 'mention', target: ['Reply', 2], second: ['Topic', 1], created: '2024-01-11 02:00:01.000409',
    becomes: N.mentionReply(2, 1) },
  { id: 10, user: 2, actor: 1, type: 'topic_reply', target: ['Reply', 2], second: ['Topic', 1], created: '2024-01-11 02:00:02.000410',
    becomes: N.topicReply(2, 1) },
  // Reply 3 answers reply 2 (reply_to_id): its author is mentioned.
  { id: 11, user: 1, actor: 3, type: 'mention', target: ['Reply', 3], second: ['Topic', 1], created: '2024-01-11 03:00:01.000411',
    read: '2024-01-11 04:00:00.000411', becomes: N.mentionReply(3, 1) },
  { id: 12, user: 2, actor: 3, type: 'topic_reply', target: ['Reply', 3], second: ['Topic', 1], created: '2024-01-11 03:00:02.000412',
    becomes: N.topicReply(3, 1) },
  { id: 13, user: 1, actor: 2, type: 'topic_reply', target: ['Reply', 5], second: ['Topic', 2], created: '2024-01-12 01:00:01.000413',
    read: '2024-01-12 02:00:00.000413', becomes: N.topicReply(5, 2) },
  { id: 14, user: 2, actor: 6, type: 'topic_reply', target: ['Reply', 7], second: ['Topic', 1], created: '2024-01-14 05:00:01.000414',
    becomes: N.topicReply(7, 1) },
  { id: 15, user: 3, actor: 2, type: 'topic_reply', target: ['Reply', 8], second: ['Topic', 1], created: '2024-01-15 07:00:01.000415',
    becomes: N.topicReply(8, 1) },
  { id: 16, user: 2, actor: 5, type: 'topic_reply', target: ['Reply', 9], second: ['Topic', 1], created: '2024-01-16 08:00:01.000416',
    becomes: N.topicReply(9, 1) },
  { id: 17, user: 2, actor: 1, type: 'topic_reply', target: ['Reply', 10], second: ['Topic', 1], created: '2024-01-17 09:00:01.000417',
    read: '2024-01-18 00:00:00.000417', becomes: N.topicReply(10, 1) },
  { id: 18, user: 6, actor: 2, type: 'topic_reply', target: ['Reply', 14], second: ['Topic', 3], created: '2024-01-19 01:00:01.000418',
    becomes: N.topicReply(14, 3) },
  { id: 19, user: 3, actor: 6, type: 'topic_reply', target: ['Reply', 19], second: ['Topic', 4], created: '2024-02-03 01:00:01.000419',
    becomes: N.topicReply(19, 4) },
  // Topic 5 is deleted: its topic and topic_reply notifications stay in homeland (only mentions are deleted with it).
  { id: 20, user: 3, actor: 2, type: 'topic', target: ['Topic', 5], created: '2024-02-05 03:00:01.000420', becomes: N.topic(5) },
  { id: 21, user: 2, actor: 3, type: 'topic_reply', target: ['Reply', 21], second: ['Topic', 5], created: '2024-02-05 04:00:01.000421',
    becomes: N.topicReply(21, 5) },
  { id: 22, user: 3, actor: 7, type: 'topic_reply', target: ['Reply', 24], second: ['Topic', 6], created: '2024-02-12 04:00:01.000422',
    read: '2024-02-12 05:00:00.000422', becomes: N.topicReply(24, 6) },
  // An administrator moved topic 7 from Ruby to 招聘: homeland records no actor.
  { id: 23, user: 2, actor: null, type: 'node_changed', target: ['Topic', 7], second: ['Node', 4], created: '2024-03-01 05:00:00.000423',
    becomes: N.nodeChanged(7, 4) },
  { id: 24, user: 2, actor: 6, type: 'topic_reply', target: ['Reply', 25], second: ['Topic', 7], created: '2024-03-01 06:00:01.000424',
    becomes: N.topicReply(25, 7) },
  // To the account deleted later.
  { id: 25, user: 5, actor: 2, type: 'mention', target: ['Reply', 26], second: ['Topic', 8], created: '2024-03-05 08:00:01.000425',
    becomes: N.mentionReply(26, 8) },
  { id: 26, user: 5, actor: 3, type: 'topic_reply', target: ['Reply', 27], second: ['Topic', 8], created: '2024-03-06 09:00:01.000426',
    becomes: N.topicReply(27, 8) },
  // A comment on a wiki page (a plugin's): dropped.
  { id: 27, user: 2, actor: 1, type: 'comment', target: ['Comment', 1], second: ['Page', 1], created: '2024-03-07 00:00:00.000427',
    becomes: { type: null, reason: 'comment' } },
];

// ---------------------------------------------------------------------------------------------------------------

/** Fills an empty homeland-schema database (createHomelandDatabase) with the fixture community, in one transaction. */
export async function fillHomeland(url: string, options: HomelandFillOptions = {}): Promise<HomelandFixture> {
  const now = options.now ?? new Date();
  const settingsStyle = options.settingsStyle ?? 'admin-page';
  const fixture = describeFixture(now, settingsStyle);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>('select count(*)::int as n from users');
    if (rows[0]!.n > 0) throw new Error('fillHomeland: the homeland database is not empty');
    await client.query('begin');
    await writeRows(client, fixture, options.cost ?? 4);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
  return fixture;
}

/** Writes the photos that have files, as homeland's `public/uploads` holds them: `<folder>/photo/<image>`. */
export async function writeHomelandUploads(folder: string, fixture?: HomelandFixture): Promise<string[]> {
  const photos = fixture?.photos ?? describeFixture(new Date(0), 'admin-page').photos;
  const written: string[] = [];
  for (const photo of photos.filter((item) => item.file)) {
    const file = path.join(folder, 'photo', ...photo.image.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, await photoBytes(photo));
    written.push(file);
  }
  return written;
}

/** A photo's PNG: a solid colour per photo id, `width`×`height`. */
export async function photoBytes(photo: Pick<FixturePhoto, 'id' | 'width' | 'height'>): Promise<Buffer> {
  const colours = [
    { r: 204, g: 52, b: 45 },
    { r: 40, g: 96, b: 200 },
    { r: 60, g: 160, b: 80 },
  ];
  const background = colours[(photo.id - 1) % colours.length]!;
  return sharp({ create: { width: photo.width, height: photo.height, channels: 3, background } })
    .png()
    .toBuffer();
}

// ---------------------------------------------------------------------------------------------------------------
// The fixture as data, with what homeland's counters say and what ours should say.

const iso = (time: string): HomelandTime => `${time.replace(' ', 'T')}Z`;
/** A Date as the rows store it: `YYYY-MM-DD HH:MM:SS.ffffff` (UTC). */
const stored = (date: Date): string => `${date.toISOString().replace('T', ' ').replace('Z', '')}000`;
const epochSeconds = (time: string): number => Math.floor(Date.parse(iso(time)) / 1000);
const latest = (...times: (string | null | undefined)[]): string =>
  times.filter((time): time is string => !!time).reduce((a, b) => (a > b ? a : b));
const MONTH_SECONDS = 30 * 86_400;

/** A doorkeeper-shaped secret (`SecureRandom.urlsafe_base64(32)`: 43 characters), from a seed. */
const doorkeeperToken = (seed: string): string => createHash('sha256').update(`homeland-fixture:${seed}`).digest('base64url');

function describeFixture(now: Date, settingsStyle: 'admin-page' | 'console'): HomelandFixture {
  const people = USERS.filter((user) => !user.type);
  const team = USERS.find((user) => user.type === 'Team')!;
  const adminEmails = ['huacnlee@example.com', 'jasl@example.com', 'gone@example.com', 'former-admin@example.net'];
  const loginOf = (id: number) => {
    const user = USERS.find((item) => item.id === id)!;
    return user.state === -1 ? `deleted_${id}` : user.login;
  };
  const imported = (reply: ReplyRow) => reply.action !== 'mention';
  const counted = (reply: ReplyRow) => !reply.action && !reply.deleted;
  const skippedAction = (action: ActionRow) => action.fate.table === null;

  // Topic#update_last_reply, replayed: on every new written reply, and when the last replier's reply is deleted.
  const homelandTopic = new Map<number, { repliesCount: number; lastReplyId: number | null; mark: number | null }>();
  for (const topic of TOPICS) {
    const replies = REPLIES.filter((reply) => reply.topic === topic.id);
    const events = [
      ...replies.filter((reply) => !reply.action).map((reply) => ({ at: reply.created, kind: 'create' as const, reply })),
      ...replies.filter((reply) => reply.deleted).map((reply) => ({ at: reply.deleted!, kind: 'delete' as const, reply })),
    ].sort((a, b) => (a.at < b.at ? -1 : 1));
    const state = {
      repliesCount: 0,
      lastReplyId: null as number | null,
      mark: topic.noMark ? null : epochSeconds(topic.created),
    };
    const alive = (at: string) =>
      replies.filter((reply) => !reply.action && reply.created <= at && !(reply.deleted && reply.deleted <= at));
    for (const event of events) {
      const lastUser = REPLIES.find((reply) => reply.id === state.lastReplyId)?.user;
      if (event.kind === 'delete' && lastUser !== event.reply.user) continue;
      const current = alive(event.at);
      state.repliesCount = current.length;
      state.lastReplyId = event.kind === 'create' ? event.reply.id : (current.at(-1)?.id ?? null);
      if (state.mark !== null && epochSeconds(event.at) - epochSeconds(topic.created) < MONTH_SECONDS) {
        state.mark = epochSeconds(event.at);
      }
    }
    homelandTopic.set(topic.id, state);
  }

  const likeRows = (type: string, id: number) =>
    ACTIONS.filter((a) => a.type === 'like' && a.targetType === type && a.target === id);
  const users: FixtureUser[] = people.map((user) => {
    const adminBy = user.state === 99 ? 'state' : adminEmails.includes(user.email) ? 'setting' : null;
    const deleted = user.state === -1;
    const follows = (predicate: (action: ActionRow) => boolean) =>
      ACTIONS.filter((a) => a.type === 'follow' && a.targetType === 'User' && predicate(a));
    return {
      id: user.id,
      login: user.login,
      name: user.name === '' ? null : user.name,
      email: user.email,
      password: user.password,
      state: user.state,
      confirmed: user.confirmed,
      adminBy: deleted ? null : adminBy,
      createdAt: iso(user.created),
      becomes: {
        role: adminBy && !deleted ? 'admin' : user.state === 2 ? 'blocked' : 'member',
        state: deleted ? 'left' : user.confirmed ? 'active' : 'unverified',
        anonymized: deleted,
        login: deleted ? `deleted_${user.id}` : user.login,
        email: deleted ? `deleted_${user.id}@deleted.invalid` : user.email,
        hasPassword: !deleted && user.password !== null,
      },
      homeland: {
        topicsCount: TOPICS.filter((topic) => topic.user === user.id).length,
        repliesCount: REPLIES.filter((reply) => reply.user === user.id).length,
        followersCount: follows((a) => a.target === user.id).length,
        followingCount: follows((a) => a.user === user.id).length,
      },
      expected: {
        topicsCount: TOPICS.filter((topic) => topic.user === user.id && !topic.deleted).length,
        repliesCount: REPLIES.filter((reply) => reply.user === user.id && counted(reply)).length,
        followersCount: follows((a) => a.target === user.id && !skippedAction(a)).length,
        followingCount: follows((a) => a.user === user.id && !skippedAction(a)).length,
        favoritesCount: ACTIONS.filter((a) => a.type === 'favorite' && a.user === user.id && !skippedAction(a)).length,
      },
    };
  });

  const nodes: FixtureNode[] = NODES.map((node) => ({
    id: node.id,
    name: node.name,
    summary: node.summary,
    sort: node.sort,
    hidden: HIDDEN_NODE_IDS.includes(node.id),
    nullTimestamps: node.created === null,
    homelandTopicsCount: TOPICS.filter((topic) => topic.node === node.id).length,
    expectedTopicsCount: TOPICS.filter((topic) => topic.node === node.id && !topic.deleted && topic.grade !== -1).length,
  }));

  const topics: FixtureTopic[] = TOPICS.map((topic) => {
    const replies = REPLIES.filter((reply) => reply.topic === topic.id);
    const last = replies.filter(counted).at(-1) ?? null;
    const likes = likeRows('Topic', topic.id);
    const homeland = homelandTopic.get(topic.id)!;
    return {
      id: topic.id,
      userId: topic.user,
      nodeId: topic.node,
      expectedNodeId: topic.grade === -1 ? 'NoPoint' : topic.node,
      title: topic.title,
      body: topic.body,
      grade: topic.grade === -1 ? 'ban' : topic.grade === 1 ? 'excellent' : 'normal',
      closedAt: topic.closed ? iso(topic.closed) : null,
      deletedAt: topic.deleted ? iso(topic.deleted) : null,
      whoDeleted: topic.whoDeleted ?? null,
      expectedDeletedById: topic.whoDeleted ? USERS.find((user) => user.login === topic.whoDeleted)!.id : null,
      suggestedAt: topic.suggested ? iso(topic.suggested) : null,
      lockNode: topic.lockNode ?? false,
      expectedLockNode: (topic.lockNode ?? false) || topic.grade === -1,
      teamId: topic.team ?? null,
      lastActiveMark: homeland.mark,
      createdAt: iso(topic.created),
      updatedAt: iso(topicUpdatedAt(topic)),
      mentionedUserIds: topic.mentioned ?? [],
      homeland: { repliesCount: homeland.repliesCount, lastReplyId: homeland.lastReplyId, likesCount: likes.length },
      expected: {
        repliesCount: replies.filter(counted).length,
        lastReplyId: last?.id ?? null,
        lastReplyUserId: last?.user ?? null,
        lastReplyUserLogin: last ? loginOf(last.user) : null,
        repliedAt: last ? iso(last.created) : null,
        likesCount: likes.filter((a) => !skippedAction(a)).length,
      },
    };
  });

  const replies: FixtureReply[] = REPLIES.map((reply) => ({
    id: reply.id,
    topicId: reply.topic,
    userId: reply.user,
    body: reply.body,
    action: reply.action ?? null,
    deletedAt: reply.deleted ? iso(reply.deleted) : null,
    replyToId: reply.replyTo ?? null,
    target: reply.target ?? null,
    mentionedUserIds: reply.mentioned ?? [],
    createdAt: iso(reply.created),
    imported: imported(reply),
    homelandLikesCount: likeRows('Reply', reply.id).length,
    expectedLikesCount: likeRows('Reply', reply.id).filter((a) => !skippedAction(a)).length,
  }));

  const actions: FixtureAction[] = ACTIONS.map((action) => ({
    id: action.id,
    actionType: action.type,
    targetType: action.targetType,
    targetId: action.target,
    userType: action.userType ?? 'User',
    userId: action.user,
    createdAt: iso(action.created),
    fate: action.fate,
  }));

  const notifications: FixtureNotification[] = NOTIFICATIONS.map((note) => ({
    id: note.id,
    userId: note.user,
    actorId: note.actor,
    notifyType: note.type,
    targetType: note.target?.[0] ?? null,
    targetId: note.target?.[1] ?? null,
    secondTargetType: note.second?.[0] ?? null,
    secondTargetId: note.second?.[1] ?? null,
    read: !!note.read,
    createdAt: iso(note.created),
    becomes: note.becomes,
  }));

  // prettier-ignore
  const devices: FixtureDevice[] = [
    { id: 1, userId: 2, platform: 'ios', token: hex64('device-1'), lastActivedAt: iso('2024-05-01 08:00:00.000501'), imported: true, why: 'ok' },
    { id: 2, userId: 3, platform: 'android', token: 'fcm:shared-android-token-0001', lastActivedAt: iso('2024-05-02 08:00:00.000502'),
      imported: true, why: 'ok: the most recently active owner of its token' },
    { id: 3, userId: 6, platform: 'android', token: 'fcm:shared-android-token-0001', lastActivedAt: iso('2024-04-02 08:00:00.000503'),
      imported: false, why: 'device 2 (another user) has the same token and was active later' },
    { id: 4, userId: 5, platform: 'ios', token: hex64('device-4'), lastActivedAt: iso('2024-02-01 08:00:00.000504'),
      imported: false, why: 'its user is deleted' },
    { id: 5, userId: 2, platform: 'android', token: 'fcm:rei-android-0005', lastActivedAt: null, imported: true,
      why: 'ok (never refreshed: last_actived_at null)' },
  ];

  // prettier-ignore
  const applications: FixtureApplication[] = [
    { id: 1, name: 'Ruby China for iOS', uid: doorkeeperToken('app-1-uid'), secret: doorkeeperToken('app-1-secret'),
      redirectUris: ['rubychina://oauth/callback', 'urn:ietf:wg:oauth:2.0:oob'], confidential: true, ownerId: 1, level: 1 },
    { id: 2, name: 'homeland-cli', uid: doorkeeperToken('app-2-uid'), secret: doorkeeperToken('app-2-secret'),
      redirectUris: ['http://127.0.0.1:8910/callback'], confidential: false, ownerId: 2, level: 0 },
  ];

  const ago = (seconds: number) => stored(new Date(now.getTime() - seconds * 1000));
  // prettier-ignore
  const tokenRow = (
    id: number, userId: number | null, applicationId: number, refresh: boolean, created: string, expiresIn: number,
    revoked: string | null, live: boolean, why: string,
  ): FixtureToken => ({
    id, userId, applicationId, token: doorkeeperToken(`token-${id}`), refreshToken: refresh ? doorkeeperToken(`refresh-${id}`) : null,
    createdAt: iso(created), expiresIn, expiresAt: iso(stored(new Date(Date.parse(iso(created)) + expiresIn * 1000))),
    revokedAt: revoked ? iso(revoked) : null, live, why,
  });
  const DAY = 86_400;
  const tokens: FixtureToken[] = [
    tokenRow(1, 2, 1, true, ago(3600), 7 * DAY, null, true, 'live: unexpired, with a refresh token'),
    tokenRow(2, 3, 1, false, ago(30 * DAY), 7 * DAY, null, false, 'dead: expired, no refresh token'),
    tokenRow(3, 2, 1, true, ago(3 * DAY), 7 * DAY, ago(2 * DAY), false, 'dead: revoked'),
    tokenRow(4, 6, 2, true, ago(10 * DAY), DAY, null, true, 'live: access token expired, refresh token still usable'),
    tokenRow(5, 5, 1, true, ago(2 * 3600), 7 * DAY, null, false, 'skipped: its user is deleted'),
    tokenRow(6, null, 1, false, ago(1800), 7 * DAY, null, true, 'live: client credentials (no user)'),
  ];

  // prettier-ignore
  const photos: FixturePhoto[] = [
    { id: 1, userId: 2, image: PHOTO1, file: true, width: 64, height: 48, links: [
      { in: 'reply', id: 8, url: `/uploads/photo/${PHOTO1}!large` },
      { in: 'topic', id: 4, url: `${HOMELAND_SITE_URL}/uploads/photo/${PHOTO1}!md` },
    ] },
    { id: 2, userId: null, image: PHOTO2, file: true, width: 64, height: 48, links: [
      { in: 'topic', id: 1, url: `/uploads/photo/${PHOTO2}` },
    ] },
    { id: 3, userId: 1, image: PHOTO3, file: false, width: 64, height: 48, links: [
      { in: 'topic', id: 6, url: `/uploads/photo/${PHOTO3}!large` },
    ] },
  ];

  const hidden = HIDDEN_NODE_IDS.map(String);
  const settings =
    settingsStyle === 'admin-page'
      ? [
          // The admin form saves the text typed (stripped) as a YAML string.
          { var: 'admin_emails', value: `--- |-\n${adminEmails.map((email) => `  ${email}`).join('\n')}\n` },
          {
            var: 'node_ids_hide_in_topics_index',
            value: hidden.length === 1 ? `--- '${hidden[0]}'\n` : `--- |-\n${hidden.map((id) => `  ${id}`).join('\n')}\n`,
          },
          { var: 'default_locale', value: '--- zh-CN\n' },
          { var: 'app_name', value: '--- Ruby China\n' },
          { var: 'ban_words_on_reply', value: '--- |-\n  +1\n  顶\n' },
        ]
      : [
          // `Setting.admin_emails = "…"` stores the field's type: an array (of strings).
          { var: 'admin_emails', value: `---\n${adminEmails.map((email) => `- ${email}`).join('\n')}\n` },
          { var: 'node_ids_hide_in_topics_index', value: `---\n${hidden.map((id) => `- '${id}'`).join('\n')}\n` },
          { var: 'default_locale', value: '--- zh-CN\n' },
          { var: 'app_name', value: '--- Ruby China\n' },
          { var: 'ban_words_on_reply', value: '---\n- "+1"\n- 顶\n' },
        ];

  return {
    now,
    pepper: HOMELAND_PEPPER,
    schemaVersion: HOMELAND_MIGRATIONS.at(-1)!,
    settingsStyle,
    settings,
    adminEmails,
    hiddenNodeIds: HIDDEN_NODE_IDS,
    defaultLocale: 'zh-CN',
    users,
    team: {
      id: team.id,
      login: team.login,
      name: team.name,
      topicIds: TOPICS.filter((topic) => topic.team === team.id).map((topic) => topic.id),
      memberships: TEAM_USERS.filter((row) => row.team === team.id).length,
      memberIds: TEAM_USERS.filter((row) => row.team === team.id && row.status === 1).map((row) => row.user),
      invitedIds: TEAM_USERS.filter((row) => row.team === team.id && row.status === 0).map((row) => row.user),
    },
    maxUserId: Math.max(...USERS.map((user) => user.id)),
    nodes,
    maxNodeId: Math.max(...NODES.map((node) => node.id)),
    expectedNoPointTopicsCount: TOPICS.filter((topic) => topic.grade === -1 && !topic.deleted).length,
    topics,
    replies,
    actions,
    notifications,
    devices,
    applications,
    tokens,
    photos,
    authorizations: AUTHORIZATIONS,
    droppedRows: {
      comments: 1,
      profiles: 1,
      locations: 2,
      counters: 2,
      oauth_access_grants: 1,
      exception_tracks: 1,
    },
  };
}

const hex64 = (seed: string) => createHash('sha256').update(`homeland-fixture:${seed}`).digest('hex');

/** `updated_at` of a topic: replies touch it (created and deleted), likes update its counter, and its own changes. */
function topicUpdatedAt(topic: TopicRow): string {
  const replies = REPLIES.filter((reply) => reply.topic === topic.id);
  return latest(
    topic.created,
    topic.closed,
    topic.deleted,
    topic.suggested,
    ...(topic.touched ?? []),
    ...replies.flatMap((reply) => [reply.created, reply.deleted]),
    ...ACTIONS.filter((a) => a.type === 'like' && a.targetType === 'Topic' && a.target === topic.id).map((a) => a.created),
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Writing it.

type Row = Record<string, unknown>;

async function insert(client: pg.Client, table: string, rows: Row[]): Promise<void> {
  if (rows.length === 0) return;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const values: unknown[] = [];
  const tuples = rows.map(
    (row) =>
      `(${columns
        .map((column) => {
          if (!(column in row)) return 'default';
          values.push(row[column]);
          return `$${values.length}`;
        })
        .join(', ')})`,
  );
  await client.query(
    `insert into ${pg.escapeIdentifier(table)} (${columns.map((column) => pg.escapeIdentifier(column)).join(', ')}) values ${tuples.join(', ')}`,
    values,
  );
}

/** Every serial sequence continues past its table's highest id, as homeland's own inserts leave them. */
export async function syncSequences(client: pg.ClientBase): Promise<void> {
  await client.query(`
    do $$
    declare item record;
    begin
      for item in
        select c.relname as tbl, pg_get_serial_sequence(quote_ident(c.relname), 'id') as seq
        from pg_class c join pg_attribute a on a.attrelid = c.oid and a.attname = 'id'
        where c.relkind = 'r' and c.relnamespace = 'public'::regnamespace
      loop
        if item.seq is not null then
          execute format('select setval(%L, coalesce((select max(id) from %I), 0) + 1, false)', item.seq, item.tbl);
        end if;
      end loop;
    end $$`);
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const salt = (id: number) => createHash('sha256').update(`homeland-fixture-salt:${id}`).digest().subarray(0, 16);

async function userRow(user: UserRow, cost: number): Promise<Row> {
  const encrypted = user.password === null ? '' : await devisePasswordHash(user.password, { cost, salt: salt(user.id) });
  const topicsCount = TOPICS.filter((topic) => topic.user === user.id || topic.team === user.id).length;
  const follows = ACTIONS.filter((a) => a.type === 'follow' && a.targetType === 'User');
  const followed = follows.filter((a) => a.target === user.id);
  const following = follows.filter((a) => a.user === user.id);
  // action-store's counter updates (update_attribute) touch the row; so does the soft delete.
  const updated = latest(
    user.created,
    ...followed.map((a) => a.created),
    ...following.map((a) => a.created),
    user.state === -1 ? '2024-06-01 00:00:00.000601' : null,
    user.state === 2 ? '2024-03-15 00:00:00.000602' : null,
  );
  return {
    id: user.id,
    login: user.login,
    name: user.name,
    email: user.email,
    email_md5: md5(user.email),
    state: user.state,
    created_at: user.created,
    updated_at: updated,
    encrypted_password: encrypted,
    topics_count: topicsCount,
    replies_count: REPLIES.filter((reply) => reply.user === user.id).length,
    followers_count: followed.length,
    following_count: following.length,
    type: user.type ?? null,
    team_users_count: user.type === 'Team' ? TEAM_USERS.filter((row) => row.team === user.id).length : null,
    confirmed_at: user.confirmed ? user.created : null,
    confirmation_sent_at: user.type ? null : user.created,
    confirmation_token: user.confirmed || user.type ? null : `confirm-${user.id}-${md5(user.login).slice(0, 12)}`,
    ...(user.extra ?? {}),
  };
}

async function writeRows(client: pg.Client, fixture: HomelandFixture, cost: number): Promise<void> {
  await insert(client, 'locations', [
    {
      id: 1,
      name: 'Chengdu',
      users_count: 1,
      created_at: '2023-01-03 02:00:00.000701',
      updated_at: '2023-01-03 02:00:00.000701',
    },
    {
      id: 2,
      name: 'Shanghai',
      users_count: 2,
      created_at: '2023-02-10 03:30:00.000702',
      updated_at: '2023-02-11 05:00:00.000702',
    },
  ]);
  await insert(client, 'users', await Promise.all(USERS.map((user) => userRow(user, cost))));
  await insert(
    client,
    'team_users',
    TEAM_USERS.map((row) => ({
      id: row.id,
      team_id: row.team,
      user_id: row.user,
      role: row.role,
      status: row.status,
      created_at: row.created,
      updated_at: row.created,
    })),
  );
  await insert(client, 'profiles', [
    { id: 1, user_id: 2, contacts: { wechat: 'rei_wx' }, rewards: {}, preferences: { theme: 'dark' } },
  ]);
  await insert(
    client,
    'authorizations',
    AUTHORIZATIONS.map((row) => ({
      id: row.id,
      provider: row.provider,
      uid: row.uid,
      user_id: row.user,
      created_at: row.created,
      updated_at: row.created,
    })),
  );
  await insert(
    client,
    'nodes',
    NODES.map((node) => ({
      id: node.id,
      name: node.name,
      summary: node.summary,
      sort: node.sort,
      topics_count: TOPICS.filter((topic) => topic.node === node.id).length,
      created_at: node.created,
      updated_at:
        node.created === null ? null : latest(node.created, ...TOPICS.filter((t) => t.node === node.id).map((t) => t.created)),
    })),
  );
  await insert(
    client,
    'topics',
    fixture.topics.map((topic) => {
      const row = TOPICS.find((item) => item.id === topic.id)!;
      const lastReply = REPLIES.find((reply) => reply.id === topic.homeland.lastReplyId);
      return {
        id: topic.id,
        user_id: topic.userId,
        node_id: topic.nodeId,
        title: topic.title,
        body: topic.body,
        last_reply_id: lastReply?.id ?? null,
        last_reply_user_id: lastReply?.user ?? null,
        last_reply_user_login: lastReply ? USERS.find((user) => user.id === lastReply.user)!.login : null,
        who_deleted: topic.whoDeleted,
        last_active_mark: topic.lastActiveMark,
        lock_node: topic.lockNode,
        suggested_at: row.suggested ?? null,
        grade: row.grade ?? 0,
        replied_at: lastReply?.created ?? null,
        replies_count: topic.homeland.repliesCount,
        likes_count: topic.homeland.likesCount,
        mentioned_user_ids: topic.mentionedUserIds,
        deleted_at: row.deleted ?? null,
        created_at: row.created,
        updated_at: topicUpdatedAt(row),
        closed_at: row.closed ?? null,
        team_id: topic.teamId,
      };
    }),
  );
  await insert(
    client,
    'replies',
    REPLIES.map((reply) => ({
      id: reply.id,
      user_id: reply.user,
      topic_id: reply.topic,
      body: reply.body,
      state: 1,
      likes_count: ACTIONS.filter((a) => a.type === 'like' && a.targetType === 'Reply' && a.target === reply.id).length,
      mentioned_user_ids: reply.mentioned ?? [],
      deleted_at: reply.deleted ?? null,
      created_at: reply.created,
      updated_at: latest(
        reply.created,
        reply.deleted,
        ...ACTIONS.filter((a) => a.type === 'like' && a.targetType === 'Reply' && a.target === reply.id).map((a) => a.created),
      ),
      action: reply.action ?? null,
      target_type: reply.target?.type ?? null,
      target_id: reply.target?.id ?? null,
      reply_to_id: reply.replyTo ?? null,
    })),
  );
  await insert(client, 'comments', [
    {
      id: 1,
      body: '这页写得很清楚',
      user_id: 1,
      commentable_type: 'Page',
      commentable_id: 1,
      created_at: '2024-03-07 00:00:00.000427',
      updated_at: '2024-03-07 00:00:00.000427',
    },
  ]);
  await insert(
    client,
    'actions',
    ACTIONS.map((action) => ({
      id: action.id,
      action_type: action.type,
      action_option: null,
      target_type: action.targetType,
      target_id: action.target,
      user_type: action.userType ?? 'User',
      user_id: action.user,
      created_at: action.created,
      updated_at: action.created,
    })),
  );
  await insert(
    client,
    'notifications',
    NOTIFICATIONS.map((note) => ({
      id: note.id,
      user_id: note.user,
      actor_id: note.actor,
      notify_type: note.type,
      target_type: note.target?.[0] ?? null,
      target_id: note.target?.[1] ?? null,
      second_target_type: note.second?.[0] ?? null,
      second_target_id: note.second?.[1] ?? null,
      read_at: note.read ?? null,
      created_at: note.created,
      updated_at: note.read ?? note.created,
    })),
  );
  const fromIso = (time: HomelandTime) => time.replace('T', ' ').replace('Z', '');
  await insert(
    client,
    'devices',
    fixture.devices.map((device) => ({
      id: device.id,
      platform: device.platform === 'ios' ? 0 : 1,
      user_id: device.userId,
      token: device.token,
      last_actived_at: device.lastActivedAt ? fromIso(device.lastActivedAt) : null,
      created_at: '2024-01-05 00:00:00.001001',
      updated_at: '2024-01-05 00:00:00.001001',
    })),
  );
  await insert(
    client,
    'oauth_applications',
    fixture.applications.map((app) => ({
      id: app.id,
      name: app.name,
      uid: app.uid,
      secret: app.secret,
      redirect_uri: app.redirectUris.join('\n'),
      scopes: '',
      created_at: '2023-07-01 00:00:00.001101',
      updated_at: '2023-07-02 00:00:00.001101',
      owner_id: app.ownerId,
      owner_type: 'User',
      level: app.level,
      confidential: app.confidential,
    })),
  );
  await insert(
    client,
    'oauth_access_tokens',
    fixture.tokens.map((token) => ({
      id: token.id,
      resource_owner_id: token.userId,
      application_id: token.applicationId,
      token: token.token,
      refresh_token: token.refreshToken,
      expires_in: token.expiresIn,
      revoked_at: token.revokedAt ? fromIso(token.revokedAt) : null,
      created_at: fromIso(token.createdAt),
      scopes: 'all',
    })),
  );
  await insert(client, 'oauth_access_grants', [
    {
      id: 1,
      resource_owner_id: 2,
      application_id: 1,
      token: doorkeeperToken('grant-1'),
      expires_in: 600,
      redirect_uri: 'rubychina://oauth/callback',
      created_at: '2024-01-01 00:00:00.001201',
      scopes: 'all',
    },
  ]);
  await insert(
    client,
    'photos',
    fixture.photos.map((photo) => ({
      id: photo.id,
      user_id: photo.userId,
      image: photo.image,
      created_at: `2024-01-0${photo.id} 00:00:00.00130${photo.id}`,
      updated_at: `2024-01-0${photo.id} 00:00:00.00130${photo.id}`,
    })),
  );
  await insert(client, 'counters', [
    {
      id: 1,
      countable_type: 'User',
      countable_id: 2,
      key: 'monthly_replies_count',
      value: 5,
      created_at: '2024-03-31 00:00:00.001401',
      updated_at: '2024-03-31 00:00:00.001401',
    },
    {
      id: 2,
      countable_type: 'User',
      countable_id: 2,
      key: 'yearly_replies_count',
      value: 5,
      created_at: '2024-03-31 00:00:00.001402',
      updated_at: '2024-03-31 00:00:00.001402',
    },
  ]);
  await insert(client, 'exception_tracks', [
    {
      id: 1,
      title: 'ActiveRecord::RecordNotFound',
      body: "Couldn't find Topic with 'id'=404",
      created_at: '2024-02-02 00:00:00.001501',
      updated_at: '2024-02-02 00:00:00.001501',
    },
  ]);
  await insert(
    client,
    'settings',
    fixture.settings.map((setting, index) => ({
      id: index + 1,
      var: setting.var,
      value: setting.value,
      created_at: `2023-01-04 00:00:0${index}.001601`,
      updated_at: `2024-01-0${index + 1} 00:00:00.001601`,
    })),
  );
  await client.query(`insert into schema_migrations (version) select unnest($1::varchar[]) on conflict do nothing`, [
    HOMELAND_MIGRATIONS,
  ]);
  await syncSequences(client);
}

// ---------------------------------------------------------------------------------------------------------------
// A later day in homeland: what a second import has to copy.

export interface HomelandChanges {
  /** When these changes happened (stored as UTC). */
  at: Date;
  /** A new account: id `fixture.maxUserId + 1`, the id our `system` took at the first import (it must move again). */
  user: { id: number; login: string; email: string; password: string };
  /** A new node: id `fixture.maxNodeId + 1`, where our NoPoint went at the first import (it must move again). */
  node: { id: number; name: string };
  /** A new topic by the new user in the new node. */
  topic: { id: number; userId: number; nodeId: number; title: string; body: string };
  /** A new reply by the new user on topic 2: topic 2 is touched, its stored replies_count and last reply change. */
  reply: { id: number; topicId: number; userId: number; body: string };
  /** A new like (`actions` row) by the new user on topic 1 (its likes_count and updated_at change). */
  like: { actionId: number; topicId: number; userId: number };
  /** The topic_reply notification of the new reply, to topic 2's author. */
  notification: { id: number; userId: number; actorId: number; replyId: number; topicId: number };
  /** Topic 4's body, edited (updated_at moves to `at`). */
  editedTopic: { id: number; body: string; updatedAt: HomelandTime };
  /** An unlike: this `actions` row was deleted for good (reply 10's likes_count and updated_at change). */
  deletedLike: { actionId: number; targetType: 'Reply'; targetId: number; userId: number };
  /** The team's pending invitation, accepted (status 1; `belongs_to :team, touch: true` touches the team): a member. */
  acceptedInvitation: { id: number; teamId: number; userId: number };
  /** Rows whose `updated_at` moved (besides the new ones), by table. */
  touched: { topics: number[]; replies: number[]; users: number[] };
  /** Ours after a second import. */
  expected: {
    systemUserId: number;
    noPointNodeId: number;
    topic1LikesCount: number;
    topic2RepliesCount: number;
    topic2LastReplyId: number;
    reply10LikesCount: number;
  };
}

/** Adds a day of homeland activity to a database fillHomeland filled (ids continue past the fixture's). */
export async function addHomelandRows(
  url: string,
  fixture: HomelandFixture,
  options: { at?: Date; cost?: number } = {},
): Promise<HomelandChanges> {
  const at = options.at ?? new Date();
  const time = stored(at);
  const userId = fixture.maxUserId + 1;
  const nodeId = fixture.maxNodeId + 1;
  const topicId = Math.max(...fixture.topics.map((topic) => topic.id)) + 1;
  const replyId = Math.max(...fixture.replies.map((reply) => reply.id)) + 1;
  const actionId = Math.max(...fixture.actions.map((action) => action.id)) + 1;
  const notificationId = Math.max(...fixture.notifications.map((note) => note.id)) + 1;
  const deleted = fixture.actions.find((a) => a.actionType === 'like' && a.targetType === 'Reply' && a.targetId === 10)!;
  const edited = fixture.topics.find((topic) => topic.id === 4)!;
  const topic2 = fixture.topics.find((topic) => topic.id === 2)!;
  const topic1 = fixture.topics.find((topic) => topic.id === 1)!;
  const reply10 = fixture.replies.find((reply) => reply.id === 10)!;
  const invitation = TEAM_USERS.find((row) => row.team === fixture.team.id && row.status === 0)!;
  const changes: HomelandChanges = {
    at,
    user: { id: userId, login: 'newcomer', email: 'newcomer@example.com', password: 'newcomer-pass' },
    node: { id: nodeId, name: 'Crystal' },
    topic: {
      id: topicId,
      userId,
      nodeId,
      title: 'Crystal 1.14 体验',
      body: 'Crystal 的语法和 Ruby 很像：\n\n```crystal\nputs "Hello"\n```',
    },
    reply: { id: replyId, topicId: 2, userId, body: '刚升级到 Rails 8，顺利。' },
    like: { actionId, topicId: 1, userId },
    notification: { id: notificationId, userId: topic2.userId, actorId: userId, replyId, topicId: 2 },
    editedTopic: { id: 4, body: `${edited.body}\n\n**更新**：Go 1.23 加入了 range over func。`, updatedAt: iso(time) },
    deletedLike: { actionId: deleted.id, targetType: 'Reply', targetId: 10, userId: deleted.userId },
    acceptedInvitation: { id: invitation.id, teamId: invitation.team, userId: invitation.user },
    touched: { topics: [1, 2, 4], replies: [10], users: [invitation.team] },
    expected: {
      systemUserId: userId + 1,
      noPointNodeId: nodeId + 1,
      topic1LikesCount: topic1.expected.likesCount + 1,
      topic2RepliesCount: topic2.expected.repliesCount + 1,
      topic2LastReplyId: replyId,
      reply10LikesCount: reply10.expectedLikesCount - 1,
    },
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    const encrypted = await devisePasswordHash(changes.user.password, { cost: options.cost ?? 4, salt: salt(userId) });
    await insert(client, 'users', [
      {
        id: userId,
        login: changes.user.login,
        name: 'Newcomer',
        email: changes.user.email,
        email_md5: md5(changes.user.email),
        state: 1,
        created_at: time,
        updated_at: time,
        encrypted_password: encrypted,
        topics_count: 1,
        replies_count: 1,
        confirmed_at: time,
        confirmation_sent_at: time,
      },
    ]);
    await insert(client, 'nodes', [
      { id: nodeId, name: 'Crystal', summary: 'Crystal 语言', sort: 0, topics_count: 1, created_at: time, updated_at: time },
    ]);
    await insert(client, 'topics', [
      {
        id: topicId,
        user_id: userId,
        node_id: nodeId,
        title: changes.topic.title,
        body: changes.topic.body,
        last_active_mark: Math.floor(at.getTime() / 1000),
        created_at: time,
        updated_at: time,
      },
    ]);
    await insert(client, 'replies', [
      { id: replyId, user_id: userId, topic_id: 2, body: changes.reply.body, created_at: time, updated_at: time },
    ]);
    // Topic#update_last_reply (topic 2 is older than a month: last_active_mark stays) and the reply's touch.
    await client.query(
      `update topics set replied_at = $2, last_reply_id = $3, last_reply_user_id = $4, last_reply_user_login = 'newcomer',
         replies_count = (select count(*) from replies where topic_id = $1 and action is null and deleted_at is null),
         updated_at = $2
       where id = $1`,
      [2, time, replyId, userId],
    );
    await insert(client, 'notifications', [
      {
        id: notificationId,
        user_id: topic2.userId,
        actor_id: userId,
        notify_type: 'topic_reply',
        target_type: 'Reply',
        target_id: replyId,
        second_target_type: 'Topic',
        second_target_id: 2,
        created_at: time,
        updated_at: time,
      },
    ]);
    await insert(client, 'actions', [
      {
        id: actionId,
        action_type: 'like',
        target_type: 'Topic',
        target_id: 1,
        user_type: 'User',
        user_id: userId,
        created_at: time,
        updated_at: time,
      },
    ]);
    // action-store recounts and saves the target (update_attribute: updated_at moves).
    await client.query(
      `update topics set likes_count = (select count(*) from actions where action_type = 'like' and target_type = 'Topic' and target_id = 1),
         updated_at = $1 where id = 1`,
      [time],
    );
    await client.query('delete from actions where id = $1', [deleted.id]);
    await client.query(
      `update replies set likes_count = (select count(*) from actions where action_type = 'like' and target_type = 'Reply' and target_id = 10),
         updated_at = $1 where id = 10`,
      [time],
    );
    await client.query('update topics set body = $2, updated_at = $3 where id = $1', [4, changes.editedTopic.body, time]);
    await client.query('update team_users set status = 1, updated_at = $2 where id = $1', [invitation.id, time]);
    await client.query('update users set updated_at = $2 where id = $1', [invitation.team, time]);
    await syncSequences(client);
    await client.query('commit');
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
  return changes;
}

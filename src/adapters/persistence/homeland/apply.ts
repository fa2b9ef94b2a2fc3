import type pg from 'pg';
import { GROUP_NAME_PATTERN } from '../../../domain/groups/group.js';
import { NO_POINT_NODE_NAME } from '../../../domain/nodes/node.js';
import { likeCounts } from '../../../domain/likes/like-repository.js';
import { BAN_GRADE } from '../../../domain/topics/topic.js';
import type { Role } from '../../../domain/users/role.js';
import { LEFT_ACCOUNT } from '../../../domain/users/user.js';
import type { ApplyInput, ImportedTable, ImportProgress } from '../../../application/imports/ports.js';
import { PROVIDER_NAME_PATTERN } from '../../../application/providers/providers.js';
import type { HomelandSettings } from './settings.js';

/**
 * The staged homeland rows applied to our tables (docs/import-homeland.md, table by table), set-based, inside the
 * run's transaction. Each table is mapped first into a `ready_<table>` of its own (each row our columns, or the
 * reason it is skipped), then upserted by id (or by its pair): a row that is here already as it is stays untouched,
 * so a second run changes only what changed in the source since. Rows an earlier run imported and the source no
 * longer has (an unlike, a purged notification) are removed.
 */
export async function applyStaged(
  db: pg.ClientBase,
  input: ApplyInput,
  settings: HomelandSettings,
  progress: ImportProgress,
): Promise<ImportedTable[]> {
  const run = async (text: string, values: unknown[] = []) => (await db.query(text, values)).rows;
  const adminEmails = [...new Set([...settings.adminEmails, ...input.options.adminEmails.map((email) => email.toLowerCase())])];
  const now = input.now;
  const tables: ImportedTable[] = [];
  const steps = STEPS.length;
  const bar = progress('write tables');
  for (const [i, step] of STEPS.entries()) {
    bar(i, steps);
    const values = step.values({ input, settings, adminEmails, now });
    await run(`create temporary table ${step.ready} on commit drop as ${step.ready_sql}`, values);
    await run(`analyze ${step.ready}`);
    const skipped: Record<string, number> = {};
    for (const row of await run(
      `select skip, count(*)::int as n from ${step.ready} where skip is not null group by skip order by skip`,
    )) {
      skipped[row.skip as string] = row.n as number;
    }
    const { n: eligible } = (await run(`select count(*)::int as n from ${step.ready} where skip is null`))[0] as { n: number };
    const read = step.read ? ((await run(step.read))[0] as { n: number }).n : eligible + sum(skipped);
    // A relation's pair may be in homeland's table twice (it has no unique index): the first is kept.
    if (step.read && !step.alreadyHere && read > eligible + sum(skipped))
      skipped['the same pair twice'] = read - eligible - sum(skipped);
    const alreadyHere = step.alreadyHere ? ((await run(step.alreadyHere))[0] as { n: number }).n : 0;
    for (const before of step.before ?? []) await run(before);
    const written = (await run(step.write))[0] as { inserted: number; updated: number };
    const removed = step.remove ? await count(db, step.remove, /\$1\b/.test(step.remove) ? [now] : []) : 0;
    tables.push({
      table: step.table,
      read,
      inserted: written.inserted,
      updated: written.updated,
      unchanged: eligible - written.inserted - written.updated + alreadyHere,
      removed,
      skipped,
    });
  }
  for (const table of SEQUENCED) {
    // Never below the sequence's own minimum (sections start at 2: id 1 is what a node in no section reports).
    await run(
      `select setval(s.seq, greatest(coalesce(m.id, 1), q.seqmin), m.id is not null)
       from (select pg_get_serial_sequence('${table}', 'id')::regclass as seq) s
       join pg_sequence q on q.seqrelid = s.seq, (select max(id) as id from ${table}) m`,
    );
  }
  // Every member starts with what the import brought read (contract §22): homeland kept its read state in Redis only,
  // and nothing it brought should be new to them on their first day. One horizon per member, moved up by a later run.
  await run(
    `insert into read_horizons as h (user_id, topic_id, reply_id, read_at)
     select u.id, m.topic_id, coalesce(m.reply_id, 0), $1 from ready_users u,
       (select (select max(id) from ready_topics where skip is null) as topic_id,
               (select max(id) from ready_replies where skip is null) as reply_id) m
     where u.skip is null and m.topic_id is not null
     on conflict (user_id) do update set topic_id = greatest(h.topic_id, excluded.topic_id),
       reply_id = greatest(h.reply_id, excluded.reply_id), read_at = least(h.read_at, excluded.read_at)`,
    [now],
  );
  bar(steps, steps);
  return tables;
}

const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0);

async function count(db: pg.ClientBase, text: string, values: unknown[]): Promise<number> {
  return (await db.query(text, values)).rowCount ?? 0;
}

/** The tables whose ids the import keeps: their sequences continue past them. */
const SEQUENCED = [
  'users',
  'groups',
  'nodes',
  'sections',
  'topics',
  'replies',
  'notifications',
  'devices',
  'oauth_clients',
  'oauth_tokens',
  'uploads',
];

interface StepContext {
  input: ApplyInput;
  settings: HomelandSettings;
  adminEmails: string[];
  now: Date;
}

interface Step {
  /** Our table, as the report names it. */
  table: string;
  ready: string;
  /** The mapping: our columns, and `skip` (why not, or null). */
  ready_sql: string;
  /** Rows read, when the ready table is not one row per source row. */
  read?: string;
  /** Rows imported by an earlier run that are not in the ready table (photos: their files are not read again). */
  alreadyHere?: string;
  values(context: StepContext): unknown[];
  before?: string[];
  /** Returns one row: inserted, updated. */
  write: string;
  remove?: string;
}

/**
 * `insert … on conflict … do update` of the ready rows, touching only rows that differ (`update` maps a column to
 * its new value, `excluded.<column>` unless said otherwise), counting what it inserted and what it changed.
 */
function upsert(
  table: string,
  ready: string,
  columns: string[],
  conflict: string,
  update: Record<string, string> | null,
): string {
  const list = columns.join(', ');
  let onConflict = 'do nothing';
  if (update) {
    const targets = Object.keys(update);
    // A row changed here since (a member who signed in: their hash upgraded) is newer than the source's: its time stays.
    const copied = (column: string) =>
      column === 'updated_at' ? `greatest(${table}.updated_at, excluded.updated_at)` : `excluded.${column}`;
    const values = targets.map((column) => update[column] || copied(column));
    onConflict = `do update set ${targets.map((column, i) => `${column} = ${values[i]}`).join(', ')}
      where (${targets.map((column) => `${table}.${column}`).join(', ')}) is distinct from (${values.join(', ')})`;
  }
  return `with written as (
      insert into ${table} (${list}) select ${list} from ${ready} where skip is null order by 1
      on conflict ${conflict} ${onConflict}
      returning (xmax = 0) as inserted)
    select count(*) filter (where inserted)::int as inserted, count(*) filter (where not inserted)::int as updated from written`;
}

/**
 * `created_at` and `updated_at` as homeland has them; where it has none (rows older than its timestamps), the time
 * an earlier run gave them here, else this run's (`$1`): a second run does not see a change in them.
 */
function since(table: string, alias: string): string {
  const here = (column: string) => `(select k.${column} from ${table} k where k.id = ${alias}.id)`;
  return `coalesce(${alias}.created_at, ${here('created_at')}, $1) as created_at,
          coalesce(${alias}.updated_at, ${alias}.created_at, ${here('updated_at')}, $1) as updated_at`;
}

/** Every column updated from the source. */
const all = (...columns: string[]) => Object.fromEntries(columns.map((column) => [column, '']));

const STEPS: Step[] = [
  {
    table: 'sections',
    ready: 'ready_sections',
    ready_sql: `select s.id, null::text as skip, s.name, s.sort, ${since('sections', 's')} from stage_sections s`,
    values: ({ now }) => [now],
    write: upsert(
      'sections',
      'ready_sections',
      ['id', 'name', 'sort', 'created_at', 'updated_at'],
      '(id)',
      all('name', 'sort', 'created_at', 'updated_at'),
    ),
  },
  {
    table: 'nodes',
    ready: 'ready_nodes',
    // A source node named NoPoint is ours from now on (makeRoomForBuiltIns moved ours to its id): hidden, as ours is.
    ready_sql: `select s.id, null::text as skip,
                       case when lower(s.name) = lower($2) then $2 else s.name end as name,
                       coalesce(s.summary, '') as summary, coalesce(s.sort, 0) as sort,
                       (lower(s.name) = lower($2) or s.id = any($3::int[])) as hidden,
                       (select c.id from stage_sections c where c.id = s.section_id) as section_id,
                       ${since('nodes', 's')}
                  from stage_nodes s`,
    values: ({ now, settings }) => [now, NO_POINT_NODE_NAME, settings.hiddenNodeIds],
    write: upsert(
      'nodes',
      'ready_nodes',
      ['id', 'name', 'summary', 'sort', 'hidden', 'section_id', 'created_at', 'updated_at'],
      '(id)',
      all('name', 'summary', 'sort', 'hidden', 'section_id', 'created_at', 'updated_at'),
    ),
  },
  {
    table: 'users',
    ready: 'ready_users',
    // homeland's deleted accounts (state -1) arrive as our left accounts are (LEFT_ACCOUNT, contract §16c).
    ready_sql: `select s.id, case when s.type = 'Team' then 'a team (imported as a group)' end as skip,
                       case when gone then $5 || s.id else s.login end as login,
                       case when gone then null else nullif(btrim(s.name), '') end as name,
                       case when gone then $5 || s.id || '@' || $6 else s.email end as email,
                       case when not gone and s.encrypted_password ~ '^\\$2[aby]\\$[0-9]{2}\\$[./A-Za-z0-9]{53}$'
                            then $2 || s.encrypted_password end as password_hash,
                       case when gone then $10 when s.state = 99 or lower(s.email) = any($3::text[]) then $11
                            when s.state = 2 then $12 else $13 end as role,
                       case when gone then $7 when s.confirmed then 'active' else 'unverified' end as state,
                       case when gone then null else left(s.location, 255) end as location,
                       case when gone then null else left(s.company, 255) end as company,
                       case when gone then null else left(s.twitter, 255) end as twitter,
                       case when gone then null else left(s.github, 255) end as github,
                       case when gone then null else left(s.website, 255) end as website,
                       case when gone then null else left(s.tagline, 255) end as tagline,
                       not gone and coalesce(s.email_public, false) as email_public,
                       $4 as locale,
                       case when gone then $8 else 'mentions_and_replies' end as email_notifications,
                       case when gone then $9 else 'none' end as email_digest, $1::timestamptz as last_seen_at,
                       ${since('users', 's')}
                  from stage_users s, lateral (select s.state = -1 as gone) g`,
    values: ({ now, input, adminEmails, settings }) => [
      now,
      input.passwordPrefix,
      adminEmails,
      settings.locale,
      LEFT_ACCOUNT.loginPrefix,
      LEFT_ACCOUNT.emailDomain,
      LEFT_ACCOUNT.state,
      LEFT_ACCOUNT.emailNotifications,
      LEFT_ACCOUNT.emailDigest,
      LEFT_ACCOUNT.role,
      ...(['admin', 'blocked', 'member'] as const satisfies readonly Role[]),
    ],
    write: upsert(
      'users',
      'ready_users',
      [
        'id',
        'login',
        'name',
        'email',
        'password_hash',
        'role',
        'state',
        'location',
        'company',
        'twitter',
        'github',
        'website',
        'tagline',
        'email_public',
        'locale',
        'email_notifications',
        'email_digest',
        'last_seen_at',
        'created_at',
        'updated_at',
      ],
      '(id)',
      {
        ...all(
          'login',
          'name',
          'email',
          'role',
          'state',
          'location',
          'company',
          'twitter',
          'github',
          'website',
          'tagline',
          'email_public',
          'created_at',
          'updated_at',
        ),
        // A password changed here, or rehashed at a first sign-in here, stays; one still homeland's follows homeland's.
        password_hash: `case when users.password_hash is null or users.password_hash like '$devise-bcrypt$%' then excluded.password_hash else users.password_hash end`,
      },
    ),
  },
  {
    table: 'groups',
    ready: 'ready_groups',
    // A team becomes a group of its login, under its id (groups have ids of their own: none before an import).
    ready_sql: `select s.id,
                       case when s.login !~ $2 then 'its login is not a group name (2 to 40 letters, digits, "_", "." or "-")'
                            when exists (select 1 from groups g where lower(g.name) = lower(s.login) and g.id <> s.id)
                              then 'its name is another group''s here'
                            when s.id <> first_value(s.id) over (partition by lower(s.login) order by s.id)
                              then 'its name is another team''s, but for case' end as skip,
                       s.login as name, btrim(left(btrim(coalesce(s.name, '')), 100)) as title, false as hidden,
                       ${since('groups', 's')}
                  from stage_users s
                 where s.type = 'Team'`,
    values: ({ now }) => [now, GROUP_NAME_PATTERN.source],
    // Whether a group is hidden is decided here: a later run leaves it as it was set.
    write: upsert(
      'groups',
      'ready_groups',
      ['id', 'name', 'title', 'hidden', 'created_at', 'updated_at'],
      '(id)',
      all('name', 'title', 'created_at', 'updated_at'),
    ),
  },
  {
    table: 'group_members',
    ready: 'ready_group_members',
    read: `select count(*)::int as n from stage_team_users`,
    // Accepted memberships only (`status` 1; 0 is an invitation). The table has no unique index in homeland: a pair
    // may be there twice (counted as such), the accepted row kept before a pending one.
    ready_sql: `select distinct on (m.team_id, m.user_id) m.team_id as group_id, m.user_id,
                       coalesce(m.created_at, $1) as created_at,
                       case when m.status is distinct from 1 then 'an invitation not accepted'
                            when g.id is null then 'its team is not imported'
                            when u.id is null then 'its user is not imported'
                            when u.state = $2 then 'its user''s account was deleted' end as skip
                  from stage_team_users m
                  left join ready_groups g on g.id = m.team_id and g.skip is null
                  left join ready_users u on u.id = m.user_id and u.skip is null
                 order by m.team_id, m.user_id, m.status is not distinct from 1 desc, m.created_at, m.id`,
    values: ({ now }) => [now, LEFT_ACCOUNT.state],
    write: upsert('group_members', 'ready_group_members', ['group_id', 'user_id', 'created_at'], '(user_id, group_id)', null),
    // A membership the source no longer has (a member who left the team) goes; groups made here are left alone.
    remove: `delete from group_members t where t.group_id in (select g.id from ready_groups g where g.skip is null)
               and not exists (select 1 from ready_group_members r where r.skip is null and r.group_id = t.group_id
                                 and r.user_id = t.user_id)`,
  },
  {
    table: 'topics',
    ready: 'ready_topics',
    // A banned topic is what our bans make (Topic#ban, contract §6): in NoPoint, its node locked, graded BAN_GRADE.
    ready_sql: `select s.id,
                       case when u.id is null then 'its author is not imported'
                            when n.id is null then 'its node is not in the source' end as skip,
                       s.user_id, case when s.grade = -1 then (select id from nodes where name = $2) else s.node_id end as node_id,
                       left(s.title, 255) as title, s.body, coalesce(s.body_html, '') as body_html,
                       coalesce(s.lock_node, false) or s.grade = -1 as lock_node,
                       case s.grade when -1 then $3 when 1 then 'excellent' else 'normal' end as grade,
                       s.closed_at, s.deleted_at,
                       case when s.deleted_at is not null then
                         (select d.id from ready_users d where d.skip is null and lower(d.login) = lower(s.who_deleted) limit 1) end
                         as deleted_by_id,
                       coalesce(to_timestamp(s.last_active_mark), s.created_at, (select k.last_active_at from topics k where k.id = s.id), $1) as last_active_at, s.suggested_at,
                       ${since('topics', 's')}
                  from stage_topics s
                  left join ready_users u on u.id = s.user_id and u.skip is null
                  left join stage_nodes n on n.id = s.node_id`,
    values: ({ now }) => [now, NO_POINT_NODE_NAME, BAN_GRADE],
    write: upsert(
      'topics',
      'ready_topics',
      [
        'id',
        'user_id',
        'node_id',
        'title',
        'body',
        'body_html',
        'lock_node',
        'grade',
        'closed_at',
        'deleted_at',
        'deleted_by_id',
        'last_active_at',
        'suggested_at',
        'created_at',
        'updated_at',
      ],
      '(id)',
      {
        ...all(
          'user_id',
          'node_id',
          'title',
          'body',
          'lock_node',
          'grade',
          'closed_at',
          'deleted_at',
          'deleted_by_id',
          'last_active_at',
          'suggested_at',
          'created_at',
          'updated_at',
        ),
        body_html: 'case when topics.body is distinct from excluded.body then excluded.body_html else topics.body_html end',
      },
    ),
    // homeland's spam job deletes old banned topics for good: here they are deleted as our deletions are (softly).
    remove: `update topics t set deleted_at = $1 where t.deleted_at is null and t.id <= (select max(id) from stage_topics)
               and not exists (select 1 from ready_topics r where r.id = t.id and r.skip is null)`,
  },
  {
    table: 'replies',
    ready: 'ready_replies',
    ready_sql: `select s.id,
                       case when s.action = 'mention' then 'a "mentioned in another topic" event (no such floor here)'
                            when s.action is not null and s.action not in ('ban', 'excellent', 'unexcellent', 'close', 'reopen')
                              then 'an event of a kind not kept here'
                            when t.id is null then 'its topic is not imported'
                            when u.id is null then 'its author is not imported' end as skip,
                       s.topic_id, s.user_id, s.body, coalesce(s.body_html, '') as body_html, s.action, s.deleted_at,
                       ${since('replies', 's')}
                  from stage_replies s
                  left join ready_topics t on t.id = s.topic_id and t.skip is null
                  left join ready_users u on u.id = s.user_id and u.skip is null`,
    values: ({ now }) => [now],
    write: upsert(
      'replies',
      'ready_replies',
      ['id', 'topic_id', 'user_id', 'body', 'body_html', 'action', 'deleted_at', 'created_at', 'updated_at'],
      '(id)',
      {
        ...all('topic_id', 'user_id', 'body', 'action', 'deleted_at', 'created_at', 'updated_at'),
        body_html: 'case when replies.body is distinct from excluded.body then excluded.body_html else replies.body_html end',
      },
    ),
    remove: `update replies t set deleted_at = $1 where t.deleted_at is null and t.id <= (select max(id) from stage_replies)
               and not exists (select 1 from ready_replies r where r.id = t.id and r.skip is null)`,
  },
  relation({
    table: 'likes',
    kinds: `a.action_type = 'like' and a.target_type in ('Topic', 'Reply')`,
    columns: { target_type: 'lower(a.target_type)', target_id: 'a.target_id', user_id: 'a.user_id' },
    key: ['target_type', 'target_id', 'user_id'],
    // Whether a like of one's own post counts is the likes' rule (likeCounts), asked of it.
    skip: `case when u.id is null then 'its user is not imported'
                when coalesce(t.id, r.id) is null then 'what it likes is not imported'
                when coalesce(t.user_id, r.user_id) = a.user_id and not $2 then 'a like of one''s own post' end`,
    values: [likeCounts(1, 1)],
    joins: `left join ready_topics t on a.target_type = 'Topic' and t.id = a.target_id and t.skip is null
            left join ready_replies r on a.target_type = 'Reply' and r.id = a.target_id and r.skip is null`,
  }),
  relation({
    table: 'user_follows',
    kinds: `a.action_type = 'follow' and a.target_type = 'User'`,
    columns: { follower_id: 'a.user_id', followee_id: 'a.target_id' },
    key: ['follower_id', 'followee_id'],
    skip: `case when u.id is null or f.id is null then 'a user is not imported' when a.user_id = a.target_id then 'following oneself' end`,
    joins: `left join ready_users f on f.id = a.target_id and f.skip is null`,
  }),
  relation({
    table: 'topic_follows',
    kinds: `a.action_type = 'follow' and a.target_type = 'Topic'`,
    columns: { topic_id: 'a.target_id', user_id: 'a.user_id' },
    key: ['topic_id', 'user_id'],
    skip: `case when u.id is null then 'its user is not imported' when t.id is null then 'its topic is not imported' end`,
    joins: `left join ready_topics t on t.id = a.target_id and t.skip is null`,
  }),
  relation({
    table: 'topic_favorites',
    kinds: `a.action_type = 'favorite' and a.target_type = 'Topic'`,
    columns: { user_id: 'a.user_id', topic_id: 'a.target_id' },
    key: ['user_id', 'topic_id'],
    skip: `case when u.id is null then 'its user is not imported' when t.id is null then 'its topic is not imported' end`,
    joins: `left join ready_topics t on t.id = a.target_id and t.skip is null`,
  }),
  relation({
    table: 'user_blocks',
    kinds: `a.action_type = 'block' and a.target_type = 'User'`,
    columns: { user_id: 'a.user_id', blocked_user_id: 'a.target_id' },
    key: ['user_id', 'blocked_user_id'],
    skip: `case when u.id is null or b.id is null then 'a user is not imported' when a.user_id = a.target_id then 'blocking oneself' end`,
    joins: `left join ready_users b on b.id = a.target_id and b.skip is null`,
  }),
  relation({
    table: 'node_blocks',
    kinds: `a.action_type = 'block' and a.target_type = 'Node'`,
    columns: { user_id: 'a.user_id', node_id: 'a.target_id' },
    key: ['user_id', 'node_id'],
    skip: `case when u.id is null then 'its user is not imported' when n.id is null then 'its node is not imported' end`,
    joins: `left join ready_nodes n on n.id = a.target_id`,
  }),
  {
    table: 'actions of other kinds',
    ready: 'ready_other_actions',
    ready_sql: `select format('%s of a %s (not kept here)', a.action_type, coalesce(a.target_type, 'nothing')) as skip
                  from stage_actions a
                 where not ((a.action_type = 'like' and a.target_type in ('Topic', 'Reply'))
                         or (a.action_type in ('follow', 'block') and a.target_type in ('User', 'Topic', 'Node'))
                         or (a.action_type = 'favorite' and a.target_type = 'Topic'))
                    or a.user_type is distinct from 'User'
                    or (a.action_type = 'follow' and a.target_type = 'Node')
                    or (a.action_type = 'block' and a.target_type = 'Topic')`,
    values: () => [],
    write: `select 0 as inserted, 0 as updated`,
  },
  {
    table: 'notifications',
    ready: 'ready_notifications',
    // homeland's five kinds that are ours too (§5); the topic of a reply's notification is the reply's own.
    ready_sql: `select n.id,
                       case when m.type is null then format('of the kind %s (not kept here)', n.notify_type)
                            when n.notify_type = 'mention' and n.target_type not in ('Topic', 'Reply') then 'a mention outside topics and replies'
                            when u.id is null then 'its recipient is not imported'
                            when m.needs_reply and r.id is null then 'its reply is not imported'
                            when m.topic_id is not null and t.id is null then 'its topic is not imported'
                            when m.type = 'NodeChanged' and nd.id is null then 'its node is not imported'
                            when m.type = 'Follow' and a.id is null then 'its follower is not imported' end as skip,
                       n.user_id, a.id as actor_id, m.type, coalesce(r.topic_id, m.topic_id) as topic_id,
                       case when m.needs_reply then n.target_id end as reply_id,
                       case when m.type = 'NodeChanged' then n.second_target_id end as node_id,
                       case when m.type = 'Mention' then n.target_type end as mention_type,
                       n.read_at, ${since('notifications', 'n')},
                       $1::timestamptz as emailed_at
                  from stage_notifications n
                  cross join lateral (
                    select case n.notify_type when 'topic_reply' then 'TopicReply' when 'mention' then 'Mention' when 'topic' then 'Topic'
                                              when 'follow' then 'Follow' when 'node_changed' then 'NodeChanged' end as type,
                           n.notify_type = 'topic_reply' or (n.notify_type = 'mention' and n.target_type = 'Reply') as needs_reply,
                           case when n.notify_type in ('topic', 'node_changed') or (n.notify_type = 'mention' and n.target_type = 'Topic')
                                then n.target_id
                                when n.notify_type = 'topic_reply' or (n.notify_type = 'mention' and n.target_type = 'Reply')
                                then n.second_target_id end as topic_id) m
                  left join ready_users u on u.id = n.user_id and u.skip is null
                  left join ready_users a on a.id = n.actor_id and a.skip is null
                  left join ready_replies r on m.needs_reply and r.id = n.target_id and r.skip is null
                  left join ready_topics t on t.id = coalesce(r.topic_id, m.topic_id) and t.skip is null
                  left join ready_nodes nd on m.type = 'NodeChanged' and nd.id = n.second_target_id`,
    values: ({ now }) => [now],
    // Imported notifications are old news: marked mailed, so that none is mailed now (contract §17).
    write: upsert(
      'notifications',
      'ready_notifications',
      [
        'id',
        'user_id',
        'actor_id',
        'type',
        'topic_id',
        'reply_id',
        'node_id',
        'mention_type',
        'read_at',
        'created_at',
        'updated_at',
        'emailed_at',
      ],
      '(id)',
      all(
        'user_id',
        'actor_id',
        'type',
        'topic_id',
        'reply_id',
        'node_id',
        'mention_type',
        'read_at',
        'created_at',
        'updated_at',
      ),
    ),
    remove: `delete from notifications t where t.id <= (select max(id) from stage_notifications)
               and not exists (select 1 from ready_notifications r where r.id = t.id and r.skip is null)`,
  },
  {
    table: 'devices',
    ready: 'ready_devices',
    // One owner per platform and token here: the most recently active device keeps it.
    ready_sql: `select d.id,
                       case when p.platform is null then 'an unknown platform'
                            when u.id is null then 'its owner is not imported'
                            when u.state = $2 then 'its owner''s account was deleted'
                            when d.id <> first_value(d.id) over same_token then 'the same token as a more recent device' end as skip,
                       d.user_id, p.platform, left(d.token, 255) as token,
                       coalesce(d.created_at, (select k.created_at from devices k where k.id = d.id), $1) as created_at,
                       greatest(d.updated_at, d.last_actived_at, d.created_at, $1 - interval '100 years') as updated_at
                  from stage_devices d
                  cross join lateral (select case d.platform when 0 then 'ios' when 1 then 'android' end as platform) p
                  left join ready_users u on u.id = d.user_id and u.skip is null
                window same_token as (partition by p.platform, left(d.token, 255)
                                      order by greatest(d.updated_at, d.last_actived_at, d.created_at) desc nulls last, d.id desc)`,
    values: ({ now }) => [now, LEFT_ACCOUNT.state],
    before: [
      `delete from devices t using ready_devices r where r.skip is null and t.platform = r.platform and t.token = r.token and t.id <> r.id`,
    ],
    write: upsert(
      'devices',
      'ready_devices',
      ['id', 'user_id', 'platform', 'token', 'created_at', 'updated_at'],
      '(id)',
      all('user_id', 'platform', 'token', 'created_at', 'updated_at'),
    ),
    remove: `delete from devices t where t.id <= (select max(id) from stage_devices)
               and not exists (select 1 from ready_devices r where r.id = t.id and r.skip is null)`,
  },
  {
    table: 'oauth_clients',
    ready: 'ready_oauth_clients',
    ready_sql: `select id, null::text as skip, left(name, 100) as name, uid,
                       case when confidential then secret_digest end as secret_digest, not confidential as public,
                       regexp_split_to_array(btrim(redirect_uri), '\\s+') as redirect_uris,
                       coalesce(created_at, (select k.created_at from oauth_clients k where k.id = a.id), $1) as created_at
                  from stage_oauth_applications a`,
    values: ({ now }) => [now],
    write: upsert(
      'oauth_clients',
      'ready_oauth_clients',
      ['id', 'name', 'uid', 'secret_digest', 'public', 'redirect_uris', 'created_at'],
      '(id)',
      all('name', 'uid', 'secret_digest', 'public', 'redirect_uris', 'created_at'),
    ),
  },
  {
    table: 'oauth_tokens',
    ready: 'ready_oauth_tokens',
    // Only what still works in homeland: not revoked, and its access alive or a refresh token to renew it.
    ready_sql: `select s.id,
                       case when s.revoked_at is not null then 'revoked'
                            when s.refresh_digest is null and s.expires_in is not null
                                 and s.created_at + s.expires_in * interval '1 second' <= $1 then 'expired'
                            when c.id is null then 'its application is not in the source'
                            when s.user_id is not null and (u.id is null or u.state <> 'active')
                              then 'its owner cannot sign in here' end as skip,
                       s.access_digest, s.refresh_digest, s.application_id as client_id, s.user_id, 'all' as scope,
                       case when s.expires_in is null then $1 + $2 * interval '1 second'
                            else s.created_at + s.expires_in * interval '1 second' end as expires_at,
                       case when s.refresh_digest is not null then $1 + $3 * interval '1 second' end as refresh_expires_at,
                       coalesce(s.created_at, $1) as created_at
                  from stage_oauth_tokens s
                  left join ready_oauth_clients c on c.id = s.application_id
                  left join ready_users u on u.id = s.user_id and u.skip is null`,
    values: ({ now, input }) => [now, input.accessTokenSeconds, input.refreshTokenSeconds],
    // A token is never changed by a later run (a refresh here replaces it by one of ours); one homeland revoked goes.
    write: upsert(
      'oauth_tokens',
      'ready_oauth_tokens',
      [
        'id',
        'access_digest',
        'refresh_digest',
        'client_id',
        'user_id',
        'scope',
        'expires_at',
        'refresh_expires_at',
        'created_at',
      ],
      '(id)',
      null,
    ),
    remove: `delete from oauth_tokens t using ready_oauth_tokens r where r.id = t.id and r.skip is not null and r.access_digest = t.access_digest`,
  },
  {
    table: 'uploads',
    ready: 'ready_uploads',
    read: `select count(*)::int as n from stage_photos`,
    alreadyHere: `select count(*)::int as n from stage_photos s join uploads u on u.id = s.id`,
    // The photos stored by this run (the others are here already, or were skipped for want of a file).
    ready_sql: `select f.id,
                       case when u.id is null then 'its uploader is not imported (the file is kept, its links work)'
                            when exists (select 1 from uploads o where o.user_id = f.user_id and o.sha256 = f.sha256 and o.id <> f.id)
                              or f.id <> first_value(f.id) over (partition by f.user_id, f.sha256 order by f.id)
                              then 'the same file as another photo of its uploader' end as skip,
                       f.user_id, f.sha256, split_part(f.image, '/', -1) as name, f.content_type, f.extension, f.byte_size,
                       f.width, f.height, f.created_at
                  from stage_photo_files f left join ready_users u on u.id = f.user_id and u.skip is null`,
    values: () => [],
    write: upsert(
      'uploads',
      'ready_uploads',
      ['id', 'user_id', 'sha256', 'name', 'content_type', 'extension', 'byte_size', 'width', 'height', 'created_at'],
      '',
      null,
    ),
  },
  {
    table: 'provider_links',
    ready: 'ready_provider_links',
    // homeland's sign-in bindings become links (contract §25), naming the provider by omniauth's name: `github` is
    // the provider an administrator adds as `github`, and the link works from then on. homeland has no unique index
    // on either pair: the first binding of an identity, and of an account to a provider, is kept. A link made here
    // is never replaced nor removed by a later run (a person's own choice, which the source knows nothing of).
    ready_sql: `select a.id, a.user_id, p.provider, a.uid as subject, coalesce(a.created_at, $1) as created_at,
                       case when u.id is null then 'its user is not imported'
                            when u.state = $2 then 'its user''s account was deleted'
                            when p.provider !~ $3 then 'its provider''s name cannot be one here'
                            when btrim(a.uid) = '' then 'no identity'
                            when a.id <> first_value(a.id) over (partition by p.provider, a.uid order by a.id)
                              then 'the same identity bound twice (the first kept)'
                            when a.id <> first_value(a.id) over (partition by a.user_id, p.provider order by a.id)
                              then 'a second identity at the same provider for one account (the first kept)'
                            when exists (select 1 from provider_links l
                                          where l.provider = p.provider and l.subject = a.uid and l.user_id <> a.user_id)
                              then 'the identity is linked here to another account'
                            when exists (select 1 from provider_links l
                                          where l.user_id = a.user_id and l.provider = p.provider and l.subject <> a.uid)
                              then 'its account is linked here to another identity at this provider' end as skip
                  from stage_authorizations a
                  cross join lateral (select lower(btrim(a.provider)) as provider) p
                  left join ready_users u on u.id = a.user_id and u.skip is null`,
    values: ({ now }) => [now, LEFT_ACCOUNT.state, PROVIDER_NAME_PATTERN.source],
    write: upsert('provider_links', 'ready_provider_links', ['user_id', 'provider', 'subject', 'created_at'], '', null),
  },
];

/**
 * One of our relation tables from homeland's `actions` (action-store): keyed by its pair, never updated, a row the
 * source no longer has (an unlike, an unfollow) removed.
 */
function relation(spec: {
  table: string;
  kinds: string;
  columns: Record<string, string>;
  key: string[];
  skip: string;
  joins: string;
  /** Values the skip reads as $2, $3…, after the run's time. */
  values?: unknown[];
}): Step {
  const names = Object.keys(spec.columns);
  const ready = `ready_${spec.table}`;
  const pair = spec.key.map((column) => spec.columns[column]).join(', ');
  return {
    table: spec.table,
    ready,
    read: `select count(*)::int as n from stage_actions a where a.user_type = 'User' and ${spec.kinds}`,
    // The table has no unique index in homeland: a pair may be there twice (counted as such), the first one is kept.
    ready_sql: `select distinct on (${pair}) ${names.map((name) => `${spec.columns[name]} as ${name}`).join(', ')},
                       coalesce(a.created_at, $1) as created_at, ${spec.skip} as skip
                  from stage_actions a
                  left join ready_users u on u.id = a.user_id and u.skip is null
                  ${spec.joins}
                 where a.user_type = 'User' and ${spec.kinds}
                 order by ${pair}, a.created_at`,
    values: ({ now }) => [now, ...(spec.values ?? [])],
    write: upsert(spec.table, ready, [...names, 'created_at'], `(${spec.key.join(', ')})`, null),
    remove: `delete from ${spec.table} t where not exists (select 1 from ${ready} r where r.skip is null and ${spec.key
      .map((column) => `r.${column} = t.${column}`)
      .join(' and ')})`,
  };
}

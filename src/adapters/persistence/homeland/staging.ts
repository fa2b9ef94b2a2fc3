/**
 * What the import reads of a homeland database (docs/import-homeland.md): per source table, the query that reads
 * it in the snapshot and the temporary table of ours it is copied into, column for column. The queries convert on
 * the way out what must not travel as it is: timestamps (homeland's are UTC without a zone) and every token and
 * client secret, which leaves the source only as its SHA-256 (as this service keeps its own, so that neither the
 * staging tables nor anything written here ever holds one in clear).
 */
import { SECRET_DIGEST } from '../../../application/ports.js';

/** Columns some homeland sources lack (older schemas), asked of the source before reading. */
export interface SourceShape {
  /** `users.confirmed_at` (devise :confirmable, 2025). */
  confirmedAt: boolean;
  /** `sections` and `nodes.section_id` (removed in 2020). */
  sections: boolean;
  /** `oauth_applications.confidential` (doorkeeper 5). */
  confidential: boolean;
  /** `team_users` (teams' memberships, since 2016: every source the import reads has it, a trimmed copy may not). */
  teamUsers: boolean;
  /** `authorizations` (omniauth's sign-in bindings: every homeland has it, a trimmed copy may not). */
  authorizations: boolean;
}

export interface StagedTable {
  /** The source table, and the bar's label. */
  source: string;
  /** Our temporary table. */
  stage: string;
  /** Its columns, as `create temporary table` takes them, in the query's order. */
  columns: string;
  /** The query run on the source, inside the snapshot (null: this source has no such table). */
  query(shape: SourceShape): string | null;
}

const utc = (column: string) => `(${column} at time zone 'UTC')`;
/** The digest of a secret, as our code makes it (SECRET_DIGEST), computed where the secret is. */
const digest = (column: string) =>
  `encode(${SECRET_DIGEST.algorithm}(convert_to(${column}, 'UTF8')), '${SECRET_DIGEST.encoding}')`;

export const STAGED_TABLES: StagedTable[] = [
  {
    source: 'settings',
    stage: 'stage_settings',
    columns: 'var text, value text',
    query: () =>
      `select var, value from settings
        where thing_type is null and var in ('admin_emails', 'node_ids_hide_in_topics_index', 'default_locale')`,
  },
  {
    source: 'sections',
    stage: 'stage_sections',
    columns: 'id integer primary key, name text, sort integer, created_at timestamptz, updated_at timestamptz',
    query: (shape) =>
      shape.sections
        ? `select id, name, coalesce(sort, 0), ${utc('created_at')}, ${utc('updated_at')} from sections order by id`
        : null,
  },
  {
    source: 'users',
    stage: 'stage_users',
    columns: `id integer primary key, login text, name text, email text, email_public boolean, location text,
      website text, company text, github text, twitter text, tagline text, state integer, type text,
      encrypted_password text, confirmed boolean, created_at timestamptz, updated_at timestamptz`,
    query: (shape) =>
      `select id, login, name, email, email_public, location, website, company, github, twitter, tagline, state, type,
              encrypted_password, ${shape.confirmedAt ? 'confirmed_at is not null' : 'true'},
              ${utc('created_at')}, ${utc('updated_at')}
         from users order by id`,
  },
  {
    // Teams' memberships and invitations (`status`: 0 pendding, 1 accepted; `role`: 0 owner, 1 member).
    source: 'team_users',
    stage: 'stage_team_users',
    columns: `id integer primary key, team_id integer, user_id integer, role integer, status integer,
      created_at timestamptz, updated_at timestamptz`,
    query: (shape) =>
      shape.teamUsers
        ? `select id, team_id, user_id, role, status, ${utc('created_at')}, ${utc('updated_at')} from team_users order by id`
        : null,
  },
  {
    source: 'nodes',
    stage: 'stage_nodes',
    columns: `id integer primary key, name text, summary text, sort integer, section_id integer,
      created_at timestamptz, updated_at timestamptz`,
    query: (shape) =>
      `select id, name, summary, sort, ${shape.sections ? 'section_id' : 'null'}, ${utc('created_at')}, ${utc('updated_at')}
         from nodes order by id`,
  },
  {
    source: 'topics',
    stage: 'stage_topics',
    columns: `id integer primary key, user_id integer, node_id integer, title text, body text, who_deleted text,
      last_active_mark bigint, lock_node boolean, suggested_at timestamptz, grade integer, deleted_at timestamptz,
      closed_at timestamptz, created_at timestamptz, updated_at timestamptz, body_html text`,
    query: () =>
      `select id, user_id, node_id, title, body, who_deleted, last_active_mark, lock_node, ${utc('suggested_at')}, grade,
              ${utc('deleted_at')}, ${utc('closed_at')}, ${utc('created_at')}, ${utc('updated_at')}, null
         from topics order by id`,
  },
  {
    source: 'replies',
    stage: 'stage_replies',
    columns: `id integer primary key, user_id integer, topic_id integer, body text, action text, deleted_at timestamptz,
      created_at timestamptz, updated_at timestamptz, body_html text`,
    query: () =>
      `select id, user_id, topic_id, body, action, ${utc('deleted_at')}, ${utc('created_at')}, ${utc('updated_at')}, null
         from replies order by id`,
  },
  {
    source: 'actions',
    stage: 'stage_actions',
    columns: 'action_type text, target_type text, target_id integer, user_type text, user_id integer, created_at timestamptz',
    query: () =>
      `select action_type, target_type, target_id, user_type, user_id, ${utc('created_at')}
         from actions order by id`,
  },
  {
    source: 'notifications',
    stage: 'stage_notifications',
    columns: `id integer primary key, user_id integer, actor_id integer, notify_type text, target_type text,
      target_id integer, second_target_type text, second_target_id integer, read_at timestamptz,
      created_at timestamptz, updated_at timestamptz`,
    query: () =>
      `select id, user_id, actor_id, notify_type, target_type, target_id, second_target_type, second_target_id,
              ${utc('read_at')}, ${utc('created_at')}, ${utc('updated_at')}
         from notifications order by id`,
  },
  {
    source: 'devices',
    stage: 'stage_devices',
    columns: `id integer primary key, platform integer, user_id integer, token text, last_actived_at timestamptz,
      created_at timestamptz, updated_at timestamptz`,
    query: () =>
      `select id, platform, user_id, token, ${utc('last_actived_at')}, ${utc('created_at')}, ${utc('updated_at')}
         from devices order by id`,
  },
  {
    source: 'oauth_applications',
    stage: 'stage_oauth_applications',
    columns: `id integer primary key, name text, uid text, secret_digest text, redirect_uri text, confidential boolean,
      created_at timestamptz`,
    query: (shape) =>
      `select id, name, uid, ${digest('secret')}, redirect_uri, ${shape.confidential ? 'confidential' : 'true'},
              ${utc('created_at')}
         from oauth_applications order by id`,
  },
  {
    source: 'oauth_access_tokens',
    stage: 'stage_oauth_tokens',
    columns: `id integer primary key, user_id integer, application_id integer, access_digest text, refresh_digest text,
      expires_in bigint, revoked_at timestamptz, created_at timestamptz`,
    query: () =>
      `select id, resource_owner_id, application_id, ${digest('token')},
              case when refresh_token is null or refresh_token = '' then null else ${digest('refresh_token')} end,
              expires_in, ${utc('revoked_at')}, ${utc('created_at')}
         from oauth_access_tokens order by id`,
  },
  {
    // omniauth's bindings (`app/models/authorization.rb`): `provider` is omniauth's strategy name (`github`, `twitter`,
    // `wechat`), `uid` the person's id there (GitHub's numeric user id, as our GitHub links keep it).
    source: 'authorizations',
    stage: 'stage_authorizations',
    columns: 'id integer primary key, provider text, uid text, user_id integer, created_at timestamptz',
    query: (shape) =>
      shape.authorizations ? `select id, provider, uid, user_id, ${utc('created_at')} from authorizations order by id` : null,
  },
  {
    source: 'photos',
    stage: 'stage_photos',
    columns: 'id integer primary key, user_id integer, image text, created_at timestamptz',
    query: () => `select id, user_id, image, ${utc('created_at')} from photos order by id`,
  },
];

/** What this run stored of the photos (filled by the use case, recorded by `apply`). */
export const STAGED_PHOTO_FILES = `create temporary table stage_photo_files (
  id integer primary key, user_id integer, image text, sha256 text, content_type text, extension text,
  byte_size integer, width integer, height integer, created_at timestamptz) on commit drop`;

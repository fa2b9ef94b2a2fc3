import { isIP } from 'node:net';
import path from 'node:path';

export const REGISTRATIONS = ['open', 'approval', 'invite', 'closed'] as const;

/** REQUIRE_2FA's values (contract §25): nobody must have a second factor, or administrators must. */
export const SECOND_FACTOR_REQUIREMENTS = ['none', 'admins'] as const;
export type SecondFactorRequirement = (typeof SECOND_FACTOR_REQUIREMENTS)[number];

export const UPLOAD_STORE_KINDS = ['folder', 's3'] as const;
export type UploadStoreKind = (typeof UPLOAD_STORE_KINDS)[number];

/**
 * An S3-compatible store (AWS S3, MinIO, R2…): its endpoint (null: AWS's own for the region), bucket, region, keys
 * (null: the SDK's usual sources, such as an instance role), and the public URL it serves files at, if it does
 * (null: this service serves them at PUBLIC_URL/uploads/).
 */
export interface S3Settings {
  endpoint: string | null;
  bucket: string;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  publicUrl: string | null;
}
export type Registration = (typeof REGISTRATIONS)[number];

/** Everything the environment configures, read and checked once. */
export interface Config {
  port: number;
  host: string;
  /** Where clients reach the service; absolute URLs in responses (avatars) start with it. */
  publicUrl: string;
  /** Set: use this PostgreSQL. Unset: an embedded one under `dataDir` (refused in production). */
  databaseUrl: string | null;
  /** NODE_ENV=production: no embedded database, no guessing. */
  production: boolean;
  dataDir: string;
  /** Where uploaded photos are kept by the folder store (UPLOADS_DIR). */
  uploadsDir: string;
  /**
   * Uploads (contract §19): the store (UPLOADS_STORE: `folder`, the default, or `s3`); the S3-compatible store, when
   * S3_BUCKET is set (for UPLOADS_STORE=s3, or to migrate into); how many uploads a user may make a day
   * (UPLOADS_PER_DAY, 50).
   */
  uploads: { store: UploadStoreKind; perDay: number; s3: S3Settings | null };
  /** Origins allowed to call the API from a browser (CORS): a list, `*`, or empty for no CORS headers at all. */
  corsOrigins: string[] | '*';
  /** How long an access token lives, in seconds (ACCESS_TOKEN_TTL; a day by default). */
  tokenLifetimeSeconds: number;
  /** How long a refresh token lives, in seconds (REFRESH_TOKEN_TTL; 30 days by default). */
  refreshTokenLifetimeSeconds: number;
  /** Failed password grants allowed per account and per address within the window, then 429 until it ends. */
  loginThrottle: { perAccount: number; perAddress: number; windowSeconds: number };
  /** Take the client address from X-Forwarded-For (behind a reverse proxy). */
  trustProxy: boolean;
  logLevel: string;
  /** Server processes on the port (node's cluster module when more than one). */
  webConcurrency: number;
  /** API requests per minute per token and per client address, over all processes; 0: no limit. */
  rateLimits: { perToken: number; perAddress: number };
  /** Set: `GET /metrics` only with `Authorization: Bearer <it>`. */
  metricsToken: string | null;
  /** The server's database pools (each process has two: the ORM's and the read models'). */
  database: { poolMax: number; statementTimeoutMs: number; connectTimeoutMs: number };
  /**
   * The key mail tokens are derived under (SECRET_KEY, at least 32 characters); null: a key kept in
   * `dataDir/secret_key`, made on first use (one host only: several must share SECRET_KEY).
   */
  secretKey: string | null;
  /** Who may join (REGISTRATION, contract §16b): anyone, anyone an administrator approves, invitees, nobody. */
  registration: Registration;
  /**
   * REQUIRE_2FA (contract §25): `admins`, administrators act as members until they set up a second factor; `none`
   * (the default), nobody must.
   */
  requireSecondFactor: SecondFactorRequirement;
  /**
   * Review (contract §18): how many people's flags hide a post (FLAG_HIDE_THRESHOLD, 3); how many first posts of an
   * account that signed up itself wait for approval (HOLD_FIRST_POSTS, 0: none); what a new account may post in its
   * first day (NEW_USER_TOPICS_PER_DAY, 3; NEW_USER_REPLIES_PER_DAY, 20; NEW_USER_MESSAGES_PER_DAY, 5).
   */
  review: {
    flagHideThreshold: number;
    holdFirstPosts: number;
    topicsPerDay: number;
    repliesPerDay: number;
    messagesPerDay: number;
  };
  /** Webhooks: deliver to loopback and private addresses too (off: SSRF), and how many tries run at once per process. */
  webhooks: { allowPrivate: boolean; concurrency: number };
  /**
   * Mail (contract §17): `smtpUrl` (SMTP_URL, smtp:// or smtps://, credentials in it; null: `.eml` files in
   * `folder`, FORUM_DATA_DIR/mail), the From address (MAIL_FROM, default `forum <noreply@PUBLIC_URL's host>`) and how
   * many mails each process sends at once (MAIL_CONCURRENCY; 0: this process sends none).
   * Notification mail: `delayMinutes` (EMAIL_DELAY_MINUTES, 10) before a notification is mailed, so that what was
   * read meanwhile is not and a topic's burst goes out as one mail; `topicUrl` (TOPIC_URL, `{id}` in it; default
   * PUBLIC_URL/topics/{id}) where mail links to a topic.
   * Reply by e-mail: `replyAddress` (REPLY_BY_EMAIL, `%{key}` in it, e.g. `reply+%{key}@forum.example`; null: off),
   * `inboundToken` (INBOUND_EMAIL_TOKEN: what `POST /api/v3/inbound-email` requires as its bearer; null: no
   * endpoint), `inboundSmtpPort` (INBOUND_SMTP_PORT: the built-in SMTP listener; null: none).
   */
  mail: {
    smtpUrl: string | null;
    from: string;
    folder: string;
    concurrency: number;
    delayMinutes: number;
    topicUrl: string;
    replyAddress: string | null;
    inboundToken: string | null;
    inboundSmtpPort: number | null;
  };
}

/**
 * `forum <noreply@PUBLIC_URL's host>`; a host that is an IP address is no mail domain (`noreply@127.0.0.1` is not
 * an address: a literal would need brackets, which many mail programs refuse), so `localhost` stands in for it.
 */
function defaultFrom(publicUrl: string): string {
  const host = new URL(publicUrl).hostname;
  return `forum <noreply@${isIP(host.replace(/^\[|\]$/g, '')) ? 'localhost' : host}>`;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const host = env.HOST || '127.0.0.1';
  const dataDir = env.FORUM_DATA_DIR || './.data';
  const publicUrl = env.PUBLIC_URL || `http://${host}:${port}`;
  return {
    port,
    host,
    publicUrl,
    databaseUrl: env.DATABASE_URL || null,
    production: env.NODE_ENV === 'production',
    dataDir,
    uploadsDir: env.UPLOADS_DIR || path.join(dataDir, 'uploads'),
    uploads: uploadSettings(env),
    corsOrigins: corsOrigins(env.CORS_ORIGINS),
    tokenLifetimeSeconds: integer(env, 'ACCESS_TOKEN_TTL', 86_400, 1, 10 * 365 * 86_400),
    refreshTokenLifetimeSeconds: integer(env, 'REFRESH_TOKEN_TTL', 30 * 86_400, 1, 10 * 365 * 86_400),
    loginThrottle: {
      perAccount: integer(env, 'LOGIN_MAX_FAILURES', 10, 1, 1_000_000),
      perAddress: integer(env, 'LOGIN_MAX_FAILURES_PER_ADDRESS', 100, 1, 1_000_000),
      windowSeconds: integer(env, 'LOGIN_THROTTLE_WINDOW', 900, 1, 86_400),
    },
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL || 'info',
    webConcurrency: integer(env, 'WEB_CONCURRENCY', 1, 1, 64),
    metricsToken: env.METRICS_TOKEN || null,
    rateLimits: {
      perToken: integer(env, 'RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000_000),
      perAddress: integer(env, 'RATE_LIMIT_PER_ADDRESS_PER_MINUTE', 1_200, 0, 1_000_000_000),
    },
    database: {
      poolMax: integer(env, 'DATABASE_POOL_MAX', 10, 1, 1_000),
      statementTimeoutMs: integer(env, 'DATABASE_STATEMENT_TIMEOUT_MS', 15_000, 0, 3_600_000),
      connectTimeoutMs: integer(env, 'DATABASE_CONNECT_TIMEOUT_MS', 3_000, 100, 60_000),
    },
    secretKey: secretKey(env),
    registration: registration(env.REGISTRATION),
    requireSecondFactor: requireSecondFactor(env.REQUIRE_2FA),
    review: {
      flagHideThreshold: integer(env, 'FLAG_HIDE_THRESHOLD', 3, 1, 1_000),
      holdFirstPosts: integer(env, 'HOLD_FIRST_POSTS', 0, 0, 1_000),
      topicsPerDay: integer(env, 'NEW_USER_TOPICS_PER_DAY', 3, 0, 1_000_000),
      repliesPerDay: integer(env, 'NEW_USER_REPLIES_PER_DAY', 20, 0, 1_000_000),
      messagesPerDay: integer(env, 'NEW_USER_MESSAGES_PER_DAY', 5, 0, 1_000_000),
    },
    webhooks: {
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE === 'true' || env.WEBHOOKS_ALLOW_PRIVATE === '1',
      concurrency: integer(env, 'WEBHOOKS_CONCURRENCY', 4, 0, 100),
    },
    mail: {
      smtpUrl: smtpUrl(env.SMTP_URL),
      from: env.MAIL_FROM || defaultFrom(publicUrl),
      folder: path.join(dataDir, 'mail'),
      concurrency: integer(env, 'MAIL_CONCURRENCY', 2, 0, 50),
      delayMinutes: integer(env, 'EMAIL_DELAY_MINUTES', 10, 0, 10_080),
      topicUrl: topicUrl(env.TOPIC_URL, publicUrl),
      replyAddress: replyAddress(env.REPLY_BY_EMAIL),
      inboundToken: env.INBOUND_EMAIL_TOKEN || null,
      inboundSmtpPort: env.INBOUND_SMTP_PORT ? integer(env, 'INBOUND_SMTP_PORT', 0, 0, 65_535) : null,
    },
  };
}

function uploadSettings(env: NodeJS.ProcessEnv): Config['uploads'] {
  const store = env.UPLOADS_STORE || 'folder';
  if (!(UPLOAD_STORE_KINDS as readonly string[]).includes(store)) {
    throw new Error(`UPLOADS_STORE must be one of ${UPLOAD_STORE_KINDS.join(', ')}, got "${store}"`);
  }
  const s3 = s3Settings(env);
  if (store === 's3' && !s3) throw new Error('UPLOADS_STORE=s3 needs S3_BUCKET (and S3_ENDPOINT, S3_REGION, the keys)');
  return { store: store as UploadStoreKind, perDay: integer(env, 'UPLOADS_PER_DAY', 50, 1, 1_000_000), s3 };
}

function s3Settings(env: NodeJS.ProcessEnv): S3Settings | null {
  if (!env.S3_BUCKET) return null;
  const url = (name: string) => {
    const raw = env[name];
    if (!raw) return null;
    try {
      return new URL(raw).toString().replace(/\/+$/, '');
    } catch {
      throw new Error(`${name} is not a URL, got "${raw}"`);
    }
  };
  const accessKeyId = env.S3_ACCESS_KEY_ID || null;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || null;
  if ((accessKeyId === null) !== (secretAccessKey === null)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither');
  }
  return {
    endpoint: url('S3_ENDPOINT'),
    bucket: env.S3_BUCKET,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId,
    secretAccessKey,
    publicUrl: url('S3_PUBLIC_URL'),
  };
}

function requireSecondFactor(raw: string | undefined): SecondFactorRequirement {
  if (raw === undefined || raw === '') return 'none';
  if ((SECOND_FACTOR_REQUIREMENTS as readonly string[]).includes(raw)) return raw as SecondFactorRequirement;
  throw new Error(`REQUIRE_2FA must be one of ${SECOND_FACTOR_REQUIREMENTS.join(', ')}, got "${raw}"`);
}

function registration(raw: string | undefined): Registration {
  if (raw === undefined || raw === '') return 'open';
  if ((REGISTRATIONS as readonly string[]).includes(raw)) return raw as Registration;
  throw new Error(`REGISTRATION must be one of ${REGISTRATIONS.join(', ')}, got "${raw}"`);
}

/** `smtp://user:password@host:587` or `smtps://…:465`; anything else is refused at start, without echoing it. */
function smtpUrl(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error('SMTP_URL is not a URL (smtp://user:password@host:587 or smtps://user:password@host:465)');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new Error('SMTP_URL must be smtp://… or smtps://… with a host (smtp://user:password@host:587)');
  }
  return raw.trim();
}

/** Where mail links to a topic: TOPIC_URL with `{id}` in it, else PUBLIC_URL/topics/{id}. */
function topicUrl(raw: string | undefined, publicUrl: string): string {
  if (raw === undefined || raw.trim() === '') return `${publicUrl.replace(/\/+$/, '')}/topics/{id}`;
  const pattern = raw.trim();
  if (!pattern.includes('{id}')) throw new Error('TOPIC_URL must contain {id} (e.g. https://forum.example/t/{id})');
  try {
    new URL(pattern.replace('{id}', '1'));
  } catch {
    throw new Error('TOPIC_URL is not a URL (e.g. https://forum.example/t/{id})');
  }
  return pattern;
}

/** REPLY_BY_EMAIL: an address with `%{key}` in its local part, e.g. `reply+%{key}@forum.example`. */
function replyAddress(raw: string | undefined): string | null {
  if (raw === undefined || raw.trim() === '') return null;
  const pattern = raw.trim();
  if (!/^[^@\s]*%\{key\}[^@\s]*@[^@\s]+\.[^@\s]+$/.test(pattern)) {
    throw new Error('REPLY_BY_EMAIL must be an address with %{key} in its local part (e.g. reply+%{key}@forum.example)');
  }
  return pattern;
}

function secretKey(env: NodeJS.ProcessEnv): string | null {
  const raw = env.SECRET_KEY;
  if (raw === undefined || raw === '') return null;
  if (raw.length < 32) throw new Error('SECRET_KEY must be at least 32 characters (e.g. `openssl rand -hex 32`)');
  return raw;
}

/** `*`, or a comma-separated list of origins (`https://app.example, http://localhost:8100`), each checked. */
function corsOrigins(raw: string | undefined): string[] | '*' {
  if (raw === undefined || raw.trim() === '') return [];
  if (raw.trim() === '*') return '*';
  return raw.split(',').map((origin) => {
    const trimmed = origin.trim();
    let parsed: URL;
    try {
      parsed = new URL(trimmed);
    } catch {
      throw new Error(`CORS_ORIGINS: "${trimmed}" is not an origin (like https://app.example)`);
    }
    if (parsed.origin !== trimmed.replace(/\/$/, '')) throw new Error(`CORS_ORIGINS: "${trimmed}" is not an origin (no path)`);
    return parsed.origin;
  });
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

import { DEFAULT_TOKEN_LIFETIME_SECONDS } from './application/tokens/access-tokens.js';

/** Everything the environment configures, read and checked once. */
export interface Config {
  port: number;
  host: string;
  /** Where clients reach the service; absolute URLs in responses (avatars) start with it. */
  publicUrl: string;
  /** Set: use this PostgreSQL. Unset: an embedded one under `dataDir`. */
  databaseUrl: string | null;
  dataDir: string;
  tokenLifetimeSeconds: number;
  logLevel: string;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integer(env, 'PORT', 3000, 0, 65_535);
  const host = env.HOST || '127.0.0.1';
  return {
    port,
    host,
    publicUrl: env.PUBLIC_URL || `http://${host}:${port}`,
    databaseUrl: env.DATABASE_URL || null,
    dataDir: env.FORUM_DATA_DIR || './.data',
    tokenLifetimeSeconds: integer(env, 'ACCESS_TOKEN_TTL', DEFAULT_TOKEN_LIFETIME_SECONDS, 1, 10 * 365 * 86_400),
    logLevel: env.LOG_LEVEL || 'info',
  };
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

import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Sql } from './sql.js';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { ClientApp, ClientStore } from '../../application/oauth/clients.js';
import type { CredentialThrottle } from '../../application/oauth/credential-throttle.js';
import { TooManyRequests } from '../../domain/shared/errors.js';
import { type Timestamp, toDate } from './timestamps.js';

interface ClientRow {
  id: number;
  name: string;
  uid: string;
  public: boolean;
  redirect_uris: string[];
  created_at: Timestamp;
}

const CLIENT_COLUMNS = 'id, name, uid, public, redirect_uris, created_at';

const clientApp = (row: ClientRow): ClientApp => ({
  id: row.id,
  name: row.name,
  clientId: row.uid,
  public: row.public,
  redirectUris: row.redirect_uris,
  createdAt: toDate(row.created_at),
});

export class SqlClientStore implements ClientStore {
  constructor(private readonly sql: Sql) {}

  async add(app: {
    name: string;
    clientId: string;
    secretDigest: string | null;
    public: boolean;
    redirectUris: string[];
    createdAt: Date;
  }): Promise<ClientApp> {
    const row = await this.sql.one<ClientRow>(
      `insert into oauth_clients (name, uid, secret_digest, public, redirect_uris, created_at) values ($1, $2, $3, $4, $5, $6)
       returning ${CLIENT_COLUMNS}`,
      [app.name, app.clientId, app.secretDigest, app.public, app.redirectUris, app.createdAt],
    );
    return clientApp(row!);
  }

  async list(): Promise<ClientApp[]> {
    const rows = await this.sql.all<ClientRow>(`select ${CLIENT_COLUMNS} from oauth_clients order by id`);
    return rows.map(clientApp);
  }

  async byClientId(clientId: string): Promise<ClientApp | null> {
    const row = await this.sql.one<ClientRow>(`select ${CLIENT_COLUMNS} from oauth_clients where uid = $1`, [clientId]);
    return row ? clientApp(row) : null;
  }

  async authenticate(clientId: string, secretDigest: string): Promise<ClientApp | null> {
    const row = await this.sql.one<ClientRow>(
      `select ${CLIENT_COLUMNS} from oauth_clients where uid = $1 and secret_digest = $2 and not public`,
      [clientId, secretDigest],
    );
    return row ? clientApp(row) : null;
  }
}

export interface ThrottleLimits {
  /** Failures allowed per credential (an account, a client) and client address within the window. */
  perAccount: number;
  /** Failures allowed per client address within the window, whatever credential they were for. */
  perAddress: number;
  windowSeconds: number;
}

/**
 * The table's keys are at most 255 characters of text: longer names, and names with a NUL (which text cannot
 * hold), hostile ones both, are stored by their digest.
 */
function storable(key: string): string {
  return key.length <= 200 && !key.includes('\u0000') ? key : createHash('sha256').update(key).digest('hex');
}

/**
 * rate-limiter-flexible over the `login_throttle` table (created by a migration, so `tableCreated`), on MikroORM's
 * own knex: every server process sees the same counts.
 */
export class PostgresCredentialThrottle implements CredentialThrottle {
  private readonly pairs: RateLimiterPostgres;
  private readonly addresses: RateLimiterPostgres;

  constructor(em: EntityManager, limits: ThrottleLimits) {
    const common = {
      storeClient: em.getKnex(),
      storeType: 'knex',
      tableName: 'login_throttle',
      tableCreated: true,
      clearExpiredByTimeout: false,
      duration: limits.windowSeconds,
    };
    this.pairs = new RateLimiterPostgres({ ...common, keyPrefix: 'pair', points: limits.perAccount });
    this.addresses = new RateLimiterPostgres({ ...common, keyPrefix: 'address', points: limits.perAddress });
  }

  async ensureAllowed(credential: string, address: string, limits = { address: true }): Promise<void> {
    const [byPair, byAddress] = await Promise.all([
      this.pairs.get(pairKey(credential, address)),
      limits.address ? this.addresses.get(storable(address)) : null,
    ]);
    const waits = [
      byPair && byPair.consumedPoints >= this.pairs.points ? byPair.msBeforeNext : 0,
      byAddress && byAddress.consumedPoints >= this.addresses.points ? byAddress.msBeforeNext : 0,
    ];
    const wait = Math.max(...waits);
    if (wait > 0) throw new TooManyRequests(Math.ceil(wait / 1000), 'Too many failed attempts, try again later');
  }

  async recordFailure(credential: string, address: string): Promise<void> {
    await Promise.all([this.pairs.penalty(pairKey(credential, address), 1), this.addresses.penalty(storable(address), 1)]);
  }

  async recordSuccess(credential: string, address: string): Promise<void> {
    await this.pairs.delete(pairKey(credential, address));
  }
}

function pairKey(credential: string, address: string): string {
  return storable(`${credential}|${address}`);
}

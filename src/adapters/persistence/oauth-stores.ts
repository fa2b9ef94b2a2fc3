import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { Sql } from './sql.js';
import { RateLimiterPostgres } from 'rate-limiter-flexible';
import type { ClientApp, ClientStore } from '../../application/oauth/clients.js';
import type { LoginThrottle } from '../../application/oauth/password-login.js';
import { TooManyRequests } from '../../domain/shared/errors.js';
import { type Timestamp, toDate } from './timestamps.js';

interface ClientRow {
  id: number;
  name: string;
  uid: string;
  redirect_uri: string | null;
  created_at: Timestamp;
}

const clientApp = (row: ClientRow): ClientApp => ({
  id: row.id,
  name: row.name,
  clientId: row.uid,
  redirectUri: row.redirect_uri,
  createdAt: toDate(row.created_at),
});

export class SqlClientStore implements ClientStore {
  constructor(private readonly sql: Sql) {}

  async add(app: {
    name: string;
    clientId: string;
    secretDigest: string;
    redirectUri: string | null;
    createdAt: Date;
  }): Promise<ClientApp> {
    const rows = await this.sql.all<ClientRow>(
      `insert into oauth_clients (name, uid, secret_digest, redirect_uri, created_at) values ($1, $2, $3, $4, $5)
       returning id, name, uid, redirect_uri, created_at`,
      [app.name, app.clientId, app.secretDigest, app.redirectUri, app.createdAt],
    );
    return clientApp(rows[0]!);
  }

  async list(): Promise<ClientApp[]> {
    const rows = await this.sql.all<ClientRow>('select id, name, uid, redirect_uri, created_at from oauth_clients order by id');
    return rows.map(clientApp);
  }

  async authenticate(clientId: string, secretDigest: string): Promise<ClientApp | null> {
    const rows = await this.sql.all<ClientRow>(
      'select id, name, uid, redirect_uri, created_at from oauth_clients where uid = $1 and secret_digest = $2',
      [clientId, secretDigest],
    );
    return rows[0] ? clientApp(rows[0]) : null;
  }
}

export interface ThrottleLimits {
  /** Failed logins allowed per account within the window. */
  perAccount: number;
  /** Failed logins allowed per client address within the window. */
  perAddress: number;
  windowSeconds: number;
}

/**
 * rate-limiter-flexible over the `login_throttle` table (created by a migration, so `tableCreated`), on MikroORM's
 * own knex: every server process sees the same counts.
 */
/** The table's keys are at most 255 characters: longer names (hostile ones) are stored by their digest. */
function storable(key: string): string {
  return key.length <= 200 ? key : createHash('sha256').update(key).digest('hex');
}

export class PostgresLoginThrottle implements LoginThrottle {
  private readonly accounts: RateLimiterPostgres;
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
    this.accounts = new RateLimiterPostgres({ ...common, keyPrefix: 'account', points: limits.perAccount });
    this.addresses = new RateLimiterPostgres({ ...common, keyPrefix: 'address', points: limits.perAddress });
  }

  async ensureAllowed(account: string, address: string): Promise<void> {
    const [byAccount, byAddress] = await Promise.all([
      this.accounts.get(storable(account)),
      this.addresses.get(storable(address)),
    ]);
    const waits = [
      byAccount && byAccount.consumedPoints >= this.accounts.points ? byAccount.msBeforeNext : 0,
      byAddress && byAddress.consumedPoints >= this.addresses.points ? byAddress.msBeforeNext : 0,
    ];
    const wait = Math.max(...waits);
    if (wait > 0) throw new TooManyRequests(Math.ceil(wait / 1000), 'Too many failed logins, try again later');
  }

  async recordFailure(account: string, address: string): Promise<void> {
    await Promise.all([this.accounts.penalty(storable(account), 1), this.addresses.penalty(storable(address), 1)]);
  }

  async recordSuccess(account: string): Promise<void> {
    await this.accounts.delete(storable(account));
  }
}

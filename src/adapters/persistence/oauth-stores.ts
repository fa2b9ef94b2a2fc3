import { Sql } from './sql.js';
import type { ClientApp, ClientStore } from '../../application/oauth/clients.js';
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

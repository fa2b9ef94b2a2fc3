import type { ProviderLink, ProviderLinkStore } from '../../../application/providers/links.js';
import type { ProviderKind, ProviderStore, SignInProvider } from '../../../application/providers/providers.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

/** The sign-in providers (contract §25), their client secret sealed; and the accounts' links to them. */

interface ProviderRow {
  id: number;
  kind: ProviderKind;
  name: string;
  display_name: string;
  issuer: string | null;
  client_id: string;
  client_secret_sealed: string;
  authorize_url: string | null;
  token_url: string | null;
  api_url: string | null;
  created_at: Timestamp;
}

const PROVIDER_COLUMNS =
  'id, kind, name, display_name, issuer, client_id, client_secret_sealed, authorize_url, token_url, api_url, created_at';

const provider = (row: ProviderRow): SignInProvider => ({
  id: row.id,
  kind: row.kind,
  name: row.name,
  displayName: row.display_name,
  issuer: row.issuer,
  clientId: row.client_id,
  authorizeUrl: row.authorize_url,
  tokenUrl: row.token_url,
  apiUrl: row.api_url,
  createdAt: toDate(row.created_at),
});

export class SqlProviderStore implements ProviderStore {
  constructor(private readonly sql: Sql) {}

  async add(input: Omit<SignInProvider, 'id'> & { clientSecretSealed: string }): Promise<SignInProvider> {
    const row = await this.sql.one<ProviderRow>(
      `insert into sign_in_providers (kind, name, display_name, issuer, client_id, client_secret_sealed, authorize_url,
         token_url, api_url, created_at)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning ${PROVIDER_COLUMNS}`,
      [
        input.kind,
        input.name,
        input.displayName,
        input.issuer,
        input.clientId,
        input.clientSecretSealed,
        input.authorizeUrl,
        input.tokenUrl,
        input.apiUrl,
        input.createdAt,
      ],
    );
    return provider(row!);
  }

  async list(): Promise<SignInProvider[]> {
    const rows = await this.sql.all<ProviderRow>(`select ${PROVIDER_COLUMNS} from sign_in_providers order by id`);
    return rows.map(provider);
  }

  async byName(name: string): Promise<(SignInProvider & { clientSecretSealed: string }) | null> {
    const row = await this.sql.one<ProviderRow>(`select ${PROVIDER_COLUMNS} from sign_in_providers where name = $1`, [name]);
    return row ? { ...provider(row), clientSecretSealed: row.client_secret_sealed } : null;
  }

  async remove(name: string): Promise<SignInProvider | null> {
    const row = await this.sql.one<ProviderRow>(`delete from sign_in_providers where name = $1 returning ${PROVIDER_COLUMNS}`, [
      name,
    ]);
    return row ? provider(row) : null;
  }
}

interface LinkRow {
  user_id: number;
  provider: string;
  subject: string;
  created_at: Timestamp;
}

const link = (row: LinkRow): ProviderLink => ({
  userId: row.user_id,
  provider: row.provider,
  subject: row.subject,
  createdAt: toDate(row.created_at),
});

export class SqlProviderLinkStore implements ProviderLinkStore {
  constructor(private readonly sql: Sql) {}

  async find(provider: string, subject: string): Promise<ProviderLink | null> {
    const row = await this.sql.one<LinkRow>(
      'select user_id, provider, subject, created_at from provider_links where provider = $1 and subject = $2',
      [provider, subject],
    );
    return row ? link(row) : null;
  }

  async listFor(userId: number): Promise<ProviderLink[]> {
    const rows = await this.sql.all<LinkRow>(
      'select user_id, provider, subject, created_at from provider_links where user_id = $1 order by provider',
      [userId],
    );
    return rows.map(link);
  }

  async add(input: ProviderLink): Promise<boolean> {
    // Either uniqueness taken (by a link made at the same moment, too): nothing is added, and the caller says so.
    const added = await this.sql.count(
      `insert into provider_links (user_id, provider, subject, created_at) values ($1, $2, $3, $4) on conflict do nothing`,
      [input.userId, input.provider, input.subject, input.createdAt],
    );
    return added > 0;
  }

  async remove(userId: number, provider: string): Promise<boolean> {
    return (await this.sql.count('delete from provider_links where user_id = $1 and provider = $2', [userId, provider])) > 0;
  }

  async removeAllFor(userId: number): Promise<void> {
    await this.sql.count('delete from provider_links where user_id = $1', [userId]);
  }
}

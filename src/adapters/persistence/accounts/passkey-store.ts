import type { NewCredential, PasskeyStore, StoredPasskey } from '../../../application/second-factors/ports.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

interface PasskeyRow {
  id: number;
  name: string;
  created_at: Timestamp;
  last_used_at: Timestamp | null;
  credential_id: string;
  public_key: string;
  sign_count: string;
  transports: string[];
}

const COLUMNS = 'id, name, created_at, last_used_at, credential_id, public_key, sign_count, transports';

const passkeyOf = (row: PasskeyRow): StoredPasskey => ({
  id: row.id,
  name: row.name,
  createdAt: toDate(row.created_at)!,
  lastUsedAt: toDate(row.last_used_at),
  credentialId: row.credential_id,
  publicKey: row.public_key,
  signCount: Number(row.sign_count),
  transports: row.transports,
});

/** Passkeys in `passkeys` (migration 20261129080000). */
export class SqlPasskeyStore implements PasskeyStore {
  constructor(private readonly sql: Sql) {}

  async listOf(userId: number): Promise<StoredPasskey[]> {
    const rows = await this.sql.all<PasskeyRow>(`select ${COLUMNS} from passkeys where user_id = $1 order by id`, [userId]);
    return rows.map(passkeyOf);
  }

  async find(userId: number, credentialId: string): Promise<StoredPasskey | null> {
    const row = await this.sql.one<PasskeyRow>(`select ${COLUMNS} from passkeys where user_id = $1 and credential_id = $2`, [
      userId,
      credentialId,
    ]);
    return row && passkeyOf(row);
  }

  async add(userId: number, name: string, credential: NewCredential, at: Date): Promise<boolean> {
    const added = await this.sql.count(
      `insert into passkeys (user_id, credential_id, public_key, sign_count, transports, name, created_at)
       values ($1, $2, $3, $4, $5, $6, $7) on conflict (credential_id) do nothing`,
      [userId, credential.credentialId, credential.publicKey, credential.signCount, credential.transports, name, at],
    );
    return added === 1;
  }

  async used(passkeyId: number, signCount: number, at: Date): Promise<boolean> {
    const changed = await this.sql.count(
      `update passkeys set sign_count = $2, last_used_at = $3
       where id = $1 and ($2 = 0 or sign_count < $2)`,
      [passkeyId, signCount, at],
    );
    return changed === 1;
  }

  async remove(userId: number, passkeyId: number): Promise<boolean> {
    return (await this.sql.count('delete from passkeys where user_id = $1 and id = $2', [userId, passkeyId])) === 1;
  }
}

import type { Invite, InviteStore } from '../../../application/accounts/invites.js';
import type { Sql } from '../database/sql.js';
import { type Timestamp, toDate } from '../database/timestamps.js';

interface Row {
  id: number;
  max_uses: number;
  uses: number;
  expires_at: Timestamp | null;
  revoked_at: Timestamp | null;
  created_by_id: number;
  created_at: Timestamp;
}

const COLUMNS = 'id, max_uses, uses, expires_at, revoked_at, created_by_id, created_at';

const invite = (row: Row): Invite => ({
  id: row.id,
  maxUses: row.max_uses,
  uses: row.uses,
  expiresAt: toDate(row.expires_at),
  revokedAt: toDate(row.revoked_at),
  createdById: row.created_by_id,
  createdAt: toDate(row.created_at),
});

/** Live: not revoked, not expired, a use left. */
const LIVE = 'revoked_at is null and (expires_at is null or expires_at > $2) and uses < max_uses';

export class SqlInviteStore implements InviteStore {
  constructor(private readonly sql: Sql) {}

  async add(input: { digest: string; maxUses: number; expiresAt: Date | null; createdById: number; createdAt: Date }) {
    const rows = await this.sql.all<{ id: number }>(
      `insert into invites (digest, max_uses, expires_at, created_by_id, created_at) values ($1, $2, $3, $4, $5) returning id`,
      [input.digest, input.maxUses, input.expiresAt, input.createdById, input.createdAt],
    );
    return rows[0]!.id;
  }

  async live(digest: string, now: Date): Promise<Invite | null> {
    const rows = await this.sql.all<Row>(`select ${COLUMNS} from invites where digest = $1 and ${LIVE}`, [digest, now]);
    return rows[0] ? invite(rows[0]) : null;
  }

  async use(id: number, now: Date): Promise<boolean> {
    const rows = await this.sql.all(`update invites set uses = uses + 1 where id = $1 and ${LIVE} returning id`, [id, now]);
    return rows.length > 0;
  }

  async list(): Promise<Invite[]> {
    const rows = await this.sql.all<Row>(`select ${COLUMNS} from invites order by id desc`);
    return rows.map(invite);
  }

  async revoke(id: number, now: Date): Promise<boolean> {
    const rows = await this.sql.all(
      'update invites set revoked_at = $2 where id = $1 and revoked_at is null and (expires_at is null or expires_at > $2) returning id',
      [id, now],
    );
    return rows.length > 0;
  }
}

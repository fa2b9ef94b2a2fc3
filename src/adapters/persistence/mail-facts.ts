import type { MailAccount, MailFacts, MailTokenRow } from '../../application/mail/deliver-mail.js';
import type { Sql } from './sql.js';
import { type Timestamp, toDate } from './timestamps.js';

interface TokenRow {
  id: string;
  user_id: number;
  purpose: MailTokenRow['purpose'];
  email: string | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
}

/** What a mail says, read when it is sent: the account and the link's row. */
export class SqlMailFacts implements MailFacts {
  constructor(private readonly sql: Sql) {}

  account(userId: number): Promise<MailAccount | null> {
    return this.sql.one<MailAccount>('select id, login, name, email, locale, state from users where id = $1', [userId]);
  }

  async token(id: string): Promise<MailTokenRow | null> {
    const row = await this.sql.one<TokenRow>(
      'select id, user_id, purpose, email, expires_at, used_at from account_tokens where id = $1',
      [id],
    );
    if (!row) return null;
    return {
      id: row.id,
      userId: row.user_id,
      purpose: row.purpose,
      email: row.email,
      expiresAt: toDate(row.expires_at)!,
      usedAt: toDate(row.used_at),
    };
  }
}

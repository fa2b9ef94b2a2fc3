import { z } from 'zod';
import type { UserRepository } from '../../domain/users/user-repository.js';
import type { MailPreferences } from '../../domain/users/user.js';
import type { Clock, MailList, MailTokenKeys, UnitOfWork } from '../ports.js';

/** An unsubscribe key as it may arrive (a link's query, a mailto address, a subject): anything else is no key. */
const UnsubscribeKey = z.string().min(1).max(80);

/** Who left which mail: to say so on the page. */
export interface Unsubscribed {
  userId: number;
  list: MailList;
}

/** What leaving each kind of mail turns off. */
const LEFT_BY_LIST = {
  notifications: { emailNotifications: 'none' },
  digest: { emailDigest: 'none' },
  messages: { emailMessages: 'never' },
} as const satisfies Record<MailList, Partial<MailPreferences>>;

/**
 * Leaving a kind of mail from the mail itself (contract §17, RFC 8058): the key in `List-Unsubscribe` names the
 * user and the kind, so no session is needed, and the link's page, its one-click POST and a mail to the
 * unsubscribe address all come here. Idempotent: a second use finds nothing left to turn off and says the same.
 * An unknown or forged key, or a gone account, is null.
 */
export class Unsubscribe {
  constructor(
    private readonly keys: MailTokenKeys,
    private readonly users: UserRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** What a key would unsubscribe from, without doing it (the link's page, before its button). */
  describe(rawKey: unknown): Unsubscribed | null {
    const key = UnsubscribeKey.safeParse(rawKey);
    return key.success ? this.keys.readUnsubscribeKey(key.data) : null;
  }

  async execute(rawKey: unknown): Promise<Unsubscribed | null> {
    const named = this.describe(rawKey);
    if (!named) return null;
    return this.uow.run(async () => {
      const user = await this.users.findById(named.userId);
      if (!user) return null;
      user.setPreferences(LEFT_BY_LIST[named.list], this.clock.now());
      return named;
    });
  }
}

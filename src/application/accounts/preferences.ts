import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import { EMAIL_DIGESTS, EMAIL_MESSAGES, EMAIL_NOTIFICATIONS, LOCALES, type MailPreferences } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { readAll } from '../inputs.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { UserReadModel } from '../read-models.js';

/**
 * One of `values`, or absent. A value given is one of them: the empty string is no choice (it would change nothing
 * and say it had), so it is refused like any other.
 */
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of ${values.join(', ')}` }).optional();

/** The parameters of a preferences change (contract §17): each optional; those given are set. */
export const PreferencesParams = z.object({
  email_notifications: choice(EMAIL_NOTIFICATIONS),
  email_digest: choice(EMAIL_DIGESTS),
  email_messages: choice(EMAIL_MESSAGES),
  locale: choice(LOCALES),
});

/**
 * The caller's mail preferences: which notifications are mailed, how often a digest comes, whether messages are
 * mailed, in which language.
 */
export class MailPreferencesOf {
  constructor(
    private readonly users: UserRepository,
    private readonly reads: UserReadModel,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async show(actor: Actor): Promise<MailPreferences> {
    const caller = requireUser(actor);
    const preferences = await this.reads.preferences(caller.id);
    if (!preferences) throw new NotFound('user');
    return preferences;
  }

  async change(actor: Actor, raw: unknown): Promise<MailPreferences> {
    const caller = requireUser(actor);
    const input = readAll(PreferencesParams, raw);
    return this.uow.run(async () => {
      const user = await this.users.findById(caller.id);
      if (!user) throw new NotFound('user');
      user.setPreferences(
        {
          emailNotifications: input.email_notifications,
          emailDigest: input.email_digest,
          emailMessages: input.email_messages,
          locale: input.locale,
        },
        this.clock.now(),
      );
      return user.preferences();
    });
  }
}

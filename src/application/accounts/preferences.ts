import { z } from 'zod';
import { NotFound } from '../../domain/shared/errors.js';
import { EMAIL_DIGESTS, EMAIL_NOTIFICATIONS, LOCALES, type MailPreferences } from '../../domain/users/user.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireUser } from '../actor.js';
import { maybe, readAll } from '../inputs.js';
import type { Clock, UnitOfWork } from '../ports.js';
import type { UserReadModel } from '../read-models.js';

/** The parameters of a preferences change (contract §17): each optional; those given are set. */
export const PreferencesParams = z.object({
  email_notifications: maybe(z.enum(EMAIL_NOTIFICATIONS, { error: `must be one of ${EMAIL_NOTIFICATIONS.join(', ')}` })),
  email_digest: maybe(z.enum(EMAIL_DIGESTS, { error: `must be one of ${EMAIL_DIGESTS.join(', ')}` })),
  locale: maybe(z.enum(LOCALES, { error: `must be one of ${LOCALES.join(', ')}` })),
});

/** The caller's mail preferences: which notifications are mailed, how often a digest comes, in which language. */
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
        { emailNotifications: input.email_notifications, emailDigest: input.email_digest, locale: input.locale },
        this.clock.now(),
      );
      return user.preferences();
    });
  }
}

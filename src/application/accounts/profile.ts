import { z } from 'zod';
import { RuleViolated } from '../../domain/shared/errors.js';
import { type CommonPasswords, checkNewPassword } from '../../domain/users/password.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireUser } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { Text, maybe, readAll } from '../inputs.js';
import type { Clock, PasswordHasher, SecretGenerator, UnitOfWork } from '../ports.js';
import type { SignOutEverywhere } from '../tokens/access-tokens.js';
import type { MailLinks } from './mail-links.js';
import type { CurrentPassword } from './current-password.js';
import { checkedEmail } from '../../domain/users/user.js';

/** `true`/`false`, as JSON or as form text. */
const Flag = z.preprocess(
  (value) => (value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value),
  z.boolean({ error: 'must be true or false' }),
);

/** A profile field: text, blank clears it (null too). */
const Field = z.preprocess((value) => (value === null ? '' : value), Text);

/** The parameters of a profile edit (contract §16c): each optional; those given are set. */
export const UpdateProfileParams = z.object({
  name: z.optional(Field).meta({ description: 'at most 50 characters; blank clears it' }),
  location: z.optional(Field).meta({ description: 'at most 100 characters' }),
  company: z.optional(Field).meta({ description: 'at most 100 characters' }),
  twitter: z.optional(Field).meta({ description: 'at most 100 characters' }),
  github: z.optional(Field).meta({ description: 'at most 100 characters' }),
  tagline: z.optional(Field).meta({ description: 'at most 100 characters' }),
  website: z.optional(Field).meta({ description: 'an http(s) URL, at most 255 characters' }),
  bio: z.optional(Field).meta({ description: 'at most 2,000 characters' }),
  email_public: maybe(Flag).meta({ description: 'show the e-mail address to everyone' }),
});

/** The caller edits their own profile. Returns their id (the route shows the profile it now has). */
export class UpdateProfile {
  constructor(
    private readonly users: UserRepository,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, raw: unknown): Promise<number> {
    const caller = requireUser(actor);
    const { email_public: emailPublic, ...fields } = readAll(UpdateProfileParams, raw);
    await this.uow.run(async () => {
      const user = await this.users.findById(caller.id);
      if (!user) throw new RuleViolated('Validation failed: the account is gone');
      user.editProfile({ ...fields, ...(emailPublic === undefined ? {} : { emailPublic }) }, this.clock.now());
    });
    return caller.id;
  }
}

export const ChangePasswordParams = z.object({
  current_password: Text.meta({ description: 'the password now' }),
  password: Text.meta({ description: 'the new one: 8 to 128 characters; not a common password, nor the login or e-mail' }),
});

/**
 * The caller changes their password, giving the current one (contract §16c): every other token and every browser
 * session of theirs ends (the token that made the change stays); a notice goes to their address.
 */
export class ChangePassword {
  constructor(
    private readonly users: UserRepository,
    private readonly current: CurrentPassword,
    private readonly hasher: PasswordHasher,
    private readonly common: CommonPasswords,
    private readonly signOut: SignOutEverywhere,
    private readonly secrets: SecretGenerator,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** `keepToken`: the bearer token of the request, which keeps working; `address`: the client's, for the throttle. */
  async execute(actor: Actor, raw: unknown, context: { keepToken: string | null; address: string }): Promise<void> {
    const caller = requireUser(actor);
    const input = readAll(ChangePasswordParams, raw);
    const user = await this.users.findById(caller.id);
    if (!user) throw new RuleViolated('Validation failed: the account is gone');
    if (!(await this.current.matches(user, input.current_password, context.address))) {
      throw new RuleViolated('Validation failed: Current password is not correct');
    }
    checkNewPassword(input.password, user, this.common);
    const passwordHash = await this.hasher.hash(input.password);
    const now = this.clock.now();
    await this.uow.run(async () => {
      const fresh = await this.users.findById(caller.id);
      if (!fresh) throw new RuleViolated('Validation failed: the account is gone');
      fresh.setPasswordHash(passwordHash, now);
      const kept = context.keepToken ? this.secrets.digest(context.keepToken) : undefined;
      await this.signOut.execute(caller.id, kept);
      await this.events.record({ type: 'account.password_changed', userId: caller.id });
    });
  }
}

export const ChangeEmailParams = z.object({
  email: Text.meta({ description: 'the new address', example: 'alice@example.org' }),
  current_password: Text.meta({ description: 'the password now' }),
});

/**
 * The caller asks to use another address (contract §16b, settings): nothing changes until a link mailed to the new
 * address is followed (ConfirmAddress), and then the previous address gets a notice. An address another account
 * has is answered as any other (the mail to it would not be sent): nothing tells whether it is registered.
 */
export class RequestEmailChange {
  constructor(
    private readonly users: UserRepository,
    private readonly current: CurrentPassword,
    private readonly links: MailLinks,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, raw: unknown, context: { address: string }): Promise<void> {
    const caller = requireUser(actor);
    const input = readAll(ChangeEmailParams, raw);
    const user = await this.users.findById(caller.id);
    if (!user) throw new RuleViolated('Validation failed: the account is gone');
    if (!(await this.current.matches(user, input.current_password, context.address))) {
      throw new RuleViolated('Validation failed: Current password is not correct');
    }
    const email = checkedEmail(input.email);
    const now = this.clock.now();
    await this.uow.run(async () => {
      if ((await this.users.isTaken(user.login, email)).email) return;
      await this.links.send(user.id, 'email_change', now, email);
    });
  }
}

import { z } from 'zod';
import { Forbidden, RuleViolated } from '../../domain/shared/errors.js';
import { type CommonPasswords, checkNewPassword } from '../../domain/users/password.js';
import { type Locale, User } from '../../domain/users/user.js';
import { EmailTaken, LoginTaken, type UserRepository } from '../../domain/users/user-repository.js';
import type { DomainEvents } from '../events.js';
import { Text, maybe, readAll } from '../inputs.js';
import type { Clock, PasswordHasher, UnitOfWork } from '../ports.js';
import type { UserDetailView } from '../read-models.js';
import type { AccountThrottle } from './account-throttle.js';
import type { Invites } from './invites.js';
import type { MailLinks } from './mail-links.js';

/** Who may join (REGISTRATION, contract §16b). */
export type Registration = 'open' | 'approval' | 'invite' | 'closed';

/** The parameters of a sign-up, as they are read (and documented). */
export const SignUpParams = z.object({
  login: Text.meta({ description: '2 to 20 letters, digits, "_", "." or "-"', example: 'alice' }),
  email: Text.meta({ example: 'alice@example.com' }),
  password: Text.meta({ description: '8 to 128 characters; not a common password, nor the login or e-mail' }),
  name: maybe(Text).meta({ description: 'at most 50 characters' }),
  invite: maybe(Text).meta({ description: 'the invite code (REGISTRATION=invite)' }),
});

/** A sign-up's answer: the new account as the API shows it, unverified. */
export interface SignedUp {
  user: UserDetailView;
}

/**
 * Joining (contract §16b): the account exists unverified and a verification mail goes out. An address that is
 * already registered gets the same answer, as fast, with an id drawn as a new account's would be, and its owner a
 * mail saying someone tried: no answer tells whether an address is known. A login is public: a taken one is 400.
 */
export class SignUp {
  constructor(
    private readonly users: UserRepository,
    private readonly invites: Invites,
    private readonly links: MailLinks,
    private readonly hasher: PasswordHasher,
    private readonly common: CommonPasswords,
    private readonly throttle: AccountThrottle,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly registration: Registration,
  ) {}

  async execute(raw: unknown, context: { address: string; locale: Locale }): Promise<SignedUp> {
    if (this.registration === 'closed') throw new Forbidden();
    const input = readAll(SignUpParams, raw);
    await this.throttle.attempt('sign_up', context.address, input.email);
    const now = this.clock.now();
    // The record's rules before any work: the same checks the account itself makes.
    const draft = User.register(
      { login: input.login, email: input.email, name: input.name ?? null, passwordHash: null, role: 'member' },
      now,
    );
    if ((draft.name ?? '').length > 50) throw new RuleViolated('Validation failed: Name is too long (maximum is 50 characters)');
    checkNewPassword(input.password, draft, this.common);
    const invite = this.registration === 'invite' ? await this.invites.find(input.invite ?? '', now) : null;
    if (this.registration === 'invite' && !invite) throw new Forbidden();
    // Hashed whether or not the address is known: the answer takes as long either way.
    const passwordHash = await this.hasher.hash(input.password);
    const user = User.register(
      {
        login: draft.login,
        email: draft.email,
        name: draft.name,
        passwordHash,
        role: 'member',
        state: 'unverified',
        locale: context.locale,
        // Its first posts pass contract §18's rules for new accounts.
        selfRegistered: true,
      },
      now,
    );
    try {
      return await this.uow.run(async () => {
        const taken = await this.users.isTaken(user.login, user.email);
        if (taken.login) throw new LoginTaken();
        if (taken.email) {
          const owner = await this.users.findByLoginOrEmail(user.email);
          if (owner) await this.events.record({ type: 'account.sign_up_repeated', userId: owner.id });
          return { user: newAccountView(await this.users.reserveId(), user) };
        }
        if (invite && !(await this.invites.use(invite, now))) throw new Forbidden();
        await this.users.add(user);
        await this.links.send(user.id, 'verify', now);
        await this.events.record({ type: 'user.created', userId: user.id });
        return { user: newAccountView(user.id, user) };
      });
    } catch (error) {
      if (error instanceof LoginTaken) throw new RuleViolated('Validation failed: Login has already been taken');
      // Taken by a sign-up at the same moment: answered as any known address is (that sign-up's mail is on its way).
      if (error instanceof EmailTaken) return { user: newAccountView(await this.users.reserveId(), user) };
      throw error;
    }
  }
}

/** A new account as its profile shows it: nothing written yet. */
function newAccountView(id: number, user: User): UserDetailView {
  return {
    id,
    login: user.login,
    name: user.name,
    email: user.email,
    emailPublic: false,
    role: 'member',
    createdAt: user.createdAt,
    topicsCount: 0,
    repliesCount: 0,
    followersCount: 0,
    followingCount: 0,
    favoritesCount: 0,
    location: null,
    company: null,
    twitter: null,
    github: null,
    website: null,
    tagline: null,
    bio: null,
    groups: [],
    silencedUntil: null,
    suspendedUntil: null,
  };
}

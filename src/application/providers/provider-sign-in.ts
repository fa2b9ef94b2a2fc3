import { Forbidden, RuleViolated } from '../../domain/shared/errors.js';
import { couldBeLogin, isReservedLogin, type Locale, User } from '../../domain/users/user.js';
import { EmailTaken, LoginTaken, type UserRepository } from '../../domain/users/user-repository.js';
import type { ActingUser } from '../actor.js';
import type { Invites } from '../accounts/invites.js';
import type { Registration } from '../accounts/sign-up.js';
import type { DomainEvents } from '../events.js';
import { AccountNotActive } from '../oauth/password-login.js';
import type { Clock, SecretBox, UnitOfWork } from '../ports.js';
import type { ProviderLinkStore } from './links.js';
import { type ProviderStore, type UsableProvider, usableProvider } from './providers.js';

/**
 * Signing in with another provider (contract §25). The protocol (OpenID Connect's authorization code flow with
 * PKCE, state and nonce; GitHub's OAuth 2 web flow) is a port; what the answer means is decided here:
 * - a link to the provider's subject: that account signs in;
 * - else, an address the provider says is verified, of an account whose address is confirmed and which has no link
 *   to this provider yet: linked, and it signs in;
 * - else a new account under REGISTRATION's rules, asking for a login when the provider's is taken or unusable.
 * An address the provider does not vouch for links to nothing and makes no account: the person is told to sign up
 * with a password, or to confirm the address at the provider (nobody learns whether an address is registered).
 */

/** Who the provider says the person is. */
export interface ProviderIdentity {
  /** Stable at the provider: an OpenID Connect `sub`, a GitHub user id. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  /** The login the provider knows the person by (`preferred_username`, GitHub's `login`), if any. */
  login: string | null;
  name: string | null;
}

/** What the callback must match: kept by the browser between the redirect and the callback, used once. */
export interface FlowChecks {
  state: string;
  nonce: string | null;
  codeVerifier: string;
}

export interface ProviderProtocol {
  /** Where to send the browser, and what its callback is checked against. */
  begin(provider: UsableProvider, redirectUri: string): Promise<{ url: string; checks: FlowChecks }>;
  /**
   * The identity of the callback `callback` (the URL the browser came back to), once every check passed: state, the
   * code exchanged with the verifier, the ID token's signature, issuer, audience and nonce. Throws
   * ProviderAnswerRejected when one does not; Unavailable when the provider cannot be reached.
   */
  finish(provider: UsableProvider, redirectUri: string, callback: URL, checks: FlowChecks): Promise<ProviderIdentity>;
}
export const ProviderProtocol = Symbol.for('ProviderProtocol');

/** The provider's answer did not check out (or the person declined there): nothing is signed in. */
export class ProviderAnswerRejected extends Error {}

/** How long the login form of a new account waits for an answer. */
const PENDING_SECONDS = 15 * 60;

/** A new account the provider vouched for, waiting for its login: sealed (SecretBox), so that nobody forges one. */
interface PendingAccount {
  provider: string;
  subject: string;
  email: string;
  name: string | null;
  until: number;
}

export type ProviderOutcome =
  | { type: 'signed-in'; userId: number }
  | { type: 'linked'; provider: string }
  /** A login is asked for: `pending` is what the form carries back (sealed), `suggested` what to offer. */
  | { type: 'choose-login'; pending: string; suggested: string }
  /** A new account that waits for an administrator (REGISTRATION=approval). */
  | { type: 'created-pending'; login: string };

export interface ProviderContext {
  locale: Locale;
  /** The invite code the sign-up page carried (REGISTRATION=invite). */
  invite: string | null;
}

/** Starts a sign-in (or a link) with provider `name`: the URL to send the browser to, and the checks to keep. */
export class BeginProviderSignIn {
  constructor(
    private readonly providers: ProviderStore,
    private readonly box: SecretBox,
    private readonly protocol: ProviderProtocol,
  ) {}

  async execute(name: string, redirectUri: string): Promise<{ url: string; checks: FlowChecks }> {
    return this.protocol.begin(await usableProvider(this.providers, this.box, name), redirectUri);
  }
}

/** What every way of making an account from a provider shares. */
class ProviderAccounts {
  constructor(
    readonly users: UserRepository,
    readonly links: ProviderLinkStore,
    readonly invites: Invites,
    readonly box: SecretBox,
    readonly events: DomainEvents,
    readonly uow: UnitOfWork,
    readonly clock: Clock,
    readonly registration: Registration,
  ) {}

  /** The account of `userId` signs in, unless it may not (not confirmed, waiting, suspended, left): said as the password sign-in says it. */
  async signIn(userId: number): Promise<ProviderOutcome> {
    const account = await this.users.findById(userId);
    const refusal = account ? account.signInRefusal(this.clock.now()) : { reason: 'left' as const };
    if (refusal) throw new AccountNotActive(refusal);
    return { type: 'signed-in', userId };
  }

  /** REGISTRATION's rules, before anything is asked: closed, or an invite that is not valid, refuse (403). */
  async checkMayJoin(context: ProviderContext): Promise<void> {
    if (this.registration === 'closed') throw new Forbidden();
    if (this.registration === 'invite' && !(await this.invites.find(context.invite ?? '', this.clock.now()))) {
      throw new Forbidden();
    }
  }

  seal(pending: Omit<PendingAccount, 'until'>): string {
    const until = Math.floor(this.clock.now().getTime() / 1000) + PENDING_SECONDS;
    return this.box.seal(JSON.stringify({ ...pending, until }));
  }

  /** The pending account a form carried back; a value that is not ours, or too old, refuses the form. */
  open(sealed: string): PendingAccount {
    let pending: PendingAccount;
    try {
      pending = JSON.parse(this.box.open(sealed)) as PendingAccount;
    } catch {
      throw new RuleViolated('This form is too old: sign in with the provider again');
    }
    if (pending.until * 1000 < this.clock.now().getTime()) {
      throw new RuleViolated('This form is too old: sign in with the provider again');
    }
    return pending;
  }

  /** Makes the account and its link; LoginTaken when the login is someone's. */
  async create(pending: Omit<PendingAccount, 'until'>, login: string, context: ProviderContext): Promise<ProviderOutcome> {
    await this.checkMayJoin(context);
    const now = this.clock.now();
    const user = User.register(
      {
        login,
        email: pending.email,
        name: pending.name?.slice(0, 50) ?? null,
        passwordHash: null,
        role: 'member',
        // The provider vouched for the address: nothing to confirm; an administrator may still have to approve.
        state: this.registration === 'approval' ? 'pending' : 'active',
        locale: context.locale,
        selfRegistered: true,
      },
      now,
    );
    const created = await this.uow.run(async () => {
      const taken = await this.users.isTaken(user.login, user.email);
      if (taken.login) throw new LoginTaken();
      if (taken.email) throw new EmailTaken();
      if (this.registration === 'invite') {
        const invite = await this.invites.find(context.invite ?? '', now);
        if (!invite || !(await this.invites.use(invite, now))) throw new Forbidden();
      }
      await this.users.add(user);
      if (!(await this.links.add({ userId: user.id, provider: pending.provider, subject: pending.subject, createdAt: now }))) {
        throw new RuleViolated('Validation failed: this identity is linked to another account already');
      }
      await this.events.record({ type: 'user.created', userId: user.id });
      return user;
    });
    return created.state === 'active'
      ? { type: 'signed-in', userId: created.id }
      : { type: 'created-pending', login: created.login };
  }
}

const UNVERIFIED_EMAIL =
  'The provider does not say your e-mail address is verified: confirm it there, or sign up here with a password';
const LINKED_ELSEWHERE = 'This identity is linked to another account';

/** The login the provider suggests, if it could be one here. */
function suggestedLogin(identity: ProviderIdentity): string | null {
  const candidates = [identity.login, identity.email?.split('@')[0] ?? null];
  return candidates.find((login): login is string => login !== null && couldBeLogin(login) && !isReservedLogin(login)) ?? null;
}

/** The provider's callback: sign in, link, or make an account (or ask for its login). */
export class FinishProviderSignIn {
  private readonly accounts: ProviderAccounts;

  constructor(
    private readonly providers: ProviderStore,
    private readonly protocol: ProviderProtocol,
    users: UserRepository,
    private readonly links: ProviderLinkStore,
    invites: Invites,
    box: SecretBox,
    events: DomainEvents,
    uow: UnitOfWork,
    clock: Clock,
    registration: Registration,
  ) {
    this.accounts = new ProviderAccounts(users, links, invites, box, events, uow, clock, registration);
  }

  /**
   * `linkTo`: the signed-in person adding a link from the settings page (their account gets it, whatever the
   * address); null: signing in.
   */
  async execute(input: {
    provider: string;
    redirectUri: string;
    callback: URL;
    checks: FlowChecks;
    linkTo: ActingUser | null;
    context: ProviderContext;
  }): Promise<ProviderOutcome> {
    const provider = await usableProvider(this.providers, this.accounts.box, input.provider);
    const identity = await this.protocol.finish(provider, input.redirectUri, input.callback, input.checks);
    const existing = await this.links.find(provider.name, identity.subject);
    if (input.linkTo) return this.link(provider.name, identity, existing?.userId ?? null, input.linkTo);
    if (existing) return this.accounts.signIn(existing.userId);
    if (identity.email === null || !identity.emailVerified) throw new RuleViolated(UNVERIFIED_EMAIL);
    const owner = await this.accounts.users.findByLoginOrEmail(identity.email);
    if (owner && owner.email.toLowerCase() === identity.email.toLowerCase()) {
      return this.linkByEmail(provider.name, identity, owner);
    }
    await this.accounts.checkMayJoin(input.context);
    const pending = { provider: provider.name, subject: identity.subject, email: identity.email, name: identity.name };
    const suggested = suggestedLogin(identity);
    if (suggested !== null) {
      try {
        return await this.accounts.create(pending, suggested, input.context);
      } catch (error) {
        if (!(error instanceof LoginTaken)) throw error;
      }
    }
    return { type: 'choose-login', pending: this.accounts.seal(pending), suggested: suggested ?? '' };
  }

  private async link(
    provider: string,
    identity: ProviderIdentity,
    linkedTo: number | null,
    user: ActingUser,
  ): Promise<ProviderOutcome> {
    if (linkedTo === user.id) return { type: 'linked', provider };
    if (linkedTo !== null) throw new RuleViolated(LINKED_ELSEWHERE);
    const added = await this.accounts.uow.run(() =>
      this.links.add({ userId: user.id, provider, subject: identity.subject, createdAt: this.accounts.clock.now() }),
    );
    if (!added) throw new RuleViolated('Your account is linked to this provider already: remove that link first');
    return { type: 'linked', provider };
  }

  /** The verified address of an account: linked, if its address is confirmed and it has no link to this provider. */
  private async linkByEmail(provider: string, identity: ProviderIdentity, owner: User): Promise<ProviderOutcome> {
    // An address nobody confirmed here may be anyone's sign-up: the provider's word does not hand that account over.
    if (owner.state === 'unverified') {
      throw new RuleViolated(
        'An account with this address waits for its address to be confirmed: follow the link in its mail, then link the provider in its settings',
      );
    }
    if (owner.state === 'left') throw new RuleViolated(LINKED_ELSEWHERE);
    const added = await this.accounts.uow.run(async () => {
      const links = await this.links.listFor(owner.id);
      if (links.some((link) => link.provider === provider)) return false;
      return this.links.add({ userId: owner.id, provider, subject: identity.subject, createdAt: this.accounts.clock.now() });
    });
    if (!added) throw new RuleViolated('The account of this address is linked to another identity of this provider');
    return this.accounts.signIn(owner.id);
  }
}

/** The login form of a new account (the provider's login was taken or unusable): makes it with the login chosen. */
export class ChooseProviderLogin {
  private readonly accounts: ProviderAccounts;

  constructor(
    users: UserRepository,
    links: ProviderLinkStore,
    invites: Invites,
    box: SecretBox,
    events: DomainEvents,
    uow: UnitOfWork,
    clock: Clock,
    registration: Registration,
  ) {
    this.accounts = new ProviderAccounts(users, links, invites, box, events, uow, clock, registration);
  }

  async execute(input: { pending: string; login: string; context: ProviderContext }): Promise<ProviderOutcome> {
    const { until: _until, ...pending } = this.accounts.open(input.pending);
    try {
      return await this.accounts.create(pending, input.login.trim(), input.context);
    } catch (error) {
      if (error instanceof LoginTaken) throw new RuleViolated('Validation failed: Login has already been taken');
      if (error instanceof EmailTaken) throw new RuleViolated(LINKED_ELSEWHERE);
      throw error;
    }
  }
}

import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type Actor, requireUser } from '../actor.js';
import type { UnitOfWork } from '../ports.js';
import type { ProviderStore } from './providers.js';

/**
 * An account's links to providers (contract §25): this account is the person whom `provider` knows as `subject`
 * (an OpenID Connect `sub`, a GitHub user id). One link per provider and subject, one per account and provider.
 */
export interface ProviderLink {
  userId: number;
  /** The provider's short name (a link may name one not configured (yet): imported from homeland). */
  provider: string;
  subject: string;
  createdAt: Date;
}

export interface ProviderLinkStore {
  find(provider: string, subject: string): Promise<ProviderLink | null>;
  listFor(userId: number): Promise<ProviderLink[]>;
  /** False when either uniqueness (provider and subject, account and provider) is taken. */
  add(link: ProviderLink): Promise<boolean>;
  remove(userId: number, provider: string): Promise<boolean>;
  removeAllFor(userId: number): Promise<void>;
}
export const ProviderLinkStore = Symbol.for('ProviderLinkStore');

/** A link as the settings page lists it: with the provider's display name when it is configured. */
export interface LinkView {
  provider: string;
  displayName: string;
  createdAt: Date;
}

/** What the settings page shows: the account's links, the providers it could link yet, and whether it has a password. */
export interface AccountLinks {
  links: LinkView[];
  linkable: { name: string; displayName: string }[];
  hasPassword: boolean;
}

export class ListProviderLinks {
  constructor(
    private readonly links: ProviderLinkStore,
    private readonly providers: ProviderStore,
    private readonly users: UserRepository,
  ) {}

  async execute(actor: Actor): Promise<AccountLinks> {
    const user = requireUser(actor);
    const [links, providers, account] = await Promise.all([
      this.links.listFor(user.id),
      this.providers.list(),
      this.users.findById(user.id),
    ]);
    const named = new Map(providers.map((provider) => [provider.name, provider.displayName]));
    const linked = new Set(links.map((link) => link.provider));
    return {
      links: links.map((link) => ({
        provider: link.provider,
        displayName: named.get(link.provider) ?? link.provider,
        createdAt: link.createdAt,
      })),
      linkable: providers
        .filter((provider) => !linked.has(provider.name))
        .map((provider) => ({ name: provider.name, displayName: provider.displayName })),
      hasPassword: account?.hasPassword() ?? false,
    };
  }
}

/**
 * Removes one of the caller's links, never the last way in: an account without a password keeps its only link
 * (contract §25).
 */
export class UnlinkProvider {
  constructor(
    private readonly links: ProviderLinkStore,
    private readonly users: UserRepository,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, provider: string): Promise<void> {
    const user = requireUser(actor);
    await this.uow.run(async () => {
      const [links, account] = await Promise.all([this.links.listFor(user.id), this.users.findById(user.id)]);
      if (!links.some((link) => link.provider === provider)) throw new NotFound(`link to ${provider}`);
      if (!account?.hasPassword() && links.length === 1) {
        throw new RuleViolated(
          'Validation failed: this link is your only way to sign in: set a password (forgot password) or link another provider first',
        );
      }
      await this.links.remove(user.id, provider);
    });
  }
}

import { z } from 'zod';
import { moderationActed } from '../../domain/events.js';
import { NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import { readAll } from '../inputs.js';
import type { Clock, SecretBox, UnitOfWork } from '../ports.js';

/**
 * The providers a person may sign in with (contract §25): any OpenID Connect provider, by its issuer URL, and GitHub,
 * whose OAuth 2 endpoints are settings (github.com's by default) so that a test, or GitHub Enterprise, points them
 * elsewhere. An administrator adds and removes them (forumctl auth providers); the client secret is sealed under
 * the server's key (SecretBox) and shown nowhere.
 */

export const PROVIDER_KINDS = ['oidc', 'github'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** github.com's endpoints: what a `github` provider uses unless told otherwise. */
export const GITHUB_ENDPOINTS = {
  authorizeUrl: 'https://github.com/login/oauth/authorize',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  apiUrl: 'https://api.github.com',
} as const;

/** A provider as everyone may see it: no secret. */
export interface SignInProvider {
  id: number;
  kind: ProviderKind;
  /** Short, in URLs (`/account/auth/<name>`) and in links: `github`, `keycloak`. */
  name: string;
  displayName: string;
  /** OIDC: the issuer, whose discovery document says the rest. */
  issuer: string | null;
  clientId: string;
  /** GitHub: its endpoints. */
  authorizeUrl: string | null;
  tokenUrl: string | null;
  apiUrl: string | null;
  createdAt: Date;
}

/** A provider with its client secret opened: what the protocol needs, and nothing else holds. */
export interface UsableProvider extends SignInProvider {
  clientSecret: string;
}

export interface ProviderStore {
  add(provider: Omit<SignInProvider, 'id'> & { clientSecretSealed: string }): Promise<SignInProvider>;
  list(): Promise<SignInProvider[]>;
  /** The provider of this name, with its sealed secret; null when none. */
  byName(name: string): Promise<(SignInProvider & { clientSecretSealed: string }) | null>;
  remove(name: string): Promise<SignInProvider | null>;
}
export const ProviderStore = Symbol.for('ProviderStore');

/** A provider's short name: in URLs and in links (a link imported from homeland names its provider by it too). */
export const PROVIDER_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,29}$/;

const HttpUrl = z
  .string()
  .trim()
  .max(2000)
  .refine((value) => /^https?:\/\/[^\s]+$/.test(value) && URL.canParse(value), { error: 'must be an http(s) URL' });

export const AddProviderParams = z.object({
  kind: z.enum(PROVIDER_KINDS),
  name: z.string().trim().regex(PROVIDER_NAME_PATTERN, { error: 'must be 1 to 30 lower-case letters, digits, "_" or "-"' }),
  displayName: z.string().trim().min(1).max(60).optional(),
  issuer: HttpUrl.optional(),
  clientId: z.string().trim().min(1).max(500),
  clientSecret: z.string().min(1).max(2000),
  authorizeUrl: HttpUrl.optional(),
  tokenUrl: HttpUrl.optional(),
  apiUrl: HttpUrl.optional(),
});

/** Configures a provider; audited (its name, kind, issuer or endpoints and client id; never its secret). */
export class AddProvider {
  constructor(
    private readonly providers: ProviderStore,
    private readonly box: SecretBox,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, raw: unknown, reason: string | null = null): Promise<SignInProvider> {
    const admin = requireAdmin(actor);
    const input = readAll(AddProviderParams, raw);
    if (input.kind === 'oidc' && input.issuer === undefined) {
      throw new RuleViolated('Validation failed: an OpenID Connect provider needs its issuer URL');
    }
    if (input.kind === 'github' && input.issuer !== undefined) {
      throw new RuleViolated('Validation failed: GitHub has no issuer: give its endpoints, if not github.com’s');
    }
    const github = input.kind === 'github';
    return this.uow.run(async () => {
      if (await this.providers.byName(input.name)) {
        throw new RuleViolated(`Validation failed: a provider named ${input.name} exists already`);
      }
      const provider = await this.providers.add({
        kind: input.kind,
        name: input.name,
        displayName: input.displayName ?? (github ? 'GitHub' : input.name),
        issuer: input.issuer ?? null,
        clientId: input.clientId,
        clientSecretSealed: this.box.seal(input.clientSecret),
        authorizeUrl: github ? (input.authorizeUrl ?? GITHUB_ENDPOINTS.authorizeUrl) : null,
        tokenUrl: github ? (input.tokenUrl ?? GITHUB_ENDPOINTS.tokenUrl) : null,
        apiUrl: github ? (input.apiUrl ?? GITHUB_ENDPOINTS.apiUrl) : null,
        createdAt: this.clock.now(),
      });
      const changes = {
        name: [null, provider.name],
        kind: [null, provider.kind],
        client_id: [null, provider.clientId],
        ...(provider.issuer ? { issuer: [null, provider.issuer] } : {}),
      } satisfies Record<string, [null, string]>;
      await this.events.record(moderationActed('provider.add', admin.id, { type: 'Provider', id: provider.id }, changes, reason));
      return provider;
    });
  }
}

/** The providers configured, for the pages' buttons and forumctl's list: no secret in them. */
export class ListProviders {
  constructor(private readonly providers: ProviderStore) {}

  execute(): Promise<SignInProvider[]> {
    return this.providers.list();
  }
}

/** Removes a provider; its links stay (configured again, they work again). Audited. */
export class RemoveProvider {
  constructor(
    private readonly providers: ProviderStore,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, name: string, reason: string | null = null): Promise<SignInProvider> {
    const admin = requireAdmin(actor);
    return this.uow.run(async () => {
      const removed = await this.providers.remove(name);
      if (!removed) throw new NotFound(`provider ${name}`);
      const changes = { name: [removed.name, null] as [string, null] };
      await this.events.record(
        moderationActed('provider.remove', admin.id, { type: 'Provider', id: removed.id }, changes, reason),
      );
      return removed;
    });
  }
}

/** The provider of this name ready to use (its secret opened), or NotFound. */
export async function usableProvider(providers: ProviderStore, box: SecretBox, name: string): Promise<UsableProvider> {
  const found = await providers.byName(name);
  if (!found) throw new NotFound(`provider ${name}`);
  const { clientSecretSealed, ...provider } = found;
  return { ...provider, clientSecret: box.open(clientSecretSealed) };
}

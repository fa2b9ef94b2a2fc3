import { RuleViolated } from '../../domain/shared/errors.js';
import { moderationActed } from '../../domain/events.js';
import { type Actor, requireAdmin } from '../actor.js';
import type { DomainEvents } from '../events.js';
import type { Clock, SecretGenerator, UnitOfWork } from '../ports.js';
import type { CredentialThrottle } from './credential-throttle.js';

/** A registered client application. Its secret (confidential clients only) is stored only as a digest. */
export interface ClientApp {
  id: number;
  name: string;
  clientId: string;
  /** A public client (a browser or mobile app) has no secret and proves itself with PKCE. */
  public: boolean;
  redirectUris: string[];
  createdAt: Date;
}

export interface ClientStore {
  add(app: {
    name: string;
    clientId: string;
    secretDigest: string | null;
    public: boolean;
    redirectUris: string[];
    createdAt: Date;
  }): Promise<ClientApp>;
  list(): Promise<ClientApp[]>;
  byClientId(clientId: string): Promise<ClientApp | null>;
  /** The confidential app with this client id and secret digest. */
  authenticate(clientId: string, secretDigest: string): Promise<ClientApp | null>;
}
export const ClientStore = Symbol.for('ClientStore');

/**
 * A redirect URI a client may register: absolute, no fragment (RFC 6749 §3.1.2). https, http (for loopback
 * apps on 127.0.0.1 or localhost, RFC 8252 §7.3, and for development), or an app's private scheme
 * (`com.example.app:/callback`, RFC 8252 §7.1).
 */
export function isRegistrableRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.hash !== '' || value.includes('#')) return false;
  if (url.protocol === 'javascript:' || url.protocol === 'data:' || url.protocol === 'file:') return false;
  return value.length <= 2000;
}

/** Registers a client application; a confidential one's secret is returned this once and never again. */
export class CreateApp {
  constructor(
    private readonly apps: ClientStore,
    private readonly secrets: SecretGenerator,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** Administrators register apps; the audit log keeps each (never its secret). */
  async execute(
    actor: Actor,
    input: { name: string; redirectUris?: readonly string[]; public?: boolean },
    reason: string | null = null,
  ): Promise<{ app: ClientApp; clientSecret: string | null }> {
    const admin = requireAdmin(actor);
    const name = input.name.trim();
    if (name === '' || name.length > 100) throw new RuleViolated('Validation failed: Name must be 1 to 100 characters');
    const redirectUris = [...new Set((input.redirectUris ?? []).map((uri) => uri.trim()).filter((uri) => uri !== ''))];
    const invalid = redirectUris.find((uri) => !isRegistrableRedirectUri(uri));
    if (invalid !== undefined) {
      throw new RuleViolated(`Validation failed: Redirect URI ${invalid} must be an absolute URI without a fragment`);
    }
    if (input.public && redirectUris.length === 0) {
      throw new RuleViolated('Validation failed: a public client signs users in through a redirect URI: register one');
    }
    const clientSecret = input.public ? null : this.secrets.generate();
    return this.uow.run(async () => {
      const app = await this.apps.add({
        name,
        clientId: this.secrets.generate().slice(0, 32),
        secretDigest: clientSecret === null ? null : this.secrets.digest(clientSecret),
        public: input.public ?? false,
        redirectUris,
        createdAt: this.clock.now(),
      });
      const changes = {
        name: [null, app.name] as [null, string],
        client_id: [null, app.clientId] as [null, string],
        public: [null, app.public] as [null, boolean],
        redirect_uris: [null, app.redirectUris] as [null, string[]],
      };
      await this.events.record(moderationActed('app.create', admin.id, { type: 'App', id: app.id }, changes, reason));
      return { app, clientSecret };
    });
  }
}

export class ListApps {
  constructor(private readonly apps: ClientStore) {}

  execute(): Promise<ClientApp[]> {
    return this.apps.list();
  }
}

/**
 * Client authentication (RFC 6749 §2.3.1): the app whose id and secret match, or null. A public client has no
 * secret: it is found by its id alone, and only where the grant lets it (PKCE, refresh). Wrong secrets are
 * throttled per client and address, like passwords: a secret cannot be guessed at the token endpoint's speed.
 * A refresh that presents a live refresh token of this client (or of no client: forumctl's) is not a guess, and
 * passes the per-address lock that others' guessing from the same address (one NAT) set; the per-client count
 * still applies, and a wrong secret still counts.
 */
export class AuthenticateClient {
  constructor(
    private readonly apps: ClientStore,
    private readonly secrets: SecretGenerator,
    private readonly throttle: CredentialThrottle,
  ) {}

  async execute(input: {
    clientId: string;
    clientSecret: string | undefined;
    address: string;
    /** The request presents a live refresh token, issued to this app (its id) or to no client (null). */
    refreshTokenOf?: number | null;
  }): Promise<ClientApp | null> {
    const { clientId, clientSecret, address, refreshTokenOf } = input;
    if (clientId.length > 128 || !/^[\x20-\x7e]+$/.test(clientId)) return null;
    if (!clientSecret) {
      const app = await this.apps.byClientId(clientId);
      return app?.public ? app : null;
    }
    const credential = `client:${clientId}`;
    const provenByRefresh =
      refreshTokenOf !== undefined && (refreshTokenOf === null || (await this.apps.byClientId(clientId))?.id === refreshTokenOf);
    await this.throttle.ensureAllowed(credential, address, { address: !provenByRefresh });
    const app = clientSecret.length > 512 ? null : await this.apps.authenticate(clientId, this.secrets.digest(clientSecret));
    if (app) await this.throttle.recordSuccess(credential, address);
    else await this.throttle.recordFailure(credential, address);
    return app;
  }
}

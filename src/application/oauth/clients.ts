import { RuleViolated } from '../../domain/shared/errors.js';
import type { Clock, SecretGenerator } from '../ports.js';
import type { CredentialThrottle } from './credential-throttle.js';

/** A registered client application. Its secret is stored only as a digest. */
export interface ClientApp {
  id: number;
  name: string;
  clientId: string;
  redirectUri: string | null;
  createdAt: Date;
}

export interface ClientStore {
  add(app: {
    name: string;
    clientId: string;
    secretDigest: string;
    redirectUri: string | null;
    createdAt: Date;
  }): Promise<ClientApp>;
  list(): Promise<ClientApp[]>;
  /** The app with this client id and secret digest. */
  authenticate(clientId: string, secretDigest: string): Promise<ClientApp | null>;
}
export const ClientStore = Symbol.for('ClientStore');

/** Registers a client application; the secret is returned this once and never again. */
export class CreateApp {
  constructor(
    private readonly apps: ClientStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(input: { name: string; redirectUri?: string }): Promise<{ app: ClientApp; clientSecret: string }> {
    const name = input.name.trim();
    if (name === '' || name.length > 100) throw new RuleViolated('Validation failed: Name must be 1 to 100 characters');
    const redirectUri = input.redirectUri?.trim() || null;
    if (redirectUri !== null && !isAbsoluteUri(redirectUri))
      throw new RuleViolated('Validation failed: Redirect URI must be an absolute URI');
    const clientSecret = this.secrets.generate();
    const app = await this.apps.add({
      name,
      clientId: this.secrets.generate().slice(0, 32),
      secretDigest: this.secrets.digest(clientSecret),
      redirectUri,
      createdAt: this.clock.now(),
    });
    return { app, clientSecret };
  }
}

function isAbsoluteUri(value: string): boolean {
  try {
    return Boolean(new URL(value).protocol);
  } catch {
    return false;
  }
}

export class ListApps {
  constructor(private readonly apps: ClientStore) {}

  execute(): Promise<ClientApp[]> {
    return this.apps.list();
  }
}

/**
 * Client authentication (RFC 6749 §2.3.1): the app whose id and secret match, or null. Wrong secrets are
 * throttled per client and address, like passwords: a secret cannot be guessed at the token endpoint's speed.
 */
export class AuthenticateClient {
  constructor(
    private readonly apps: ClientStore,
    private readonly secrets: SecretGenerator,
    private readonly throttle: CredentialThrottle,
  ) {}

  async execute(input: { clientId: string; clientSecret: string | undefined; address: string }): Promise<ClientApp | null> {
    const { clientId, clientSecret, address } = input;
    if (!clientSecret) return null;
    const credential = `client:${clientId}`;
    await this.throttle.ensureAllowed(credential, address);
    const app =
      clientId.length > 128 || clientSecret.length > 512
        ? null
        : await this.apps.authenticate(clientId, this.secrets.digest(clientSecret));
    if (app) await this.throttle.recordSuccess(credential, address);
    else await this.throttle.recordFailure(credential, address);
    return app;
  }
}

import { InvalidInput } from '../../domain/shared/errors.js';
import type { ActingUser } from '../actor.js';
import type { Clock, SecretGenerator } from '../ports.js';

/** What is stored of an issued token: digests only, never the token itself. */
export interface TokenRecord {
  accessDigest: string;
  refreshDigest: string | null;
  userId: number | null;
  clientId: number | null;
  scope: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface AccessTokenStore {
  add(record: TokenRecord): Promise<void>;
  /** The user behind a live (unexpired, unrevoked) access token digest. */
  userForAccessDigest(digest: string, now: Date): Promise<ActingUser | null>;
  /** Revokes the pair that either digest belongs to; returns whether one was found. */
  revoke(digest: string, now: Date): Promise<boolean>;
}
export const AccessTokenStore = Symbol.for('AccessTokenStore');

/** The response of a token grant (RFC 6749 §5.1 plus Doorkeeper's `created_at`, which clients of homeland read). */
export interface IssuedToken {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  created_at: number;
}

export const DEFAULT_TOKEN_LIFETIME_SECONDS = 86_400;

export class IssueToken {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly defaultLifetimeSeconds: number,
  ) {}

  async execute(input: { userId: number | null; clientId: number | null; expiresIn?: number }): Promise<IssuedToken> {
    const lifetime = input.expiresIn ?? this.defaultLifetimeSeconds;
    if (!Number.isInteger(lifetime) || lifetime < 1)
      throw new InvalidInput('expires_in', 'expires_in must be a positive whole number');
    const now = this.clock.now();
    const access = this.secrets.generate();
    const refresh = input.userId === null ? null : this.secrets.generate();
    await this.store.add({
      accessDigest: this.secrets.digest(access),
      refreshDigest: refresh === null ? null : this.secrets.digest(refresh),
      userId: input.userId,
      clientId: input.clientId,
      scope: 'all',
      expiresAt: new Date(now.getTime() + lifetime * 1000),
      createdAt: now,
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: lifetime,
      ...(refresh === null ? {} : { refresh_token: refresh }),
      scope: 'all',
      created_at: Math.floor(now.getTime() / 1000),
    };
  }
}

/** Resolves a bearer token to the user behind it; anything unknown, expired or revoked is nobody. */
export class Authenticate {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string | undefined): Promise<ActingUser | null> {
    if (!token || token.length > 512) return null;
    return this.store.userForAccessDigest(this.secrets.digest(token), this.clock.now());
  }
}

export class RevokeToken {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<boolean> {
    return this.store.revoke(this.secrets.digest(token), this.clock.now());
  }
}

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
  refreshExpiresAt: Date | null;
  createdAt: Date;
  /** The family of the refresh token this one replaces; null starts a new family. */
  familyId: number | null;
}

/** A live refresh token: who it is for, which client holds it, until when, and its family. */
export interface RefreshGrant {
  userId: number;
  clientId: number | null;
  scope: string;
  refreshExpiresAt: Date | null;
  familyId: number;
}

export interface AccessTokenStore {
  add(record: TokenRecord): Promise<void>;
  /** The user behind a live (unexpired, unrevoked) access token digest. */
  userForAccessDigest(digest: string, now: Date): Promise<ActingUser | null>;
  /** The grant behind a live (unexpired, unrevoked) refresh token digest. */
  refreshGrant(digest: string, now: Date): Promise<RefreshGrant | null>;
  /** Revokes the pair that either digest belongs to; returns whether a live one was found. */
  revoke(digest: string, now: Date): Promise<boolean>;
  /** If this refresh digest belongs to a revoked token, revokes every live token of its family; returns how many. */
  revokeFamilyOfRevokedRefresh(digest: string, now: Date): Promise<number>;
  /** Deletes revoked tokens and tokens that can no longer be used (access and refresh expired). */
  purge(now: Date): Promise<number>;
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
export const DEFAULT_REFRESH_LIFETIME_SECONDS = 30 * 86_400;
export const TOKEN_SCOPE = 'all';

export interface TokenLifetimes {
  accessSeconds: number;
  refreshSeconds: number;
}

/** Issues an access token, and a refresh token whenever there is a user (not for client credentials). */
export class IssueToken {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly lifetimes: TokenLifetimes,
  ) {}

  async execute(input: {
    userId: number | null;
    clientId: number | null;
    expiresIn?: number;
    /** Set when refreshing: the new pair joins the family of the one it replaces. */
    familyId?: number;
  }): Promise<IssuedToken> {
    const lifetime = input.expiresIn ?? this.lifetimes.accessSeconds;
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
      scope: TOKEN_SCOPE,
      expiresAt: new Date(now.getTime() + lifetime * 1000),
      refreshExpiresAt: refresh === null ? null : new Date(now.getTime() + this.lifetimes.refreshSeconds * 1000),
      createdAt: now,
      familyId: input.familyId ?? null,
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: lifetime,
      ...(refresh === null ? {} : { refresh_token: refresh }),
      scope: TOKEN_SCOPE,
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

/**
 * The grant behind a refresh token, if it is still live. A refresh token that was already rotated (or revoked)
 * and comes back means two parties hold it: the legitimate client or a thief, we cannot tell which, so the
 * whole family is revoked and both must sign in again (RFC 9700 §4.14.2).
 */
export class LookupRefreshToken {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<RefreshGrant | null> {
    if (!token || token.length > 512) return null;
    const digest = this.secrets.digest(token);
    const now = this.clock.now();
    const grant = await this.store.refreshGrant(digest, now);
    if (!grant) await this.store.revokeFamilyOfRevokedRefresh(digest, now);
    return grant;
  }
}

/** Revokes an access or refresh token together with its pair (RFC 7009); false when no live token matched. */
export class RevokeToken {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string): Promise<boolean> {
    if (!token || token.length > 512) return false;
    return this.store.revoke(this.secrets.digest(token), this.clock.now());
  }
}

/** Maintenance: removes tokens nobody can use any more. Returns how many. */
export class PurgeTokens {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly clock: Clock,
  ) {}

  execute(): Promise<number> {
    return this.store.purge(this.clock.now());
  }
}

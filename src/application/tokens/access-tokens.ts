import { Forbidden, InvalidInput, NotFound } from '../../domain/shared/errors.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import { type ActingUser, type Actor, type CallerRef, requireUser } from '../actor.js';
import type { Clock, SecretGenerator, UnitOfWork } from '../ports.js';
import type { Presence } from '../accounts/presence.js';
import type { AdminSecondFactorRule } from '../second-factors/admin-rule.js';
import type { PendingSignInStore } from '../second-factors/ports.js';
import type { DomainEvents } from '../events.js';
import { moderationActed } from '../../domain/events.js';
import type { WebSessionStore } from '../oauth/web-sessions.js';
import type { AuthorizationCodeStore } from '../oauth/authorization-codes.js';
import { DEFAULT_SCOPE, type Scope } from './scopes.js';
import type { PersonalTokenKeys, PersonalTokenUse } from './personal-tokens.js';

/** What is stored of an issued token: digests only, never the token itself. */
export interface TokenRecord {
  accessDigest: string;
  refreshDigest: string | null;
  userId: number | null;
  clientId: number | null;
  scope: Scope;
  expiresAt: Date;
  refreshExpiresAt: Date | null;
  createdAt: Date;
  /** The family of the refresh token this one replaces; null starts a new family. */
  familyId: number | null;
  /** The authorization code this token was exchanged for, if it was. */
  codeId: number | null;
}

/** A live refresh token: who it is for, which client holds it, until when, and its family. */
export interface RefreshGrant {
  userId: number;
  clientId: number | null;
  scope: Scope;
  refreshExpiresAt: Date | null;
  familyId: number;
}

/** Who a live token speaks for, and with what scope. */
export interface Caller {
  user: ActingUser;
  scope: Scope;
}

/** A live token as introspection shows it. */
export interface TokenDescription {
  kind: 'access' | 'refresh';
  scope: Scope;
  userId: number | null;
  login: string | null;
  /** The client's public id, or null for a token issued by forumctl. */
  clientUid: string | null;
  /** Null for a refresh token that never expires. */
  expiresAt: Date | null;
  createdAt: Date;
}

/** A user's live token, as an administrator lists them (never the token). */
export interface TokenSummary {
  id: number;
  clientName: string | null;
  /** A personal token's name (contract §25); null for the others. */
  name: string | null;
  scope: Scope;
  createdAt: Date;
  /** Null for a personal token that never expires. */
  expiresAt: Date | null;
  refreshExpiresAt: Date | null;
}

export interface AccessTokenStore {
  add(record: TokenRecord): Promise<void>;
  /** The user (and scope) behind a live (unexpired, unrevoked) access token digest. */
  callerForAccessDigest(digest: string, now: Date): Promise<Caller | null>;
  /** The grant behind a live (unexpired, unrevoked) refresh token digest. */
  refreshGrant(digest: string, now: Date): Promise<RefreshGrant | null>;
  /** A live access or refresh token, described. */
  describe(digest: string, now: Date): Promise<TokenDescription | null>;
  /** Revokes the pair that either digest belongs to; returns whether a live one was found. */
  /** The token revoked (its id and user), or null when there was no live token with this digest. */
  revoke(digest: string, now: Date): Promise<{ id: number; userId: number } | null>;
  /** If this refresh digest belongs to a revoked token, revokes every live token of its family; returns how many. */
  revokeFamilyOfRevokedRefresh(digest: string, now: Date): Promise<number>;
  /** Revokes every live token of the families issued for an authorization code (it was replayed). */
  revokeFamiliesOfCode(codeId: number, now: Date): Promise<number>;
  /** A user's live tokens, newest first. */
  liveFor(userId: number, now: Date): Promise<TokenSummary[]>;
  /** Revokes every live token of a user (but the one with this access digest, if given); returns how many. */
  revokeAllFor(userId: number, now: Date, exceptAccessDigest?: string): Promise<number>;
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
  scope: Scope;
  created_at: number;
}

/** How long issued tokens live, in seconds: the configuration's, given by the composition root. */
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
    scope?: Scope;
    /** Set when refreshing: the new pair joins the family of the one it replaces. */
    familyId?: number;
    /** Set when exchanging an authorization code: a replay of the code revokes what it gave. */
    codeId?: number;
  }): Promise<IssuedToken> {
    const lifetime = input.expiresIn ?? this.lifetimes.accessSeconds;
    if (!Number.isInteger(lifetime) || lifetime < 1)
      throw new InvalidInput('expires_in', 'expires_in must be a positive whole number');
    const scope = input.scope ?? DEFAULT_SCOPE;
    const now = this.clock.now();
    const access = this.secrets.generate();
    const refresh = input.userId === null ? null : this.secrets.generate();
    await this.store.add({
      accessDigest: this.secrets.digest(access),
      refreshDigest: refresh === null ? null : this.secrets.digest(refresh),
      userId: input.userId,
      clientId: input.clientId,
      scope,
      expiresAt: new Date(now.getTime() + lifetime * 1000),
      refreshExpiresAt: refresh === null ? null : new Date(now.getTime() + this.lifetimes.refreshSeconds * 1000),
      createdAt: now,
      familyId: input.familyId ?? null,
      codeId: input.codeId ?? null,
    });
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: lifetime,
      ...(refresh === null ? {} : { refresh_token: refresh }),
      scope,
      created_at: Math.floor(now.getTime() / 1000),
    };
  }
}

/**
 * What a personal token says of itself, read without a lookup (its MAC under the server's key checks): whose it
 * is. It proves the token was made here for that user, not that it is still live.
 */
export interface PersonalClaim {
  userId: number;
  accessDigest: string;
}

/** Resolves a bearer token to the user behind it and its scope; anything unknown, expired or revoked is nobody. */
export class Authenticate {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly presence: Presence,
    private readonly personalKeys: PersonalTokenKeys,
    private readonly personalUse: PersonalTokenUse,
    private readonly adminRule: AdminSecondFactorRule,
  ) {}

  async execute(token: string | undefined): Promise<Caller | null> {
    const ref = this.reference(token);
    return 'actor' in ref ? null : this.byDigest(ref);
  }

  /** The caller a token names, not looked up yet: a read model may look it up in its own statement. */
  reference(token: string | undefined): CallerRef {
    if (!token || token.length > 512) return { actor: null };
    return { accessDigest: this.secrets.digest(token), at: this.clock.now() };
  }

  /**
   * Whether a read may look its token up in its own statement (VIEWER_CTE), which reads the role as it is stored:
   * not while REQUIRE_2FA may hold an administrator back (their reads would see what administrators see).
   */
  get readsLookTokensUp(): boolean {
    return !this.adminRule.holdsBack;
  }

  /** The token's caller, held back as REQUIRE_2FA says (AdminSecondFactorRule). */
  async byDigest(ref: { accessDigest: string; at: Date }): Promise<Caller | null> {
    const caller = await this.store.callerForAccessDigest(ref.accessDigest, ref.at);
    return caller && { ...caller, user: await this.adminRule.apply(caller.user) };
  }

  /** The claim of the personal token that `ref` names (a MAC, no lookup); null for any other token, or none. */
  personalClaim(token: string | undefined, ref: CallerRef): PersonalClaim | null {
    if (token === undefined || !('accessDigest' in ref)) return null;
    const userId = this.personalKeys.holderOf(token);
    return userId === null ? null : { userId, accessDigest: ref.accessDigest };
  }

  /** A personal token was presented: its "last used" (kept to within minutes, and only while it is live). */
  used(claim: PersonalClaim): Promise<void> {
    return this.personalUse.used(claim.accessDigest, this.clock.now());
  }

  /**
   * A request is over: its caller was here (contract §17, what digests go by). `resolved` is who the caller
   * turned out to be, when something looked; a read that never looked leaves its token's user to be found by
   * the digest. Anonymous requests and dead tokens were nobody.
   */
  seen(ref: CallerRef, resolved: Actor | undefined): Promise<void> {
    if (resolved === undefined && 'accessDigest' in ref) return this.presence.seen({ accessDigest: ref.accessDigest }, ref.at);
    const actor = resolved === undefined ? ('actor' in ref ? ref.actor : null) : resolved;
    return actor ? this.presence.seen({ userId: actor.id }, this.clock.now()) : Promise.resolve();
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
    private readonly presence: Presence,
  ) {}

  async execute(token: string): Promise<RefreshGrant | null> {
    if (!token || token.length > 512) return null;
    const digest = this.secrets.digest(token);
    const now = this.clock.now();
    const grant = await this.store.refreshGrant(digest, now);
    if (!grant) await this.store.revokeFamilyOfRevokedRefresh(digest, now);
    // A refresh is a sign-in of the user's application (contract §17: digests skip whoever was seen).
    else await this.presence.seen({ userId: grant.userId }, now);
    return grant;
  }
}

/** Revokes an access or refresh token together with its pair (RFC 7009); false when no live token matched. */
export class RevokeToken {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /**
   * Revokes a token and its pair; returns whether there was one. A moderator revoking someone else's token
   * (forumctl) is kept by the audit log with `reason`.
   */
  async execute(token: string, moderator?: { actor: ActingUser; reason: string | null }): Promise<boolean> {
    if (!token || token.length > 512) return false;
    return this.uow.run(async () => {
      const now = this.clock.now();
      const revoked = await this.store.revoke(this.secrets.digest(token), now);
      if (revoked && moderator && moderator.actor.id !== revoked.userId) {
        const target = { type: 'Token', id: revoked.id } as const;
        await this.events.record(
          moderationActed('token.revoke', moderator.actor.id, target, { revoked_at: [null, now] }, moderator.reason),
        );
      }
      return revoked !== null;
    });
  }
}

/** RFC 7662 introspection and Doorkeeper's token info: a live token, described; null when it is not live. */
export class DescribeToken {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(token: string | undefined): Promise<(TokenDescription & { expiresIn: number | null }) | null> {
    if (!token || token.length > 512) return null;
    const now = this.clock.now();
    const described = await this.store.describe(this.secrets.digest(token), now);
    if (!described) return null;
    const left = described.expiresAt && Math.max(0, Math.floor((described.expiresAt.getTime() - now.getTime()) / 1000));
    return { ...described, expiresIn: left };
  }
}

async function userByLogin(users: UserRepository, login: string): Promise<number> {
  const user = await users.findByLogin(login);
  if (!user) throw new NotFound('user');
  return user.id;
}

/** An administrator lists a user's live tokens (never the tokens themselves). */
export class ListTokens {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, login: string): Promise<TokenSummary[]> {
    const admin = requireUser(actor);
    const userId = await userByLogin(this.users, login);
    if (admin.role !== 'admin') throw new Forbidden();
    return this.store.liveFor(userId, this.clock.now());
  }
}

/**
 * Ends every way a user is signed in: their live tokens, personal ones included (but one kept, the caller's own, when
 * given), their browser sessions, and the sign-ins that passed the password and wait for the second factor (whoever
 * typed the old password must not finish one with a code). What a password change or reset, leaving, a suspension, a
 * spammer's removal and an administrator's `tokens revoke-all` all do, inside the caller's unit of work. Returns how
 * many tokens and sessions ended.
 */
export class SignOutEverywhere {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly sessions: WebSessionStore,
    private readonly pendingSignIns: Pick<PendingSignInStore, 'removeAllFor'>,
    private readonly clock: Clock,
  ) {}

  async execute(userId: number, keepAccessDigest?: string): Promise<{ tokens: number; sessions: number }> {
    const tokens = await this.store.revokeAllFor(userId, this.clock.now(), keepAccessDigest);
    const sessions = await this.sessions.removeAllFor(userId);
    await this.pendingSignIns.removeAllFor(userId);
    return { tokens, sessions };
  }
}

/** An administrator ends every session of a compromised account: all its tokens, and its sign-in sessions. */
export class RevokeAllTokens {
  constructor(
    private readonly signOut: SignOutEverywhere,
    private readonly users: UserRepository,
    private readonly events: DomainEvents,
    private readonly uow: UnitOfWork,
  ) {}

  async execute(actor: Actor, login: string, reason: string | null = null): Promise<{ tokens: number; sessions: number }> {
    const admin = requireUser(actor);
    const userId = await userByLogin(this.users, login);
    if (admin.role !== 'admin') throw new Forbidden();
    return this.uow.run(async () => {
      const { tokens, sessions } = await this.signOut.execute(userId);
      if (admin.id !== userId) {
        const changes = { live_tokens: [tokens, 0] as [number, number], sessions: [sessions, 0] as [number, number] };
        await this.events.record(moderationActed('token.revoke', admin.id, { type: 'User', id: userId }, changes, reason));
      }
      return { tokens, sessions };
    });
  }
}

/**
 * Maintenance: removes what nobody can use any more: revoked and expired tokens, sign-in sessions that ended,
 * sign-ins that waited for a second factor past their ten minutes, and authorization codes a day after they expired (kept that long so that a replayed code is still known as
 * one, and revokes what it gave).
 */
export class PurgeTokens {
  constructor(
    private readonly store: AccessTokenStore,
    private readonly codes: AuthorizationCodeStore,
    private readonly sessions: WebSessionStore,
    private readonly pendingSignIns: Pick<PendingSignInStore, 'purge'>,
    private readonly clock: Clock,
  ) {}

  async execute(): Promise<{ tokens: number; codes: number; sessions: number; pendingSignIns: number }> {
    const now = this.clock.now();
    return {
      tokens: await this.store.purge(now),
      codes: await this.codes.purge(new Date(now.getTime() - 86_400_000)),
      sessions: await this.sessions.purge(now),
      pendingSignIns: await this.pendingSignIns.purge(now),
    };
  }
}

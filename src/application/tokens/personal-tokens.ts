import { z } from 'zod';
import { Forbidden, NotFound, RuleViolated } from '../../domain/shared/errors.js';
import { type Actor, requireUser } from '../actor.js';
import { Text, oneOf, readAll, wholeNumber } from '../inputs.js';
import type { Clock, SecretGenerator, UnitOfWork } from '../ports.js';
import { SCOPES, type Scope } from './scopes.js';

/**
 * Personal access tokens for scripts and bots (contract §25): bearer tokens a person makes for themselves, named,
 * `read` or `all`, expiring after 1 to 365 days or never. They are stored (and looked up, and revoked by every
 * sign-out) as the OAuth tokens are, by digest; only their making, listing and revoking are theirs.
 */

/**
 * The format of personal tokens: a prefix that secret scanners recognise, random bits, and the id of the user
 * it was issued to under a MAC of the server's key. The MAC proves the token was made here for that user (not
 * that it is still live): the rate limit counts a request against that user without looking the token up, and
 * a forged token cannot name someone else.
 */
export interface PersonalTokenKeys {
  /** A new personal token of this user. */
  issue(userId: number): string;
  /** The user a token was issued to, when it is a personal token made here (its MAC checks); else null. */
  holderOf(token: string): number | null;
}
export const PersonalTokenKeys = Symbol.for('PersonalTokenKeys');

/** A personal token as its owner lists it (never the token, nor its digest). */
export interface PersonalToken {
  id: number;
  name: string;
  scope: Scope;
  createdAt: Date;
  /** To within LAST_USED_PRECISION_MS; null when never used. */
  lastUsedAt: Date | null;
  /** Null: never expires (until revoked). */
  expiresAt: Date | null;
}

export interface PersonalTokenStore {
  add(token: {
    userId: number;
    name: string;
    scope: Scope;
    accessDigest: string;
    expiresAt: Date | null;
    createdAt: Date;
  }): Promise<PersonalToken>;
  /** The user's live (unexpired, unrevoked) personal tokens, newest first. */
  liveFor(userId: number, now: Date): Promise<PersonalToken[]>;
  countLiveFor(userId: number, now: Date): Promise<number>;
  /** Revokes the user's live personal token with this id; false when the user has none such. */
  revoke(userId: number, id: number, now: Date): Promise<boolean>;
}
export const PersonalTokenStore = Symbol.for('PersonalTokenStore');

/** How stale a personal token's "last used" may be: at most one write per token per period, whatever the traffic. */
export const LAST_USED_PRECISION_MS = 600_000;

/**
 * Told of every request that presents a personal token (one whose MAC checks), so an implementation must cost next
 * to nothing when nothing changes (as Presence does). Marks only a live token; never throws.
 */
export interface PersonalTokenUse {
  used(accessDigest: string, at: Date): Promise<void>;
}
export const PersonalTokenUse = Symbol.for('PersonalTokenUse');

/** At most this many live personal tokens per person: a script that makes one per run must notice. */
export const MAX_PERSONAL_TOKENS = 50;

/** `none` (or nothing) for a token that never expires. */
const ExpiresInDays = z
  .preprocess(
    (value) => (value === undefined || value === null || value === '' || value === 'none' ? undefined : value),
    wholeNumber(1, 365).optional(),
  )
  .meta({ description: 'days until it expires, 1 to 365; absent, null or `none`: never (until revoked)', example: 90 });

/** The parameters of `POST /users/me/tokens` and of the settings page's form. */
export const CreatePersonalTokenParams = z.object({
  name: Text.pipe(z.string().max(100, { error: 'must be at most 100 characters' })).meta({
    description: 'what the token is for, at most 100 characters',
    example: 'backup script',
    maxLength: 100,
  }),
  scope: oneOf(SCOPES).meta({ description: '`read` (GET only) or `all` (whatever you may do)', example: 'read' }),
  expires_in_days: ExpiresInDays,
});

/**
 * The caller makes a personal token; it is returned this once (the database keeps its digest). A personal token
 * cannot make another: a leaked one must not be able to give itself a successor that outlives its revocation, so
 * tokens are made by a signed-in person (the settings page, or a token from signing in).
 */
export class CreatePersonalToken {
  constructor(
    private readonly store: PersonalTokenStore,
    private readonly keys: PersonalTokenKeys,
    private readonly secrets: SecretGenerator,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  /** `callerToken`: the bearer token of the request, if any (a browser session has none). */
  async execute(
    actor: Actor,
    raw: unknown,
    context: { callerToken: string | null },
  ): Promise<{ token: string; personalToken: PersonalToken }> {
    const user = requireUser(actor);
    const input = readAll(CreatePersonalTokenParams, raw);
    if (context.callerToken !== null && this.keys.holderOf(context.callerToken) !== null) {
      throw new Forbidden('A personal access token cannot create tokens: create them signed in (the settings page).');
    }
    const name = input.name.trim();
    if (name === '') throw new RuleViolated("Validation failed: Name can't be blank");
    const now = this.clock.now();
    return this.uow.run(async () => {
      if ((await this.store.countLiveFor(user.id, now)) >= MAX_PERSONAL_TOKENS) {
        throw new RuleViolated(`Validation failed: at most ${MAX_PERSONAL_TOKENS} tokens; revoke one first`);
      }
      const token = this.keys.issue(user.id);
      const days = input.expires_in_days;
      const personalToken = await this.store.add({
        userId: user.id,
        name,
        scope: input.scope,
        accessDigest: this.secrets.digest(token),
        expiresAt: days === undefined ? null : new Date(now.getTime() + days * 86_400_000),
        createdAt: now,
      });
      return { token, personalToken };
    });
  }
}

/** The caller's live personal tokens (never the tokens). */
export class ListPersonalTokens {
  constructor(
    private readonly store: PersonalTokenStore,
    private readonly clock: Clock,
  ) {}

  execute(actor: Actor): Promise<PersonalToken[]> {
    return this.store.liveFor(requireUser(actor).id, this.clock.now());
  }
}

/** The caller revokes one of their personal tokens; someone else's (or one already revoked) is not found. */
export class RevokePersonalToken {
  constructor(
    private readonly store: PersonalTokenStore,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, id: number): Promise<void> {
    const user = requireUser(actor);
    if (!(await this.store.revoke(user.id, id, this.clock.now()))) throw new NotFound('token');
  }
}

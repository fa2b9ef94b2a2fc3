import { z } from 'zod';
import { InvalidInput, RuleViolated } from '../../domain/shared/errors.js';
import { RECOVERY_CODE_COUNT, readCode, shownRecoveryCode } from '../../domain/users/second-factor.js';
import type { UserRepository } from '../../domain/users/user-repository.js';
import type { CurrentPassword } from '../accounts/current-password.js';
import { type Actor, requireUser } from '../actor.js';
import { readAll } from '../inputs.js';
import type { Clock, SecretBox, SecretGenerator, UnitOfWork } from '../ports.js';
import { type CheckSecondFactor, recoveryDigest } from './check-second-factor.js';
import type { PasskeySummary } from '../../domain/users/passkey.js';
import type { PasskeyStore, SecondFactorCodes, SecondFactorStore } from './ports.js';

/**
 * A person's own second factor (contract §25), from the settings page: set up an authenticator (a new secret, shown
 * as a QR code and as text; on only once a first code from the app is right), with ten recovery codes shown once
 * (made with the first second factor, an authenticator or a passkey: passkeys.ts); new recovery codes; turning it
 * all off (with the password or a code).
 */

/** The name authenticator apps show beside the account. */
export const TOTP_ISSUER = 'forum';

/** Where a person's second factor stands, for the settings page. */
export interface SecondFactorStatus {
  /** off: none; waiting: a secret shown, its first code not yet typed; on. */
  totp: 'off' | 'waiting' | 'on';
  passkeys: PasskeySummary[];
  /** Whether sign-in asks for a second factor: an authenticator on, or a passkey. */
  on: boolean;
  recoveryCodesLeft: number;
}

export class ShowSecondFactor {
  constructor(
    private readonly store: SecondFactorStore,
    private readonly passkeys: PasskeyStore,
  ) {}

  async execute(actor: Actor): Promise<SecondFactorStatus> {
    const user = requireUser(actor);
    const [totp, passkeys] = await Promise.all([this.store.totpOf(user.id), this.passkeys.listOf(user.id)]);
    const state = totp === null ? 'off' : totp.confirmedAt ? 'on' : 'waiting';
    const on = state === 'on' || passkeys.length > 0;
    return {
      totp: state,
      passkeys: passkeys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt })),
      on,
      recoveryCodesLeft: on ? await this.store.unusedRecoveryCodes(user.id) : 0,
    };
  }
}

/** A new authenticator secret for the person, waiting for its first code; refused while one is on. */
export class StartTotpEnrolment {
  constructor(
    private readonly store: SecondFactorStore,
    private readonly codes: SecondFactorCodes,
    private readonly box: SecretBox,
    private readonly clock: Clock,
  ) {}

  /** The secret (for typing into an app) and the URI its QR code carries. */
  async execute(actor: Actor): Promise<{ secret: string; uri: string }> {
    const user = requireUser(actor);
    if ((await this.store.totpOf(user.id))?.confirmedAt) {
      throw new RuleViolated('Two-factor sign-in is already on: turn it off first to use another authenticator');
    }
    const secret = this.codes.newTotpSecret();
    await this.store.startTotp(user.id, this.box.seal(secret), this.clock.now());
    return { secret, uri: this.codes.totpUri(secret, user.login, TOTP_ISSUER) };
  }

  /** The waiting secret again (the page shown anew after a wrong first code); null when none waits. */
  async waiting(actor: Actor): Promise<{ secret: string; uri: string } | null> {
    const user = requireUser(actor);
    const totp = await this.store.totpOf(user.id);
    if (!totp || totp.confirmedAt) return null;
    const secret = this.box.open(totp.sealedSecret);
    return { secret, uri: this.codes.totpUri(secret, user.login, TOTP_ISSUER) };
  }
}

export const ConfirmTotpParams = z.object({
  code: z.string().max(64).meta({ description: 'The six-digit code the authenticator app shows now' }),
});

/** New recovery codes for an account, replacing any it had: the codes to show this once, as people write them. */
export async function newRecoveryCodes(
  userId: number,
  store: SecondFactorStore,
  codes: SecondFactorCodes,
  secrets: SecretGenerator,
  at: Date,
): Promise<string[]> {
  const fresh = Array.from({ length: RECOVERY_CODE_COUNT }, () => codes.newRecoveryCode());
  await store.replaceRecoveryCodes(
    userId,
    fresh.map((code) => recoveryDigest(secrets, userId, code)),
    at,
  );
  return fresh.map(shownRecoveryCode);
}

/**
 * Recovery codes for an account whose first second factor was just set up (an authenticator, a passkey): ten new
 * ones, to be shown once, unless it has unused ones already (from a passkey set up before); then null.
 */
export async function firstRecoveryCodes(
  userId: number,
  store: SecondFactorStore,
  codes: SecondFactorCodes,
  secrets: SecretGenerator,
  at: Date,
): Promise<string[] | null> {
  if ((await store.unusedRecoveryCodes(userId)) > 0) return null;
  return newRecoveryCodes(userId, store, codes, secrets, at);
}

/**
 * The first code from the app turns the authenticator on; ten recovery codes come back, to be shown once, when the
 * account had none.
 */
export class ConfirmTotpEnrolment {
  constructor(
    private readonly store: SecondFactorStore,
    private readonly codes: SecondFactorCodes,
    private readonly box: SecretBox,
    private readonly secrets: SecretGenerator,
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(actor: Actor, raw: unknown): Promise<{ recoveryCodes: string[] | null }> {
    const user = requireUser(actor);
    const { code } = readAll(ConfirmTotpParams, raw);
    const totp = await this.store.totpOf(user.id);
    if (!totp || totp.confirmedAt) throw new RuleViolated('There is no authenticator waiting to be confirmed: start again');
    const typed = readCode(code);
    const now = this.clock.now();
    const step = typed?.kind === 'totp' ? this.codes.totpStep(this.box.open(totp.sealedSecret), typed.code, now) : null;
    if (step === null) {
      throw new InvalidInput('code', 'That code is not right: type the six digits the app shows now');
    }
    return this.uow.run(async () => {
      if (!(await this.store.confirmTotp(user.id, step, now))) {
        throw new RuleViolated('There is no authenticator waiting to be confirmed: start again');
      }
      return { recoveryCodes: await firstRecoveryCodes(user.id, this.store, this.codes, this.secrets, now) };
    });
  }
}

export const SecondFactorProofParams = z.object({
  password: z.string().max(1024).optional().meta({ description: 'The account’s password' }),
  code: z.string().max(64).optional().meta({ description: 'Or a code: the authenticator’s, or a recovery code' }),
});

/**
 * What turning two-factor sign-in off, making new recovery codes, or removing a passkey asks: the password or a
 * code. Either is a guess at the account, counted with its failed sign-ins (a stolen session cannot try them).
 */
export class SecondFactorProof {
  constructor(
    private readonly users: UserRepository,
    private readonly current: CurrentPassword,
    private readonly check: CheckSecondFactor,
  ) {}

  async demand(userId: number, raw: unknown, address: string): Promise<void> {
    const { password, code } = readAll(SecondFactorProofParams, raw);
    if (password) {
      const user = await this.users.findById(userId);
      if (!user) throw new RuleViolated('Validation failed: the account is gone');
      if (!(await this.current.matches(user, password, address))) {
        throw new RuleViolated('Validation failed: Current password is not correct');
      }
      return;
    }
    if (!code) throw new InvalidInput('password', 'Type your password (or a code) to confirm');
    if (!(await this.check.execute(userId, code, address))) {
      throw new RuleViolated('Validation failed: That code is not right');
    }
  }
}

/** Turns the person's two-factor sign-in off: the authenticator, the passkeys and the recovery codes are gone. */
export class TurnOffSecondFactor {
  private readonly proof: SecondFactorProof;

  constructor(
    private readonly store: SecondFactorStore,
    users: UserRepository,
    current: CurrentPassword,
    check: CheckSecondFactor,
  ) {
    this.proof = new SecondFactorProof(users, current, check);
  }

  async execute(actor: Actor, raw: unknown, context: { address: string }): Promise<void> {
    const user = requireUser(actor);
    if (!(await this.store.isOn(user.id))) throw new RuleViolated('Two-factor sign-in is not on');
    await this.proof.demand(user.id, raw, context.address);
    await this.store.removeAll(user.id);
  }
}

/** Ten new recovery codes, replacing the old ones (used or not): shown this once. */
export class RegenerateRecoveryCodes {
  private readonly proof: SecondFactorProof;

  constructor(
    private readonly store: SecondFactorStore,
    private readonly codes: SecondFactorCodes,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    users: UserRepository,
    current: CurrentPassword,
    check: CheckSecondFactor,
  ) {
    this.proof = new SecondFactorProof(users, current, check);
  }

  async execute(actor: Actor, raw: unknown, context: { address: string }): Promise<{ recoveryCodes: string[] }> {
    const user = requireUser(actor);
    if (!(await this.store.isOn(user.id))) throw new RuleViolated('Two-factor sign-in is not on');
    await this.proof.demand(user.id, raw, context.address);
    return { recoveryCodes: await newRecoveryCodes(user.id, this.store, this.codes, this.secrets, this.clock.now()) };
  }
}

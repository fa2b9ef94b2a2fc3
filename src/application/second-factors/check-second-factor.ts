import { acceptsStep, readCode } from '../../domain/users/second-factor.js';
import type { CredentialThrottle } from '../oauth/credential-throttle.js';
import type { Clock, SecretBox, SecretGenerator } from '../ports.js';
import type { PasskeyCeremonies, PasskeyStore, SecondFactorCodes, SecondFactorStore } from './ports.js';

/** What a right code was: an authenticator's (recoveryCodesLeft null), or a recovery code, now used up. */
export interface CheckedCode {
  recoveryCodesLeft: number | null;
}

/** What the database keeps of a recovery code: its digest, salted with its account (one code, one account). */
export const recoveryDigest = (secrets: SecretGenerator, userId: number, code: string): string =>
  secrets.digest(`recovery:${userId}:${code}`);

/**
 * Checks the code a person typed as their second factor (contract §25): a TOTP code of a time step not accepted
 * before, or one of their unused recovery codes, which it uses up; or a passkey's assertion. Each check is a guess at
 * the account: it counts with the account's failed sign-ins (CredentialThrottle, as passwords do), and the same lock
 * refuses it (429).
 */
export class CheckSecondFactor {
  constructor(
    private readonly store: SecondFactorStore,
    private readonly codes: SecondFactorCodes,
    private readonly box: SecretBox,
    private readonly secrets: SecretGenerator,
    private readonly throttle: CredentialThrottle,
    private readonly clock: Clock,
    private readonly passkeys: PasskeyStore,
    private readonly ceremonies: PasskeyCeremonies,
  ) {}

  /** Whether the account must show a second factor to sign in. */
  isOn(userId: number): Promise<boolean> {
    return this.store.isOn(userId);
  }

  /** The code, checked; null when it is wrong (counted). Throws TooManyRequests while the account is locked here. */
  execute(userId: number, typed: string, address: string): Promise<CheckedCode | null> {
    return this.counted(userId, address, () => this.check(userId, typed));
  }

  /**
   * A passkey's assertion (`response`, as the browser gave it) answering `challenge` (null: the ceremony's challenge
   * was spent or never asked for, which fails like a wrong code): true when it is one of this account's passkeys'.
   * Throws TooManyRequests while the account is locked here.
   */
  async passkey(userId: number, response: unknown, challenge: string | null, address: string): Promise<boolean> {
    const checked = await this.counted(userId, address, async () =>
      challenge !== null && (await this.checkPasskey(userId, response, challenge)) ? { recoveryCodesLeft: null } : null,
    );
    return checked !== null;
  }

  private async counted(userId: number, address: string, check: () => Promise<CheckedCode | null>): Promise<CheckedCode | null> {
    const credential = `user:${userId}`;
    await this.throttle.ensureAllowed(credential, address);
    const checked = await check();
    if (checked) await this.throttle.recordSuccess(credential, address);
    else await this.throttle.recordFailure(credential, address);
    return checked;
  }

  private async checkPasskey(userId: number, response: unknown, challenge: string): Promise<boolean> {
    const credentialId = this.ceremonies.credentialIdOf(response);
    // Only this account's passkeys: another account's credential is no passkey of this one.
    const passkey = credentialId === null ? null : await this.passkeys.find(userId, credentialId);
    if (!passkey) return false;
    const verified = await this.ceremonies.verifyAuthentication(response, challenge, passkey);
    return verified !== null && (await this.passkeys.used(passkey.id, verified.signCount, this.clock.now()));
  }

  private async check(userId: number, typed: string): Promise<CheckedCode | null> {
    const code = readCode(typed);
    if (!code) return null;
    const now = this.clock.now();
    if (code.kind === 'recovery') {
      const left = await this.store.useRecoveryCode(userId, recoveryDigest(this.secrets, userId, code.code), now);
      return left === null ? null : { recoveryCodesLeft: left };
    }
    const totp = await this.store.totpOf(userId);
    if (!totp?.confirmedAt) return null;
    const step = this.codes.totpStep(this.box.open(totp.sealedSecret), code.code, now);
    if (step === null || !acceptsStep(totp.lastStep, step)) return null;
    // The store accepts it only if no other request took this step meanwhile.
    return (await this.store.acceptStep(userId, step)) ? { recoveryCodesLeft: null } : null;
  }
}

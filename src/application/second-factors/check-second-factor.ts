import { acceptsStep, readCode } from '../../domain/users/second-factor.js';
import type { CredentialThrottle } from '../oauth/credential-throttle.js';
import type { Clock, SecretBox, SecretGenerator } from '../ports.js';
import type { SecondFactorCodes, SecondFactorStore } from './ports.js';

/** What a right code was: an authenticator's (recoveryCodesLeft null), or a recovery code, now used up. */
export interface CheckedCode {
  recoveryCodesLeft: number | null;
}

/** What the database keeps of a recovery code: its digest, salted with its account (one code, one account). */
export const recoveryDigest = (secrets: SecretGenerator, userId: number, code: string): string =>
  secrets.digest(`recovery:${userId}:${code}`);

/**
 * Checks the code a person typed as their second factor (contract §25): a TOTP code of a time step not accepted
 * before, or one of their unused recovery codes, which it uses up. Each check is a guess at the account: it counts
 * with the account's failed sign-ins (CredentialThrottle, as passwords do), and the same lock refuses it (429).
 */
export class CheckSecondFactor {
  constructor(
    private readonly store: SecondFactorStore,
    private readonly codes: SecondFactorCodes,
    private readonly box: SecretBox,
    private readonly secrets: SecretGenerator,
    private readonly throttle: CredentialThrottle,
    private readonly clock: Clock,
  ) {}

  /** Whether the account must show a second factor to sign in. */
  isOn(userId: number): Promise<boolean> {
    return this.store.isOn(userId);
  }

  /** The code, checked; null when it is wrong (counted). Throws TooManyRequests while the account is locked here. */
  async execute(userId: number, typed: string, address: string): Promise<CheckedCode | null> {
    const credential = `user:${userId}`;
    await this.throttle.ensureAllowed(credential, address);
    const checked = await this.check(userId, typed);
    if (checked) await this.throttle.recordSuccess(credential, address);
    else await this.throttle.recordFailure(credential, address);
    return checked;
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

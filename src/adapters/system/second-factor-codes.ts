import { randomInt } from 'node:crypto';
import { Secret, TOTP as Totp } from 'otpauth';
import type { SecondFactorCodes } from '../../application/second-factors/ports.js';
import { TOTP } from '../../domain/users/second-factor.js';

/** Letters and digits of recovery codes. */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** RFC 6238 by otpauth, with the domain's parameters (SHA-1, six digits, 30 s, ±1 step); recovery codes by node:crypto. */
export class OtpauthSecondFactorCodes implements SecondFactorCodes {
  newTotpSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  totpUri(secret: string, account: string, issuer: string): string {
    return this.totp(secret, account, issuer).toString();
  }

  totpStep(secret: string, code: string, at: Date): number | null {
    const delta = this.totp(secret).validate({ token: code, timestamp: at.getTime(), window: TOTP.window });
    if (delta === null) return null;
    return Math.floor(at.getTime() / 1000 / TOTP.periodSeconds) + delta;
  }

  newRecoveryCode(): string {
    return Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  }

  private totp(secret: string, label = 'forum', issuer = ''): Totp {
    return new Totp({
      issuer,
      label,
      secret: Secret.fromBase32(secret),
      algorithm: TOTP.algorithm,
      digits: TOTP.digits,
      period: TOTP.periodSeconds,
    });
  }
}

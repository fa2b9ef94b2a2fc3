import { dictionary } from '@zxcvbn-ts/language-common';
import type { CommonPasswords } from '../../domain/users/password.js';

/** How many of the most common passwords are refused (contract §16b). */
export const COMMON_PASSWORDS_REFUSED = 10_000;

/**
 * The most common passwords, from zxcvbn-ts's list (ranked by how often they appear in breaches), compared without
 * regard to case: `Password1` is as common as `password1`. Built on first use (about 10,000 short strings).
 */
export class RankedCommonPasswords implements CommonPasswords {
  private refused: Set<string> | null = null;

  includes(password: string): boolean {
    this.refused ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORDS_REFUSED));
    return this.refused.has(password.toLowerCase());
  }
}

import { verify } from '@node-rs/bcrypt';
import { deviseBcryptInput, parseDevisePasswordHash } from '../../application/accounts/devise-passwords.js';

/**
 * Checks a password against a hash imported from homeland (devise's bcrypt with the site's pepper, stored as
 * `devise-passwords.ts` says). It only verifies: nothing new is ever hashed this way.
 *
 * The bcrypt gem is OpenWall's crypt_blowfish, whose `$2a$` differs from `$2b$` only on input holding a 0xff byte
 * followed by one ≥ 0x80 (its countermeasure for the old sign-extension bug): UTF-8 has no 0xff byte, so for what
 * devise hashed, `$2a$` is the `$2b$` this library computes.
 */
export class DeviseBcryptVerifier {
  /** Whether `stored` is a devise hash this verifier reads. */
  handles(stored: string): boolean {
    return parseDevisePasswordHash(stored) !== null;
  }

  /** False for a wrong password and for anything that is not a devise hash; never throws. */
  async verify(stored: string, password: string): Promise<boolean> {
    const parsed = parseDevisePasswordHash(stored);
    if (!parsed) return false;
    try {
      return await verify(deviseBcryptInput(password, parsed.pepper), parsed.bcrypt);
    } catch {
      return false;
    }
  }
}

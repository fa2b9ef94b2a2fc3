import type { PasswordHasher } from '../../application/ports.js';
import type { Argon2PasswordHasher } from './argon2-hasher.js';
import type { DeviseBcryptVerifier } from './devise-bcrypt-verifier.js';

/**
 * The password hasher the service uses: new hashes are argon2id; a stored hash is checked by the kind it is, our
 * argon2id or a devise bcrypt hash imported from homeland (contract §20), which `needsRehash` then asks to replace.
 * A hash of any other kind matches no password.
 */
export class PasswordHashers implements PasswordHasher {
  constructor(
    private readonly argon2: Argon2PasswordHasher,
    private readonly devise: DeviseBcryptVerifier,
  ) {}

  hash(password: string): Promise<string> {
    return this.argon2.hash(password);
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    if (this.devise.handles(passwordHash)) return this.devise.verify(passwordHash, password);
    return this.argon2.verify(passwordHash, password);
  }

  needsRehash(passwordHash: string): boolean {
    return this.argon2.needsRehash(passwordHash);
  }
}

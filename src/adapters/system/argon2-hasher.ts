import { hash, verify } from '@node-rs/argon2';
import type { PasswordHasher } from '../../application/ports.js';

/** Argon2id, a slow password hash made for the job (prebuilt binary, no install script): every hash we make. */
export class Argon2PasswordHasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return hash(password);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  }

  /** Whether `passwordHash` is not one of ours (an imported devise hash, contract §20): replace it at the next sign-in. */
  needsRehash(passwordHash: string): boolean {
    return !passwordHash.startsWith('$argon2id$');
  }
}

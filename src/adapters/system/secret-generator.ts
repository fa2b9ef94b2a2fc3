import { createHash, randomBytes } from 'node:crypto';
import type { SecretGenerator } from '../../application/ports.js';

/**
 * 256-bit random tokens. They are stored as SHA-256 digests: the secret has full entropy, so a fast digest is
 * enough (a slow hash is for guessable passwords) and lookups stay a single indexed equality.
 */
export class RandomSecretGenerator implements SecretGenerator {
  generate(): string {
    return randomBytes(32).toString('base64url');
  }

  digest(secret: string): string {
    return createHash('sha256').update(secret).digest('hex');
  }
}

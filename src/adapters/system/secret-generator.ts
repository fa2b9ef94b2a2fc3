import { hash, randomBytes } from 'node:crypto';
import { SECRET_DIGEST, type SecretGenerator } from '../../application/ports.js';

/**
 * 256-bit random tokens, in hex: safe in URLs, headers and shells, and never starting with "-" (which a command
 * line would take for an option). They are stored as SHA-256 digests: the secret has full entropy, so a fast digest is
 * enough (a slow hash is for guessable passwords) and lookups stay a single indexed equality.
 */
export class RandomSecretGenerator implements SecretGenerator {
  generate(): string {
    return randomBytes(32).toString('hex');
  }

  digest(secret: string): string {
    // One call, no Hash object: every authenticated request digests its token (half the CPU of createHash).
    return hash(SECRET_DIGEST.algorithm, secret, SECRET_DIGEST.encoding);
  }
}

import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { MailTokenKeys } from '../../application/ports.js';

/**
 * Mail tokens as HMAC-SHA256 of a random id under the server's secret key, base64url (43 characters). The id
 * alone (in a job, in a dump) makes no token without the key; the digest alone makes none at all.
 */
export class HmacMailTokenKeys implements MailTokenKeys {
  constructor(private readonly secretKey: string) {}

  newId(): string {
    return randomBytes(16).toString('hex');
  }

  tokenFor(id: string): string {
    return createHmac('sha256', this.secretKey).update(`mail-token:${id}`).digest('base64url');
  }

  digest(token: string): string {
    return createHash('sha256').update(token).digest('hex');
  }
}

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PersonalTokenKeys } from '../../application/tokens/personal-tokens.js';

/** What every personal token starts with, for secret scanners (as GitHub's `ghp_`). */
export const PERSONAL_TOKEN_PREFIX = 'fpat_';

const RANDOM_BYTES = 28;
const USER_BYTES = 4;
const MAC_BYTES = 16;
/** 48 bytes: 64 base64url characters, no padding. */
const BODY = new RegExp(`^${PERSONAL_TOKEN_PREFIX}([A-Za-z0-9_-]{64})$`);

/**
 * Personal tokens as `fpat_` and 64 base64url characters: 224 random bits, the user's id (32 bits) and 128 bits of
 * HMAC-SHA256 of both under the server's secret key. Checking one costs a MAC and no lookup. The key is read when
 * first needed (a process that never meets a personal token reads none).
 */
export class HmacPersonalTokenKeys implements PersonalTokenKeys {
  private key: string | null = null;

  constructor(private readonly secretKey: () => string) {}

  issue(userId: number): string {
    const random = randomBytes(RANDOM_BYTES);
    const user = Buffer.alloc(USER_BYTES);
    user.writeUInt32BE(userId);
    return PERSONAL_TOKEN_PREFIX + Buffer.concat([random, user, this.mac(random, user)]).toString('base64url');
  }

  holderOf(token: string): number | null {
    if (!token.startsWith(PERSONAL_TOKEN_PREFIX)) return null;
    const match = BODY.exec(token);
    if (!match) return null;
    const body = Buffer.from(match[1]!, 'base64url');
    const random = body.subarray(0, RANDOM_BYTES);
    const user = body.subarray(RANDOM_BYTES, RANDOM_BYTES + USER_BYTES);
    const presented = body.subarray(RANDOM_BYTES + USER_BYTES);
    if (!timingSafeEqual(presented, this.mac(random, user))) return null;
    const userId = user.readUInt32BE();
    return userId > 0 ? userId : null;
  }

  private mac(random: Buffer, user: Buffer): Buffer {
    this.key ??= this.secretKey();
    return createHmac('sha256', this.key).update('personal-token:').update(random).update(user).digest().subarray(0, MAC_BYTES);
  }
}

import { createHmac } from 'node:crypto';

/**
 * RFC 6238 (TOTP) over RFC 4226 (HOTP), written here from the RFCs with node:crypto's HMAC-SHA-1, so that the tests
 * check the service's codes (otpauth) against an implementation of their own. test/unit/totp.test.ts holds it to
 * the RFC's test vectors.
 */

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, as authenticator apps take keys (padding and spaces ignored, any case). */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4226 §5.3: HMAC-SHA-1 of the 8-byte counter, dynamically truncated, modulo 10^digits. */
export function hotp(key: Buffer, counter: number, digits = 6): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', key).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const binary = ((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

/** RFC 6238 §4: the step of a time (30-second steps from the Unix epoch). */
export const stepAt = (atMs: number, periodSeconds = 30): number => Math.floor(atMs / 1000 / periodSeconds);

/** The code of a base32 key at a time step (now's, unless told). */
export function totpCode(base32Key: string, step = stepAt(Date.now()), digits = 6): string {
  return hotp(base32Decode(base32Key), step, digits);
}

import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MailList, MailTokenKeys } from '../../application/ports.js';

/** A list's letter in an unsubscribe key (a topic id is digits, so the two kinds of key never read as each other). */
const LIST_LETTER: Record<MailList, string> = { notifications: 'n', digest: 'd', messages: 'm' };
const LIST_OF_LETTER: Record<string, MailList> = { n: 'notifications', d: 'digest', m: 'messages' };

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

  replyKey(userId: number, topicId: number): string {
    return `${userId}-${topicId}-${this.mac(`reply:${userId}:${topicId}`)}`;
  }

  readReplyKey(key: string): { userId: number; topicId: number } | null {
    const match = /^([1-9][0-9]{0,9})-([1-9][0-9]{0,9})-([0-9a-f]{32})$/.exec(key.toLowerCase());
    if (!match) return null;
    const [, user, topic, mac] = match;
    if (!this.sameMac(mac!, `reply:${user}:${topic}`)) return null;
    return { userId: Number(user), topicId: Number(topic) };
  }

  unsubscribeKey(userId: number, list: MailList): string {
    return `${userId}-${LIST_LETTER[list]}-${this.mac(`unsubscribe:${userId}:${list}`)}`;
  }

  readUnsubscribeKey(key: string): { userId: number; list: MailList } | null {
    const match = /^([1-9][0-9]{0,9})-([ndm])-([0-9a-f]{32})$/.exec(key.toLowerCase());
    if (!match) return null;
    const [, user, letter, mac] = match;
    const list = LIST_OF_LETTER[letter!]!;
    if (!this.sameMac(mac!, `unsubscribe:${user}:${list}`)) return null;
    return { userId: Number(user), list };
  }

  /** 128 bits of HMAC-SHA256 under the key, lower-case hex. */
  private mac(message: string): string {
    return createHmac('sha256', this.secretKey).update(message).digest('hex').slice(0, 32);
  }

  private sameMac(presented: string, message: string): boolean {
    return timingSafeEqual(Buffer.from(presented), Buffer.from(this.mac(message)));
  }
}

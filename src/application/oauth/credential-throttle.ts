import { TooManyRequests } from '../../domain/shared/errors.js';
import type { Clock } from '../ports.js';
import { type ThrottleCounts, secondsUntil } from '../throttles/throttle-counts.js';

/**
 * Counts failed attempts at a credential (a user's password, a client application's secret) in a store every
 * server process shares, the way the big sites do: per credential and client address, and per address alone.
 * The credential is named by what it is (`user:42`), never by how the caller spelled it, so a login and an
 * e-mail address share one count. A stranger failing from elsewhere never locks the owner out: the owner's own
 * address has its own count. Each count lives for a window and then starts again.
 */
export interface CredentialThrottle {
  /**
   * Throws TooManyRequests (with the seconds to wait) while this pair, or this address, is over its limit. With
   * `address: false` only the pair's limit applies: for a request that already proved itself some other way (a
   * valid refresh token), which the guessing of others from the same address (one NAT) must not refuse.
   */
  ensureAllowed(credential: string, address: string, limits?: { address: boolean }): Promise<void>;
  recordFailure(credential: string, address: string): Promise<void>;
  /** Success clears the pair's count (not the address's). */
  recordSuccess(credential: string, address: string): Promise<void>;
}
export const CredentialThrottle = Symbol.for('CredentialThrottle');

/** How many failures are allowed in a window: per credential and address, and per address. */
export interface CredentialLimits {
  perAccount: number;
  perAddress: number;
  windowSeconds: number;
}

/** The credential throttle over the throttles' one store (ThrottleCounts): a window starts at a first failure. */
export class CountedCredentialThrottle implements CredentialThrottle {
  constructor(
    private readonly counts: ThrottleCounts,
    private readonly limits: CredentialLimits,
    private readonly clock: Clock,
  ) {}

  async ensureAllowed(credential: string, address: string, limits = { address: true }): Promise<void> {
    const now = this.clock.now();
    const pair = pairKey(credential, address);
    const keys = limits.address ? [pair, addressKey(address)] : [pair];
    const over = (await this.counts.read(keys, now)).filter(
      (count) => count.count >= (count.key === pair ? this.limits.perAccount : this.limits.perAddress),
    );
    if (over.length === 0) return;
    const endsAt = new Date(Math.max(...over.map((count) => count.endsAt.getTime())));
    throw new TooManyRequests(secondsUntil(endsAt, now), 'Too many failed attempts, try again later');
  }

  async recordFailure(credential: string, address: string): Promise<void> {
    const now = this.clock.now();
    const endsAt = new Date(now.getTime() + this.limits.windowSeconds * 1000);
    await this.counts.add(
      [pairKey(credential, address), addressKey(address)].map((key) => ({ key, amount: 1, endsAt })),
      now,
    );
  }

  async recordSuccess(credential: string, address: string): Promise<void> {
    await this.counts.clear([pairKey(credential, address)]);
  }
}

const pairKey = (credential: string, address: string) => `credential:pair:${credential}|${address}`;
const addressKey = (address: string) => `credential:address:${address}`;

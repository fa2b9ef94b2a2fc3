import { TooManyRequests } from '../../domain/shared/errors.js';
import type { Clock } from '../ports.js';
import { type ThrottleCounts, secondsUntil } from '../throttles/throttle-counts.js';

/** What is counted: each of these sends mail, so each is limited (contract §16b). */
export type AccountAction = 'sign_up' | 'forgot' | 'resend';

/**
 * Limits the account actions that send mail, per client address and per target (the address or login asked
 * about, as typed, lower-cased), over every process. The target is counted whether or not it is an account, so
 * that the limit tells nothing about which are.
 */
export interface AccountThrottle {
  /** Counts one attempt; throws TooManyRequests when the address or the target is over its limit. */
  attempt(action: AccountAction, address: string, target: string): Promise<void>;
}
export const AccountThrottle = Symbol.for('AccountThrottle');

export interface AccountThrottleLimits {
  perAddress: number;
  perTarget: number;
  windowSeconds: number;
}

/** One hour: a person who lost a mail asks again a few times; a script asking for thousands is stopped early. */
export const ACCOUNT_THROTTLE_LIMITS: AccountThrottleLimits = { perAddress: 20, perTarget: 5, windowSeconds: 3600 };

/** The account throttle over the throttles' one store (ThrottleCounts): a window starts at a first attempt. */
export class CountedAccountThrottle implements AccountThrottle {
  constructor(
    private readonly counts: ThrottleCounts,
    private readonly limits: AccountThrottleLimits,
    private readonly clock: Clock,
  ) {}

  async attempt(action: AccountAction, address: string, target: string): Promise<void> {
    const now = this.clock.now();
    const endsAt = new Date(now.getTime() + this.limits.windowSeconds * 1000);
    const byAddress = `account:${action}:address:${address}`;
    const byTarget = `account:${action}:target:${target.trim().toLowerCase()}`;
    const counts = await this.counts.add(
      [byAddress, byTarget].map((key) => ({ key, amount: 1, endsAt })),
      now,
    );
    const over = counts.filter(
      (count) => count.count > (count.key === byAddress ? this.limits.perAddress : this.limits.perTarget),
    );
    if (over.length === 0) return;
    throw new TooManyRequests(secondsUntil(new Date(Math.max(...over.map((count) => count.endsAt.getTime()))), now));
  }
}

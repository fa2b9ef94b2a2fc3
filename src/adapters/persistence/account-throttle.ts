import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RateLimiterPostgres, RateLimiterRes } from 'rate-limiter-flexible';
import type { AccountAction, AccountThrottle } from '../../application/accounts/account-throttle.js';
import { TooManyRequests } from '../../domain/shared/errors.js';

export interface AccountThrottleLimits {
  perAddress: number;
  perTarget: number;
  windowSeconds: number;
}

/** One hour: a person who lost a mail asks again a few times; a script asking for thousands is stopped early. */
export const ACCOUNT_THROTTLE_LIMITS: AccountThrottleLimits = { perAddress: 20, perTarget: 5, windowSeconds: 3600 };

/**
 * Account actions counted in the table the password throttle uses (login_throttle, every process shares it),
 * under keys of their own. Targets are kept as digests: the table never holds the addresses people typed.
 */
export class PostgresAccountThrottle implements AccountThrottle {
  private readonly limiters = new Map<string, RateLimiterPostgres>();

  constructor(
    private readonly em: EntityManager,
    private readonly limits: AccountThrottleLimits,
  ) {}

  async attempt(action: AccountAction, address: string, target: string): Promise<void> {
    try {
      await Promise.all([
        this.limiter(action, 'address', this.limits.perAddress).consume(digest(address)),
        this.limiter(action, 'target', this.limits.perTarget).consume(digest(target.trim().toLowerCase())),
      ]);
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      throw new TooManyRequests(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
    }
  }

  private limiter(action: AccountAction, kind: string, points: number): RateLimiterPostgres {
    const key = `${action}-${kind}`;
    let limiter = this.limiters.get(key);
    if (!limiter) {
      limiter = new RateLimiterPostgres({
        storeClient: this.em.getKnex(),
        storeType: 'knex',
        tableName: 'login_throttle',
        tableCreated: true,
        clearExpiredByTimeout: false,
        keyPrefix: key,
        points,
        duration: this.limits.windowSeconds,
      });
      this.limiters.set(key, limiter);
    }
    return limiter;
  }
}

function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

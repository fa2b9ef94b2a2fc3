import type { Context, Next } from 'koa';
import type { WindowLimiter } from './window-limiter.js';
import { TooManyRequests } from '../../domain/shared/errors.js';
import { personalClaimOf, tokenDigestOf } from './auth.js';

export interface RateLimits {
  limiter: WindowLimiter;
  /** Requests per minute per token, and per client address; 0: no limit of that kind. */
  perToken: number;
  perAddress: number;
}

/**
 * Contract §15's API rate limits: every request under the API counts against its client address and, with a
 * token, against the token (by the digest nameCaller made of it: the table never holds a token). Every response says where the caller
 * stands (`X-RateLimit-*`: the token's limit when there is a token, the address's otherwise); past either limit,
 * 429 with `Retry-After`. Runs before authentication, so that a flood costs no token lookups.
 *
 * Personal access tokens count as their user (contract §25): all of a person's personal tokens share one budget,
 * so making more tokens buys no more requests. Who the user is comes from the token itself, whose MAC under the
 * server's key nameCaller checked (CPU only, no lookup): a flood stays as cheap, and a forged token cannot name
 * someone else to spend their budget (its MAC fails, and it counts under its own digest like any unknown token).
 * A revoked personal token still carries a good MAC and still counts against its user: only someone who once held
 * that user's token can spend their budget that way, and the address limit bounds them too.
 */
export function rateLimit(limits: RateLimits, prefix: string) {
  return (ctx: Context, next: Next): Promise<void> => {
    if (!ctx.path.startsWith(`${prefix}/`)) return next();
    const token = limits.perToken > 0 ? tokenDigestOf(ctx) : undefined;
    const personal = token === undefined ? null : personalClaimOf(ctx);
    const keys = [`address:${ctx.ip}`];
    if (token !== undefined) keys.push(personal ? `user:${personal.userId}` : `token:${token}`);
    const [byAddress = 0, byToken = 0] = limits.limiter.hit(keys);
    const resetAt = limits.limiter.resetAt();
    const [limit, used] = token !== undefined ? [limits.perToken, byToken] : [limits.perAddress, byAddress];
    if (limit > 0) {
      ctx.set('X-RateLimit-Limit', String(limit));
      ctx.set('X-RateLimit-Remaining', String(Math.max(0, limit - used)));
      ctx.set('X-RateLimit-Reset', String(Math.ceil(resetAt / 1000)));
    }
    const overAddress = limits.perAddress > 0 && byAddress > limits.perAddress;
    const overToken = token !== undefined && byToken > limits.perToken;
    if (overAddress || overToken) {
      const wait = Math.max(1, Math.ceil((resetAt - Date.now()) / 1000));
      throw new TooManyRequests(
        wait,
        `Rate limit exceeded: ${overToken ? `${limits.perToken} requests a minute for ${personal ? 'the personal tokens of this account' : 'this token'}` : `${limits.perAddress} requests a minute from this address`}; try again in ${wait} s`,
      );
    }
    return next();
  };
}

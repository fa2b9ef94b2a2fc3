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

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

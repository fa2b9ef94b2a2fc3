/**
 * A person's second factor (contract §25): a TOTP authenticator (RFC 6238) and ten single-use recovery codes. The
 * rules that need no machine: what a typed code is, and that a time step once accepted is never accepted again.
 */

/** RFC 6238 as every authenticator app does it: HMAC-SHA-1, six digits, 30-second steps; ±1 step of clock drift. */
export const TOTP = { algorithm: 'SHA1', digits: 6, periodSeconds: 30, window: 1 } as const;

/** How many recovery codes a person gets at a time; each works once. */
export const RECOVERY_CODE_COUNT = 10;

/** What a person typed as their second factor: a TOTP code, or one of their recovery codes. */
export type TypedCode = { kind: 'totp'; code: string } | { kind: 'recovery'; code: string };

/**
 * Reads a typed code, forgiving the spaces and dashes people type: six digits are an authenticator's code, ten
 * letters and digits a recovery code (as RecoveryCodes.make writes them, `xxxxx-xxxxx`, in any case). Anything
 * else is no code (null).
 */
export function readCode(typed: string): TypedCode | null {
  const bare = typed.replace(/[\s-]/g, '').toLowerCase();
  if (/^[0-9]{6}$/.test(bare)) return { kind: 'totp', code: bare };
  if (/^[a-z0-9]{10}$/.test(bare)) return { kind: 'recovery', code: bare };
  return null;
}

/** A recovery code as it is shown: two groups of five. */
export const shownRecoveryCode = (code: string): string => `${code.slice(0, 5)}-${code.slice(5)}`;

/**
 * Whether a code of time step `step` may be accepted now: never one of the step last accepted, nor of an earlier
 * one (a code seen over a shoulder, or caught in transit, is spent the moment its owner used it).
 */
export const acceptsStep = (lastAccepted: number | null, step: number): boolean => lastAccepted === null || step > lastAccepted;

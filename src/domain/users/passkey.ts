/**
 * A person's passkeys (contract §25): WebAuthn credentials that count as a second factor, each named by its owner.
 * The rules that need no machine: how long a ceremony's challenge lives, how many passkeys one account keeps, what
 * a name is.
 */

/** How long a browser has to finish a passkey ceremony (the authenticator's prompt) once it asked for options. */
export const PASSKEY_CEREMONY_SECONDS = 300;

/** Passkeys one account may keep: more than anyone carries, few enough to list on one page. */
export const MAX_PASSKEYS = 20;

/** The longest name a person may give a passkey. */
export const PASSKEY_NAME_MAX = 60;

/** A passkey as its owner sees it in their settings (never its key). */
export interface PasskeySummary {
  id: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

import type { Scope } from '../tokens/scopes.js';

/**
 * The port that keeps authorization codes: the authorization endpoint adds them (`ApproveAuthorization`), the
 * token endpoint redeems them (`RedeemAuthorizationCode`) and maintenance purges them (`PurgeTokens`).
 */

/** What is stored of an authorization code: its digest, never the code. */
export interface StoredAuthorizationCode {
  id: number;
  clientId: number;
  userId: number;
  redirectUri: string;
  /** BASE64URL(SHA256(code_verifier)). */
  codeChallenge: string;
  scope: Scope;
  expiresAt: Date;
  usedAt: Date | null;
}

export interface AuthorizationCodeStore {
  add(code: Omit<StoredAuthorizationCode, 'id' | 'usedAt'> & { digest: string; createdAt: Date }): Promise<void>;
  byDigest(digest: string): Promise<StoredAuthorizationCode | null>;
  /** Marks a code used; false when it already was (two exchanges racing: only one wins). */
  consume(id: number, now: Date): Promise<boolean>;
  /** Deletes codes that expired before `before`; returns how many. */
  purge(before: Date): Promise<number>;
}
export const AuthorizationCodeStore = Symbol.for('AuthorizationCodeStore');

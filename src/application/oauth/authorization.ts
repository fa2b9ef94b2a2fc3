import type { ActingUser } from '../actor.js';
import type { Presence } from '../accounts/presence.js';
import type { Clock, SecretGenerator } from '../ports.js';
import type { AccessTokenStore } from '../tokens/access-tokens.js';
import { type Scope, grantedScope } from '../tokens/scopes.js';
import type { AuthorizationCodeStore, StoredAuthorizationCode } from './authorization-codes.js';
import type { ClientApp, ClientStore } from './clients.js';

/**
 * The authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636; contract §10): the rules of the
 * authorization endpoint, and the codes it hands out. The token endpoint's side (a code and its verifier
 * exchanged for a token) is run by the OAuth library over `RedeemAuthorizationCode`.
 *
 * The library's own authorization handler is not used for the authorization endpoint: it lets PKCE be left
 * out (we require S256 for every client, RFC 9700 §2.1.1), it loses the error of a refusal sent to a redirect
 * URI that has a query of its own, and it expects the user to be known within the one request, where here a
 * person signs in and then consents on pages of their own.
 */

/** A code is good for this long, and only once (RFC 6749 §4.1.2 says ten minutes at most). */
export const AUTHORIZATION_CODE_SECONDS = 600;

/** The refusals of the authorization endpoint (RFC 6749 §4.1.2.1). */
export type AuthorizationError = 'invalid_request' | 'access_denied' | 'unsupported_response_type' | 'invalid_scope';

/**
 * Why an authorization request is refused. With `redirectTo` the application is told, by sending the browser
 * there with `error` (RFC 6749 §4.1.2.1); without it (an unknown application, a redirect URI it did not
 * register) only the person is, on a page: sending them to an unverified address would make the service an
 * open redirector.
 */
export class AuthorizationRefused extends Error {
  constructor(
    readonly error: AuthorizationError,
    readonly description: string,
    readonly redirectTo: string | null,
  ) {
    super(description);
  }
}

/** A valid request to authorize an application: what the consent page shows, and what approving it grants. */
export interface AuthorizationRequest {
  client: ClientApp;
  redirectUri: string;
  state: string;
  scope: Scope;
  codeChallenge: string;
}

/** The redirect URI with these parameters added to its query (what it already has is kept). */
export function redirectWith(redirectUri: string, parameters: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.href;
}

/** RFC 6749 Appendix A: state, like the other parameters, is printable ASCII. */
const VSCHAR = /^[\x20-\x7e]+$/;
/** A S256 challenge is the base64url form of 32 bytes: exactly 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
const MAX_STATE_LENGTH = 500;

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Checks an authorization request (the query of GET /oauth/authorize, or the consent form posting it back).
 * The application and its redirect URI are checked first, since until both are known good nothing may be
 * sent there; everything after that is refused by redirecting with the error.
 */
export class CheckAuthorizationRequest {
  constructor(private readonly clients: ClientStore) {}

  async execute(parameters: Record<string, unknown>): Promise<AuthorizationRequest> {
    const clientId = text(parameters.client_id);
    const client = clientId && clientId.length <= 128 && VSCHAR.test(clientId) ? await this.clients.byClientId(clientId) : null;
    if (!client) throw new AuthorizationRefused('invalid_request', 'No application is registered with this client_id.', null);
    const redirectUri = text(parameters.redirect_uri);
    if (!redirectUri) throw new AuthorizationRefused('invalid_request', 'The request names no redirect_uri.', null);
    if (!client.redirectUris.includes(redirectUri)) {
      throw new AuthorizationRefused(
        'invalid_request',
        `The redirect_uri is not one ${client.name} registered, so you are not sent there.`,
        null,
      );
    }

    const state = text(parameters.state);
    const refuse = (error: AuthorizationError, description: string) =>
      new AuthorizationRefused(
        error,
        description,
        redirectWith(redirectUri, {
          error,
          error_description: description,
          ...(state && VSCHAR.test(state) && state.length <= MAX_STATE_LENGTH ? { state } : {}),
        }),
      );
    if (parameters.response_type !== 'code') {
      throw refuse('unsupported_response_type', 'response_type must be code (the authorization code grant).');
    }
    if (!state || !VSCHAR.test(state) || state.length > MAX_STATE_LENGTH) {
      throw refuse('invalid_request', 'state is required: printable ASCII, at most 500 characters.');
    }
    if (parameters.code_challenge_method !== 'S256') {
      throw refuse('invalid_request', 'PKCE is required, with code_challenge_method=S256.');
    }
    const codeChallenge = text(parameters.code_challenge);
    if (!codeChallenge || !S256_CHALLENGE.test(codeChallenge)) {
      throw refuse('invalid_request', 'code_challenge must be BASE64URL(SHA256(code_verifier)): 43 characters.');
    }
    const requested = parameters.scope === undefined ? undefined : parameters.scope;
    if (requested !== undefined && typeof requested !== 'string') throw refuse('invalid_scope', 'scope must be a string.');
    const scope = grantedScope(requested?.split(' ').filter((part) => part !== ''));
    if (!scope) throw refuse('invalid_scope', 'The scope may be all, read, or both.');
    return { client, redirectUri, state, scope, codeChallenge };
  }
}

/** The person approved: a code for the application, sent to its redirect URI with the state it gave. */
export class ApproveAuthorization {
  constructor(
    private readonly codes: AuthorizationCodeStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(request: AuthorizationRequest, user: ActingUser): Promise<string> {
    const code = this.secrets.generate();
    const now = this.clock.now();
    await this.codes.add({
      digest: this.secrets.digest(code),
      clientId: request.client.id,
      userId: user.id,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      scope: request.scope,
      expiresAt: new Date(now.getTime() + AUTHORIZATION_CODE_SECONDS * 1000),
      createdAt: now,
    });
    return redirectWith(request.redirectUri, { code, state: request.state });
  }
}

/** The person said no: the application learns it, and nothing else. */
export function deniedRedirect(request: AuthorizationRequest): string {
  return redirectWith(request.redirectUri, {
    error: 'access_denied',
    error_description: 'The user did not authorize the application.',
    state: request.state,
  });
}

/**
 * The token endpoint's side of a code. A code that comes back after it was used means someone else holds
 * it: the tokens it gave are revoked (RFC 6749 §4.1.2), whoever has them.
 */
export class RedeemAuthorizationCode {
  constructor(
    private readonly codes: AuthorizationCodeStore,
    private readonly tokens: AccessTokenStore,
    private readonly secrets: SecretGenerator,
    private readonly clock: Clock,
    private readonly presence: Presence,
  ) {}

  /** The code, if it was issued and not used yet (an expired one too: the caller says so). */
  async lookup(code: string): Promise<StoredAuthorizationCode | null> {
    if (!code || code.length > 512) return null;
    const stored = await this.codes.byDigest(this.secrets.digest(code));
    if (!stored) return null;
    if (stored.usedAt !== null) {
      await this.tokens.revokeFamiliesOfCode(stored.id, this.clock.now());
      return null;
    }
    return stored;
  }

  /** Uses the code up, before anything else is checked: a wrong verifier costs the code (no guessing). */
  async consume(id: number, userId: number): Promise<boolean> {
    const now = this.clock.now();
    const consumed = await this.codes.consume(id, now);
    // The application signs its user in with the code (contract §17's "seen", what digests go by).
    if (consumed) await this.presence.seen({ userId }, now);
    return consumed;
  }
}

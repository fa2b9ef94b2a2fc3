import Router from '@koa/router';
import OAuth2Server, {
  InvalidGrantError,
  InvalidScopeError,
  OAuthError,
  Request as OAuthRequest,
  Response as OAuthResponse,
} from '@node-oauth/oauth2-server';
import type { RedeemAuthorizationCode } from '../../../application/oauth/authorization.js';
import type { AuthenticateClient } from '../../../application/oauth/clients.js';
import { AccountNotActive, type PasswordLogin, SecondFactorRequired } from '../../../application/oauth/password-login.js';
import type {
  DescribeToken,
  IssuedToken,
  IssueToken,
  LookupRefreshToken,
  RefreshGrant,
  RevokeToken,
} from '../../../application/tokens/access-tokens.js';
import { type Scope, grantedScope, refreshedScope } from '../../../application/tokens/scopes.js';
import { DomainError } from '../../../domain/shared/errors.js';
import type { Params } from '../params.js';
import { z } from 'zod';
import { IntrospectionSchema, TokenInfoSchema, TokenSchema } from '../../presentation/schemas.js';
import { bearerToken } from '../auth.js';
import { type ApiDescription, OAuthErrorSchema as OAUTH_ERROR } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

/** What a confidential client may ask for; a public one (no secret) signs users in with PKCE, and refreshes. */
const CONFIDENTIAL_GRANTS = ['authorization_code', 'password', 'refresh_token', 'client_credentials'];
const PUBLIC_GRANTS = ['authorization_code', 'refresh_token'];

/** The one scope a grant's scope list (the library's arrays) comes to; false when it asks for one that does not exist. */
function oneScope(scope: string[] | undefined): [Scope] | false {
  const granted = grantedScope(scope);
  return granted ? [granted] : false;
}

/** What the token endpoints call. */
export interface OAuthRouteUseCases {
  authenticateClient: AuthenticateClient;
  passwordLogin: PasswordLogin;
  issueToken: IssueToken;
  lookupRefreshToken: LookupRefreshToken;
  redeemAuthorizationCode: RedeemAuthorizationCode;
  revokeToken: RevokeToken;
  describeToken: DescribeToken;
}
export const OAuthRouteUseCases = Symbol.for('OAuthRouteUseCases');

/**
 * The library's model, for one request: each callback is a call into the application. Tokens are issued by our
 * own IssueToken (digests stored, `created_at` included) and handed back to the glue as `issued`.
 */
function oauthModel(app: OAuthRouteUseCases, address: string, params: Record<string, string>) {
  const requestedScope = params.scope;
  /** The client this request authenticated (the library asks for it first). */
  let requestingClientId: number | null = null;
  /** A refresh grant's token, looked up once: before the client's secret is checked, and for the grant itself. */
  let presentedRefresh: Promise<RefreshGrant | null> | undefined;
  const lookupRefresh = (refreshToken: string) =>
    refreshToken === params.refresh_token
      ? (presentedRefresh ??= app.lookupRefreshToken.execute(refreshToken))
      : app.lookupRefreshToken.execute(refreshToken);
  /** When refreshing: the family of the refresh token being rotated, which the new pair joins. */
  let refreshedFamily: number | undefined;
  /** When exchanging a code: its id, so that a replay of it can revoke what it gave. */
  let redeemedCode: number | undefined;
  return {
    async getClient(clientId: string, clientSecret: string | undefined) {
      // A live refresh token is not a guess: its refresh passes the lock on this address (one NAT may share it
      // with someone guessing passwords). An unknown or used one changes nothing (and a used one revokes its family).
      const refreshGrant =
        params.grant_type === 'refresh_token' && clientSecret && params.refresh_token
          ? await lookupRefresh(params.refresh_token)
          : null;
      const client = await app.authenticateClient.execute({
        clientId,
        clientSecret,
        address,
        ...(refreshGrant ? { refreshTokenOf: refreshGrant.clientId } : {}),
      });
      requestingClientId = client?.id ?? null;
      return client ? { id: client.id, grants: client.public ? PUBLIC_GRANTS : CONFIDENTIAL_GRANTS } : false;
    },
    async getUser(username: string, password: string) {
      try {
        return (await app.passwordLogin.execute({ username, password, address, otp: params.otp })) ?? false;
      } catch (error) {
        // Both said only after the right password (contract §25: "second factor required").
        if (error instanceof AccountNotActive || error instanceof SecondFactorRequired)
          throw new InvalidGrantError(error.message);
        throw error;
      }
    },
    /** Client credentials: a token with no user behind it. */
    async getUserFromClient() {
      return { id: null };
    },
    async validateScope(_user: unknown, _client: unknown, scope?: string[]) {
      return oneScope(scope);
    },
    async saveToken(generated: { scope?: string[] }, client: { id: number }, user: { id: number | null }) {
      const scope = oneScope(generated.scope);
      if (!scope) return false;
      const issued = await app.issueToken.execute({
        userId: user.id,
        clientId: client.id,
        scope: scope[0],
        familyId: refreshedFamily,
        codeId: redeemedCode,
      });
      return {
        accessToken: issued.access_token,
        refreshToken: issued.refresh_token,
        scope: [issued.scope],
        client,
        user,
        issued,
      };
    },
    async getRefreshToken(refreshToken: string) {
      const grant = await lookupRefresh(refreshToken);
      if (!grant) return false;
      // Checked here, before the library rotates the token: asking for more must not cost the client its refresh token.
      if (
        !refreshedScope(
          grant.scope,
          requestedScope?.split(' ').filter((part) => part !== ''),
        )
      ) {
        throw new InvalidScopeError('Invalid scope: a refresh may keep or narrow the scope, never widen it');
      }
      refreshedFamily = grant.familyId;
      return {
        refreshToken,
        refreshTokenExpiresAt: grant.refreshExpiresAt ?? undefined,
        scope: [grant.scope],
        // A refresh token issued by forumctl belongs to no client: whichever authenticated client holds it may use it.
        client: { id: grant.clientId ?? requestingClientId },
        user: { id: grant.userId },
      };
    },
    /** The code's grant; the library checks its client, expiry, redirect URI and (after using it up) the verifier. */
    async getAuthorizationCode(code: string) {
      const stored = await app.redeemAuthorizationCode.lookup(code);
      if (!stored) return false;
      return {
        authorizationCode: code,
        codeId: stored.id,
        expiresAt: stored.expiresAt,
        redirectUri: stored.redirectUri,
        scope: [stored.scope],
        client: { id: stored.clientId },
        user: { id: stored.userId },
        codeChallenge: stored.codeChallenge,
        codeChallengeMethod: 'S256',
      };
    },
    async revokeAuthorizationCode(code: { codeId: number; user: { id: number } }) {
      redeemedCode = code.codeId;
      return app.redeemAuthorizationCode.consume(code.codeId, code.user.id);
    },
    /** Rotation: the used refresh token and its access token stop working at once; a reused one is `invalid_grant`. */
    async revokeToken(token: { refreshToken: string }) {
      return app.revokeToken.execute(token.refreshToken);
    },
    async getAccessToken() {
      return false;
    },
  };
}

/** Only string parameters reach the library: anything else counts as absent (`invalid_request`). */
function stringParams(params: Params): Record<string, string> {
  return Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

/**
 * RFC 6749 token endpoint and RFC 7009 revocation, glued to @node-oauth/oauth2-server. The library insists on a
 * form body; real clients also send JSON, so it is handed the merged parameters as a form request. An
 * Authorization header that is not Basic (clients send `Bearer null` here) is not client authentication.
 */
const TokenRequest = z.object({
  grant_type: z.enum(['authorization_code', 'password', 'refresh_token', 'client_credentials']),
  code: z.string().optional().meta({ description: 'authorization_code grant: the code from the redirect' }),
  redirect_uri: z.string().optional().meta({ description: 'authorization_code grant: the one the code was sent to' }),
  code_verifier: z
    .string()
    .optional()
    .meta({ description: 'authorization_code grant: the PKCE verifier (43 to 128 characters)' }),
  username: z.string().optional().meta({ description: 'password grant: a login or an e-mail address, in any case' }),
  password: z.string().optional().meta({ description: 'password grant' }),
  otp: z
    .string()
    .optional()
    .meta({
      description:
        'password grant, for an account with two-factor sign-in: the authenticator’s code now, or a recovery code. ' +
        'Without it (and the right password): invalid_grant, "second factor required"',
    }),
  refresh_token: z.string().optional().meta({ description: 'refresh_token grant' }),
  scope: z.enum(['all', 'read']).optional().meta({ description: 'all (the default) or read; a refresh may only narrow it' }),
  client_id: z.string().optional().meta({ description: 'unless the client authenticates with HTTP Basic' }),
  client_secret: z.string().optional().meta({ description: 'confidential clients; public ones have none' }),
});

const RevokeRequest = z.object({ token: z.string().meta({ description: 'an access or a refresh token' }) });

const IntrospectRequest = z.object({
  token: z.string().meta({ description: 'an access or a refresh token' }),
  token_type_hint: z.enum(['access_token', 'refresh_token']).optional(),
  client_id: z.string().optional().meta({ description: 'unless the client authenticates with HTTP Basic' }),
  client_secret: z.string().optional(),
});

/** A confidential client's credentials: HTTP Basic (RFC 6749 §2.3.1), else `client_id` and `client_secret` parameters. */
function clientCredentials(authorization: string, params: Params): { clientId: string; clientSecret: string } | null {
  const basic = /^basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(authorization);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon > 0 ? { clientId: decoded.slice(0, colon), clientSecret: decoded.slice(colon + 1) } : null;
  }
  const { client_id: clientId, client_secret: clientSecret } = params;
  return typeof clientId === 'string' && typeof clientSecret === 'string' && clientSecret !== ''
    ? { clientId, clientSecret }
    : null;
}

/** A code exchange by a public client (its client_id alone, no secret) that sends no `code_verifier`. */
async function publicClientWithoutVerifier(
  app: OAuthRouteUseCases,
  params: Record<string, string>,
  authorization: string,
  address: string,
): Promise<boolean> {
  if (params.grant_type !== 'authorization_code' || params.code_verifier) return false;
  if (/^basic\s/i.test(authorization) || params.client_secret || !params.client_id) return false;
  // No secret: a lookup by id, never counted as a failed attempt.
  return (await app.authenticateClient.execute({ clientId: params.client_id, clientSecret: undefined, address })) !== null;
}

/**
 * A `redirect_uri` that is given but is not the one of the authorization request: RFC 6749 §5.2 calls that
 * `invalid_grant`; the library says `invalid_request`. An absent one stays `invalid_request` (a missing parameter).
 */
function redirectMismatch(error: OAuthError, params: Record<string, string>): boolean {
  return (
    error.name === 'invalid_request' &&
    params.grant_type === 'authorization_code' &&
    Boolean(params.redirect_uri) &&
    /`redirect_uri` is (invalid|not a valid URI)/.test(error.message)
  );
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

export function oauthRoutes(
  app: OAuthRouteUseCases,
  lifetimes: { accessSeconds: number; refreshSeconds: number },
  docs: ApiDescription,
): Router {
  const router = new Router();

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/oauth/token',
      summary: 'Get an access token',
      description:
        'RFC 6749: the authorization_code (with PKCE, RFC 7636), password, refresh_token and client_credentials ' +
        'grants. A form body as the RFC says, or JSON. A code works once, for 10 minutes; a wrong verifier is ' +
        'invalid_grant and uses the code up, as does a redirect_uri other than the authorization request’s; a public ' +
        'client that sends no code_verifier is invalid_request. A code used twice revokes the tokens it gave. The password grant of ' +
        'an account with two-factor sign-in also takes `otp` (a TOTP or recovery code): without it, after the right password, ' +
        '400 invalid_grant "second factor required"; a wrong one is invalid_grant. Refresh tokens rotate; ' +
        'reusing a rotated one revokes its whole family. Public clients send only their client_id. Failed attempts ' +
        'are throttled (429).',
      tag: 'OAuth',
      access: 'client',
      body: { schema: TokenRequest, media: ['form', 'json', 'multipart'] },
      response: { schema: TokenSchema, example: examples.token, description: 'The token (Cache-Control: no-store)' },
      errors: [400, 401, 429],
      oauthErrors: true,
    },
    async (ctx) => {
      const params = stringParams(ctx.state.params as Params);
      const authorization = ctx.get('authorization');
      const request = new OAuthRequest({
        method: 'POST',
        query: {},
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': '1',
          ...(/^basic\s/i.test(authorization) ? { authorization } : {}),
        },
        body: params,
      });
      const server = new OAuth2Server({
        model: oauthModel(app, ctx.ip, params),
        accessTokenLifetime: lifetimes.accessSeconds,
        refreshTokenLifetime: lifetimes.refreshSeconds,
        allowExtendedTokenAttributes: true,
        alwaysIssueNewRefreshToken: true,
        // Public clients (no secret) refresh with their client_id alone; the code grant lets them in by PKCE.
        requireClientAuthentication: { refresh_token: false },
        // The library types ids as strings; ours are numbers, which it only compares with each other.
      } as unknown as ConstructorParameters<typeof OAuth2Server>[0]);
      ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      // A public client exchanging a code without its verifier lacks a required parameter (RFC 6749 §5.2, RFC 7636
      // §4.5): `invalid_request`. The library would call it a client that did not authenticate (401 invalid_client).
      if (await publicClientWithoutVerifier(app, params, authorization, ctx.ip)) {
        ctx.status = 400;
        ctx.body = { error: 'invalid_request', error_description: 'Missing parameter: `code_verifier`' };
        return;
      }
      try {
        const token = (await server.token(request, new OAuthResponse())) as unknown as { issued: IssuedToken };
        ctx.body = token.issued;
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        const inner = (error as OAuthError & { inner?: unknown }).inner;
        if (inner instanceof DomainError || error.name === 'server_error') throw inner ?? error;
        // RFC 6749 §5.2: a client that failed to authenticate gets 401 and a challenge.
        const invalidClient = error.name === 'invalid_client';
        ctx.status = invalidClient ? 401 : error.code;
        if (invalidClient) ctx.set('WWW-Authenticate', 'Basic realm="forum"');
        ctx.body = { error: redirectMismatch(error, params) ? 'invalid_grant' : error.name, error_description: error.message };
      }
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/oauth/revoke',
      summary: 'Revoke a token',
      description: 'RFC 7009: revokes an access or refresh token with its pair. Always 200, so it reveals nothing.',
      tag: 'OAuth',
      access: 'client',
      body: { schema: RevokeRequest, media: ['form', 'json', 'multipart'] },
      response: { schema: z.strictObject({}), example: {}, description: 'Done (or nothing to do)' },
      errors: [],
    },
    async (ctx) => {
      const token = (ctx.state.params as Params).token;
      if (typeof token === 'string') await app.revokeToken.execute(token);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {};
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/oauth/introspect',
      summary: 'Introspect a token',
      description:
        'RFC 7662, for confidential clients (HTTP Basic or client_id and client_secret): whether a token is live, its ' +
        'scope, its user and its expiry. Anything not live (unknown, expired, revoked) is only `{"active":false}`.',
      tag: 'OAuth',
      access: 'client',
      body: { schema: IntrospectRequest, media: ['form', 'json', 'multipart'] },
      response: { schema: IntrospectionSchema, example: examples.introspection, description: 'The token, described' },
      errors: [401, 429],
      oauthErrors: true,
    },
    async (ctx) => {
      const params = ctx.state.params as Params;
      ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      const credentials = clientCredentials(ctx.get('authorization'), params);
      const client = credentials && (await app.authenticateClient.execute({ ...credentials, address: ctx.ip }));
      if (!client) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Basic realm="forum"');
        ctx.body = { error: 'invalid_client', error_description: 'Introspection needs client authentication' };
        return;
      }
      const token = await app.describeToken.execute(typeof params.token === 'string' ? params.token : undefined);
      ctx.body = token
        ? {
            active: true,
            scope: token.scope,
            ...(token.clientUid === null ? {} : { client_id: token.clientUid }),
            ...(token.login === null ? {} : { username: token.login }),
            token_type: token.kind === 'access' ? 'Bearer' : 'refresh_token',
            ...(token.expiresAt === null ? {} : { exp: seconds(token.expiresAt) }),
            iat: seconds(token.createdAt),
          }
        : { active: false };
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/oauth/token/info',
      summary: 'The caller’s token',
      description:
        'Doorkeeper’s token info, which homeland clients call to check a token: its user, scope, time left and ' +
        'application. A token that is not live is 401 `invalid_token`.',
      tag: 'OAuth',
      access: 'public',
      response: { schema: TokenInfoSchema, example: examples.tokenInfo, description: 'The token, described' },
      otherResponses: { 401: { schema: OAUTH_ERROR, description: 'No live access token (with WWW-Authenticate)' } },
      errors: [],
    },
    async (ctx) => {
      ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
      const token = await app.describeToken.execute(bearerToken(ctx));
      if (!token || token.kind !== 'access' || token.expiresIn === null) {
        ctx.status = 401;
        ctx.set('WWW-Authenticate', 'Bearer realm="forum", error="invalid_token"');
        ctx.body = { error: 'invalid_token', error_description: 'The access token is invalid, expired or revoked' };
        return;
      }
      ctx.body = {
        resource_owner_id: token.userId,
        scope: [token.scope],
        expires_in: token.expiresIn,
        application: { uid: token.clientUid },
        created_at: seconds(token.createdAt),
      };
    },
  );

  return router;
}

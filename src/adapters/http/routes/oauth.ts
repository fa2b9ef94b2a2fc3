import Router from '@koa/router';
import OAuth2Server, { OAuthError, Request as OAuthRequest, Response as OAuthResponse } from '@node-oauth/oauth2-server';
import type { UseCases } from '../../../application/use-cases.js';
import type { IssuedToken } from '../../../application/tokens/access-tokens.js';
import { TOKEN_SCOPE } from '../../../application/tokens/access-tokens.js';
import { DomainError } from '../../../domain/shared/errors.js';
import type { Params } from '../params.js';
import { z } from 'zod';
import { TokenSchema } from '../../presentation/schemas.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

const GRANTS = ['password', 'refresh_token', 'client_credentials'];

/**
 * The library's model, for one request: each callback is a call into the application. Tokens are issued by our
 * own IssueToken (digests stored, `created_at` included) and handed back to the glue as `issued`.
 */
function oauthModel(app: UseCases, address: string) {
  /** The client this request authenticated (the library asks for it first). */
  let requestingClientId: number | null = null;
  /** When refreshing: the family of the refresh token being rotated, which the new pair joins. */
  let refreshedFamily: number | undefined;
  return {
    async getClient(clientId: string, clientSecret: string) {
      const client = await app.authenticateClient.execute({ clientId, clientSecret, address });
      requestingClientId = client?.id ?? null;
      return client ? { id: client.id, grants: GRANTS } : false;
    },
    async getUser(username: string, password: string) {
      return (await app.passwordLogin.execute({ username, password, address })) ?? false;
    },
    /** Client credentials: a token with no user behind it. */
    async getUserFromClient() {
      return { id: null };
    },
    async validateScope(_user: unknown, _client: unknown, scope?: string[]) {
      return !scope || scope.every((s) => s === TOKEN_SCOPE) ? [TOKEN_SCOPE] : false;
    },
    async saveToken(_generated: unknown, client: { id: number }, user: { id: number | null }) {
      const issued = await app.issueToken.execute({ userId: user.id, clientId: client.id, familyId: refreshedFamily });
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
      const grant = await app.lookupRefreshToken.execute(refreshToken);
      if (!grant) return false;
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
  grant_type: z.enum(['password', 'refresh_token', 'client_credentials']),
  username: z.string().optional().meta({ description: 'password grant: a login or an e-mail address, in any case' }),
  password: z.string().optional().meta({ description: 'password grant' }),
  refresh_token: z.string().optional().meta({ description: 'refresh_token grant' }),
  scope: z.literal('all').optional(),
  client_id: z.string().optional().meta({ description: 'unless the client authenticates with HTTP Basic' }),
  client_secret: z.string().optional(),
});

const RevokeRequest = z.object({ token: z.string().meta({ description: 'an access or a refresh token' }) });

export function oauthRoutes(
  app: UseCases,
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
        'RFC 6749: the password, refresh_token and client_credentials grants. A form body as the RFC says, or JSON. ' +
        'Refresh tokens rotate; reusing a rotated one revokes its whole family. Failed attempts are throttled (429).',
      tag: 'OAuth',
      access: 'client',
      body: { schema: TokenRequest, media: ['form', 'json'] },
      response: { schema: TokenSchema, example: examples.token, description: 'The token (Cache-Control: no-store)' },
      errors: [400, 401, 429],
      oauthErrors: true,
    },
    async (ctx) => {
      const authorization = ctx.get('authorization');
      const request = new OAuthRequest({
        method: 'POST',
        query: {},
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': '1',
          ...(/^basic\s/i.test(authorization) ? { authorization } : {}),
        },
        body: stringParams(ctx.state.params as Params),
      });
      const server = new OAuth2Server({
        model: oauthModel(app, ctx.ip),
        accessTokenLifetime: lifetimes.accessSeconds,
        refreshTokenLifetime: lifetimes.refreshSeconds,
        allowExtendedTokenAttributes: true,
        alwaysIssueNewRefreshToken: true,
        // The library types ids as strings; ours are numbers, which it only compares with each other.
      } as unknown as ConstructorParameters<typeof OAuth2Server>[0]);
      ctx.set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
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
        ctx.body = { error: error.name, error_description: error.message };
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
      body: { schema: RevokeRequest, media: ['form', 'json'] },
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

  return router;
}

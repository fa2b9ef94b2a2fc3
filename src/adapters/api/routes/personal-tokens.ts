import Router from '@koa/router';
import { z } from 'zod';
import {
  type CreatePersonalToken,
  CreatePersonalTokenParams,
  type ListPersonalTokens,
  type PersonalToken,
  type RevokePersonalToken,
} from '../../../application/tokens/personal-tokens.js';
import { SCOPES } from '../../../application/tokens/scopes.js';
import { actorOf, bearerToken } from '../auth.js';
import { IdPath, pathId } from '../params.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';
import { OK } from '../../presentation/wire.js';
import { OkSchema } from '../../presentation/schemas.js';

/** What the personal token routes call. */
export interface PersonalTokenRouteUseCases {
  createPersonalToken: CreatePersonalToken;
  listPersonalTokens: ListPersonalTokens;
  revokePersonalToken: RevokePersonalToken;
}
export const PersonalTokenRouteUseCases = Symbol.for('PersonalTokenRouteUseCases');

const timestamp = z.iso.datetime().meta({ example: '2026-11-29T08:15:30.123Z' });

const PersonalTokenSchema = z
  .strictObject({
    id: z.number().int(),
    name: z.string(),
    scope: z.enum(SCOPES),
    created_at: timestamp,
    last_used_at: timestamp.nullable().meta({ description: 'to within ten minutes; null: never used' }),
    expires_at: timestamp.nullable().meta({ description: 'null: never expires (until revoked)' }),
  })
  .meta({ id: 'PersonalToken', description: 'A personal access token, as its owner sees it (never the token itself)' });

const presented = (token: PersonalToken) => ({
  id: token.id,
  name: token.name,
  scope: token.scope,
  created_at: token.createdAt.toISOString(),
  last_used_at: token.lastUsedAt?.toISOString() ?? null,
  expires_at: token.expiresAt?.toISOString() ?? null,
});

const example = {
  id: 7,
  name: 'backup script',
  scope: 'read' as const,
  created_at: '2026-11-29T08:15:30.123Z',
  last_used_at: null,
  expires_at: '2027-02-27T08:15:30.123Z',
};

/** Personal access tokens for scripts and bots (contract §25): the caller's own, made, listed and revoked. */
export function personalTokenRoutes(app: PersonalTokenRouteUseCases, docs: ApiDescription, prefix: string): Router {
  const router = new Router();

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/users/me/tokens',
      summary: 'Make a personal access token',
      description:
        'A bearer token for a script or a bot, working wherever a token does, as you: `read` (GET only) or `all`. ' +
        'It expires after `expires_in_days` (1 to 365), or never. The token is in this answer only (the service ' +
        'keeps a digest of it); it starts with `fpat_`, so secret scanners find it where it leaks. A personal token ' +
        'cannot make another (403): use a token from signing in, or the settings page. At most 50 live tokens. ' +
        'It ends when revoked, when your password is changed or reset, and when the account is deleted.',
      tag: 'Accounts',
      access: 'user',
      body: { schema: CreatePersonalTokenParams, media: ['json', 'form', 'multipart'] },
      response: {
        schema: z.strictObject({
          token: PersonalTokenSchema,
          access_token: z.string().meta({ description: 'the token: shown this once' }),
        }),
        example: { token: example, access_token: `fpat_${'x'.repeat(64)}` },
        description: 'The new token, and the token itself (this once)',
      },
      errors: [400, 403],
    },
    async (ctx) => {
      const made = await app.createPersonalToken.execute(await actorOf(ctx), ctx.state.params, {
        callerToken: bearerToken(ctx) ?? null,
      });
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { token: presented(made.personalToken), access_token: made.token };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/me/tokens',
      summary: 'Your personal access tokens',
      description: 'The live ones, newest first: name, scope, when made, last used and when they expire; never the tokens.',
      tag: 'Accounts',
      access: 'user',
      response: {
        schema: z.strictObject({ tokens: z.array(PersonalTokenSchema) }),
        example: { tokens: [example] },
        description: 'Your live personal tokens',
      },
      errors: [],
    },
    async (ctx) => {
      const tokens = await app.listPersonalTokens.execute(await actorOf(ctx));
      ctx.body = { tokens: tokens.map(presented) };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/users/me/tokens/:id',
      summary: 'Revoke a personal access token',
      description: 'It stops working at once. Another person’s token, or one revoked or expired already, is 404.',
      tag: 'Accounts',
      access: 'user',
      params: IdPath,
      response: { schema: OkSchema, example: examples.ok, description: 'Revoked' },
      errors: [404],
    },
    async (ctx) => {
      await app.revokePersonalToken.execute(await actorOf(ctx), pathId(ctx.params.id));
      ctx.body = OK;
    },
  );

  return router;
}

import type Koa from 'koa';
import Router from '@koa/router';
import cors from '@koa/cors';
import type { Authenticate } from '../../application/tokens/access-tokens.js';
import type { Wire } from '../presentation/wire.js';
import type { NotificationStreams } from './notification-streams.js';
import type { FrontPageCache } from '../presentation/front-page-cache.js';
import type { ApiDescription } from './openapi/describe.js';
import { notificationRoutes, type NotificationRouteUseCases } from './routes/notifications.js';
import { oauthRoutes, type OAuthRouteUseCases } from './routes/oauth.js';
import { searchRoutes, type SearchRouteUseCases } from './routes/search.js';
import { adminRoutes, type AdminRouteUseCases } from './routes/admin.js';
import { reviewRoutes, type ReviewRouteUseCases } from './routes/review.js';
import { replyRoutes, type ReplyRouteUseCases } from './routes/replies.js';
import { topicRoutes, type TopicRouteUseCases } from './routes/topics.js';
import { nodeRoutes, type NodeRouteUseCases } from './routes/nodes.js';
import { groupRoutes, type GroupRouteUseCases } from './routes/groups.js';
import { messageRoutes, type MessageRouteUseCases } from './routes/messages.js';
import { userRoutes, type UserRouteUseCases } from './routes/users.js';
import { accountRoutes, type AccountRouteUseCases } from './routes/accounts.js';
import { personalTokenRoutes, type PersonalTokenRouteUseCases } from './routes/personal-tokens.js';
import { systemRoutes } from './routes/system.js';
import { deviceRoutes, type DeviceRouteUseCases } from './routes/devices.js';
import { uploadApiRoutes, type UploadRouteUseCases } from './routes/upload-api.js';
import { type UploadedFiles, uploadRoutes } from './routes/uploads.js';
import { documentationRoutes } from './routes/documentation.js';
import { inboundMailRoutes, type InboundMailRouteUseCases } from './routes/inbound-email.js';

/**
 * The JSON API (contract §1–§20): its routers and the middleware that is its own. The service's one Koa app is
 * composed from these, the pages' adapter and the transport in src/server/app.ts.
 */

/**
 * What the API calls, by the router (or middleware) that calls it: each router is handed its own record and
 * nothing else. Resolved by the composition root.
 */
export interface ApiUseCases {
  /** Who calls (the middleware in front of every route under the API). */
  authenticate: Authenticate;
  oauth: OAuthRouteUseCases;
  topics: TopicRouteUseCases;
  replies: ReplyRouteUseCases;
  notifications: NotificationRouteUseCases;
  nodes: NodeRouteUseCases;
  /** Groups (contract §23). */
  groups: GroupRouteUseCases;
  /** Private messages (contract §24). */
  messages: MessageRouteUseCases;
  users: UserRouteUseCases;
  accounts: AccountRouteUseCases;
  /** Personal access tokens (contract §25). */
  personalTokens: PersonalTokenRouteUseCases;
  devices: DeviceRouteUseCases;
  uploads: UploadRouteUseCases;
  search: SearchRouteUseCases;
  admin: AdminRouteUseCases;
  /** Flags, holds and the review queue (contract §18). */
  review: ReviewRouteUseCases;
  /** Reply by e-mail: a mail provider's inbound webhook. */
  inboundMail: InboundMailRouteUseCases;
}

/** Where every resource of the API lives. */
export const API_PREFIX = '/api/v3';

const OPENAPI_PATH = `${API_PREFIX}/openapi.json`;

/**
 * Existing clients call every path with a `.json` suffix too. A bare `/.json` is not stripped: `/topics/.json`
 * is a topic with a blank id (404), not the topic list. Nor is the document's own name, openapi.json.
 */
export function stripJsonSuffix(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  if (ctx.path.endsWith('.json') && !ctx.path.endsWith('/.json') && ctx.path !== OPENAPI_PATH) {
    ctx.path = ctx.path.slice(0, -'.json'.length);
  }
  return next();
}

/**
 * Where the API's and the service's own paths begin (machines ask for them: the resources, the token endpoints,
 * health and metrics, the document, uploaded files and avatars): what no route knows below them is the JSON 404, as
 * is a path asked for with the `.json` suffix. Every other path is a page's, asked for by a person's browser. (A
 * path of one segment, `/healthz` or `/api` asked with another method, is a member's page's: 405, never here.)
 */
const MACHINE_PREFIXES = ['/api/', '/oauth/', '/docs/', '/uploads/', '/avatars/', '/healthz/', '/readyz/', '/metrics/'];

/** Whether a path no route knows is answered in JSON (the API's and the service's own, above), not as a page. */
function isMachinePath(ctx: Koa.Context): boolean {
  const path = ctx.path.toLowerCase();
  if (MACHINE_PREFIXES.some((prefix) => path.startsWith(prefix))) return true;
  // stripJsonSuffix took the suffix off the path; the URL asked for keeps it.
  return ctx.originalUrl.split('?', 1)[0]!.endsWith('.json');
}

/**
 * What no route answered. A path that some route knows, asked with a method none serves, is 405 with `Allow`
 * (an OPTIONS request just gets `Allow`); anything else is 404: the JSON `ResourceNotFound` for the API's and the
 * service's own paths (isMachinePath), else `notFoundPage` when one is given (the pages' not-found page, for a
 * browser that asked for a path nobody serves). Worked out here, on the way out of a request nothing handled, so
 * that answered requests pay nothing for it. The routers record every layer whose path matched in `ctx.matched`,
 * whatever its method.
 */
export function unrouted(notFoundPage?: (ctx: Koa.Context) => Promise<void>): Koa.Middleware {
  return async (ctx) => {
    const layers = (ctx as Koa.Context & { matched?: { methods: string[]; opts: { end?: boolean } }[] }).matched ?? [];
    const allowed = [...new Set(layers.filter((layer) => layer.opts.end !== false).flatMap((layer) => layer.methods))];
    if (allowed.length === 0) {
      if (notFoundPage && !isMachinePath(ctx)) return notFoundPage(ctx);
      ctx.status = 404;
      ctx.body = { error: 'ResourceNotFound' };
      return;
    }
    ctx.set('Allow', allowed.join(', '));
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    ctx.status = 405;
    ctx.body = { error: 'MethodNotAllowed' };
  };
}

/**
 * Object bodies become their JSON text here, once, with their length: compression needs the size (Koa's
 * `length` getter would stringify an object body, and its respond step would do it again).
 */
export async function serializeJson(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  await next();
  const body: unknown = ctx.body;
  if (
    body !== null &&
    typeof body === 'object' &&
    !Buffer.isBuffer(body) &&
    typeof (body as { pipe?: unknown }).pipe !== 'function'
  ) {
    ctx.body = JSON.stringify(body); // the type stays application/json, set with the object
  }
}

/** CORS for the configured origins only; tokens travel in the Authorization header, never in cookies. */
export function corsFor(origins: string[] | '*'): Koa.Middleware {
  return cors({
    origin: (ctx) => (origins === '*' ? '*' : origins.includes(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowHeaders: ['Authorization', 'Content-Type', 'X-Request-Id'],
    exposeHeaders: ['X-Request-Id', 'Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'],
    maxAge: 600,
  });
}

/**
 * The routes that need no body, no database context and no caller: health, the document and its viewer, the
 * uploaded files this service serves. Nested routers share one matching pass.
 */
export function serviceRoutes(
  docs: ApiDescription,
  options: { isReady(): Promise<boolean>; info: { publicUrl: string; version: string }; uploads?: UploadedFiles },
): Router {
  const service = new Router();
  service.use(systemRoutes(options.isReady, docs).routes());
  service.use(documentationRoutes(docs, options.info).routes());
  if (options.uploads) service.use(uploadRoutes(options.uploads, docs).routes());
  return service;
}

/**
 * The raw mail of a provider's inbound webhook: its own body reading, bearer and persistence context, and no API
 * rate limit (see the route). In front of the API's body parsing.
 */
export function inboundRoutes(
  useCases: InboundMailRouteUseCases,
  docs: ApiDescription,
  scope: <T>(work: () => Promise<T>) => Promise<T>,
): Router {
  const inbound = new Router();
  inbound.use(API_PREFIX, inboundMailRoutes(useCases, docs, scope).routes());
  return inbound;
}

/** The OAuth token endpoints (token, revoke, introspect). */
export function tokenRoutes(
  useCases: ApiUseCases,
  docs: ApiDescription,
  options: { tokenLifetimes: { accessSeconds: number; refreshSeconds: number } },
): Router {
  return oauthRoutes(useCases.oauth, options.tokenLifetimes, docs);
}

/** Every resource under /api/v3: a router for each subject, with its own use cases. */
export function resourceRoutes(
  useCases: ApiUseCases,
  docs: ApiDescription,
  options: { wire: Wire; notificationStreams: NotificationStreams; frontPage?: FrontPageCache },
): Router[] {
  const { wire } = options;
  const prefix = API_PREFIX;
  return [
    topicRoutes(useCases.topics, wire, docs, prefix, options.frontPage),
    replyRoutes(useCases.replies, wire, docs, prefix),
    notificationRoutes(useCases.notifications, wire, docs, prefix, options.notificationStreams),
    nodeRoutes(useCases.nodes, wire, docs, prefix),
    groupRoutes(useCases.groups, wire, docs, prefix),
    messageRoutes(useCases.messages, wire, docs, prefix),
    accountRoutes(useCases.accounts, wire, docs, prefix),
    personalTokenRoutes(useCases.personalTokens, docs, prefix),
    userRoutes(useCases.users, wire, docs, prefix),
    deviceRoutes(useCases.devices, docs, prefix),
    uploadApiRoutes(useCases.uploads, wire, docs, prefix),
    searchRoutes(useCases.search, wire, docs, prefix),
    adminRoutes(useCases.admin, wire, docs, prefix),
    reviewRoutes(useCases.review, wire, docs, prefix),
  ].map((routes) => routes.prefix(prefix));
}

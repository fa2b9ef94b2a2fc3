import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import { OpenAPIRegistry, OpenApiGeneratorV31, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/**
 * Every route is declared here together with its description: method, path, who may call it, its parameters
 * and body (built from the same zod schemas the use cases read them with), its response (the schemas the
 * presenters are typed by) and its errors. The router gets the route; the registry gets the operation; the
 * OpenAPI document is generated from the registry. A route cannot exist without its operation.
 */

/**
 * Who may call: anyone (a token, when valid, changes what is seen), a user (a token is needed), an OAuth client,
 * a person in a browser (the authorization pages, with their session cookie), or a mail provider's inbound webhook
 * (the shared INBOUND_EMAIL_TOKEN, not an access token).
 */
export type Access = 'public' | 'user' | 'client' | 'browser' | 'inbound';

export type ErrorStatus = 400 | 401 | 403 | 404 | 405 | 413 | 415 | 429 | 500 | 503;
/** Answers with no body to speak of: redirects (Location) and 304. */
type BodylessStatus = 301 | 302 | 303 | 304;
/** Besides the success: errors, redirects, and a page shown again (a form's preview, 200, beside its 303). */
type OtherStatus = ErrorStatus | BodylessStatus | 200;
const BODYLESS: readonly number[] = [301, 302, 303, 304];

export interface Operation {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Koa syntax (`/topics/:id`), under the router's prefix. */
  path: string;
  summary: string;
  description?: string;
  tag: string;
  access: Access;
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** Parameters as an object (json, form, multipart), or a whole body of its own (a raw mail: rfc822, text, binary). */
  /** `streamed`: the route reads its multipart body itself, a file as it streams (the body reader leaves it alone). */
  body?: { schema: z.ZodType; media: readonly (keyof typeof MEDIA)[]; streamed?: boolean };
  /**
   * The answer to a success: a body (200); for a form that is posted and then shown, a redirect (303); for a
   * path that moved for good (homeland's), a 301.
   */
  response: Success;
  /**
   * Other responses, or a status's own description where the default does not fit (an endpoint with a body of
   * its own for an error status, perhaps an HTML page; a redirect or a 304, with no body at all).
   */
  otherResponses?: Partial<Record<OtherStatus, { schema?: z.ZodType; description: string; media?: string; example?: unknown }>>;
  /** What can go wrong besides the errors every operation may answer (500, 503) and those implied by `access`. */
  errors: readonly ErrorStatus[];
  /** Errors in RFC 6749's shape (`{"error","error_description"}`) rather than the contract's (the OAuth endpoints). */
  oauthErrors?: boolean;
  /** `user` access that a signed-in browser's session also gives (the forum pages' script reads the live stream). */
  browserSession?: boolean;
}

/** A success: 200 and its body, or a redirect with no body (Location says where). */
export type Success =
  { schema: z.ZodType; example: unknown; description: string; media?: string } | { status: 301 | 303; description: string };

/** A description or an example of one parameter, for the document. */
export type ParameterNote = { description?: string; example?: unknown };

/**
 * The schema the application reads an object of parameters with, as the document shows it: the same fields and
 * the same validation (`.meta()` changes no check), with a description or an example added to some fields. A
 * route documents its body or query this way, so that the document cannot say other than what is checked.
 */
export function documented<S extends z.ZodObject>(schema: S, notes: { [K in keyof S['shape']]?: ParameterNote }): S {
  const fields = Object.entries(notes as Record<string, ParameterNote>).map(([name, note]) => {
    const field = schema.shape[name] as z.ZodType | undefined;
    if (!field) throw new Error(`documented: the schema has no field ${name}`);
    return [name, field.meta(note)] as const;
  });
  return schema.extend(Object.fromEntries(fields)) as unknown as S;
}

/** The `error` names of contract §2, by status. */
export const ERROR_NAMES: Record<ErrorStatus, readonly [string, ...string[]]> = {
  400: ['ParameterInvalid', 'RecordInvalid'],
  401: ['Unauthorized'],
  403: ['AccessDenied'],
  404: ['ResourceNotFound'],
  405: ['MethodNotAllowed'],
  413: ['PayloadTooLarge'],
  415: ['UnsupportedMediaType'],
  429: ['TooManyRequests'],
  500: ['InternalError'],
  503: ['ServiceUnavailable'],
};

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'A parameter is absent or out of range (ParameterInvalid), or the record fails validation (RecordInvalid)',
  401: 'No valid access token (with WWW-Authenticate)',
  403: 'The caller may not do this',
  404: 'No such record (a deleted one counts as none)',
  405: 'The path does not serve this method (with Allow)',
  413: 'The body is too large',
  415: 'A body type or encoding the service does not read',
  429: 'Too many attempts (with Retry-After)',
  500: 'Something unexpected; details only in the server log',
  503: 'The database cannot be reached right now (with Retry-After)',
};

const errorSchemas = new Map<ErrorStatus, z.ZodType>();

/** The error body of a status, as contract §2 gives it. */
export function errorSchema(status: ErrorStatus): z.ZodType {
  let schema = errorSchemas.get(status);
  if (!schema) {
    schema = z
      .strictObject({ error: z.enum(ERROR_NAMES[status]), message: z.string().optional() })
      .meta({ id: `Error${status}`, description: ERROR_DESCRIPTIONS[status] });
    errorSchemas.set(status, schema);
  }
  return schema;
}

/** RFC 6749 §5.2 errors of the token endpoint. */
export const OAuthErrorSchema = z
  .strictObject({
    error: z.enum([
      'invalid_request',
      'invalid_client',
      'invalid_grant',
      'unauthorized_client',
      'unsupported_grant_type',
      'invalid_scope',
      'invalid_token',
    ]),
    error_description: z.string().optional(),
  })
  .meta({ id: 'OAuthError', description: 'An OAuth 2.0 error (RFC 6749 §5.2; invalid_token: RFC 6750 §3.1)' });

const SCOPE_DESCRIPTIONS = {
  all: 'everything the user may do (the default)',
  read: 'read only: any method but GET is refused (403)',
};

const MEDIA = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
  rfc822: 'message/rfc822',
  text: 'text/plain',
  binary: 'application/octet-stream',
} as const;

type Security = Record<string, string[]>[];
/** A token of either scope may read; writing takes the `all` scope (contract §10). */
const userSecurity = (method: string): Security => [
  { bearerAuth: [] },
  { oauth2: method === 'get' ? [] : ['all'] },
  { accessToken: [] },
];

/** Under the API, a `read` token is refused (403) whatever it asks to change. */
const API_PREFIX = '/api/v3/';

/** Koa's `/topics/:id` as OpenAPI writes it: `/topics/{id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}');
}

export interface DescribedOperation {
  method: string;
  /** The OpenAPI path, prefix included. */
  path: string;
}

export class ApiDescription {
  private readonly registry = new OpenAPIRegistry();
  private document: object | null = null;
  /** Every operation declared so far, as the document lists them. */
  readonly operations: DescribedOperation[] = [];
  /** The operations whose route reads its multipart body itself (a file, as it streams). */
  private readonly streamed: { method: string; path: RegExp }[] = [];

  /** Whether the operation at `method` and `path` reads its multipart body itself (a file upload). */
  readsOwnMultipart(method: string, path: string): boolean {
    const lower = method.toLowerCase();
    return this.streamed.some((operation) => operation.method === lower && operation.path.test(path));
  }

  constructor() {
    this.registry.registerComponent('securitySchemes', 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: 'An access token from POST /oauth/token (or `forumctl tokens issue`)',
    });
    this.registry.registerComponent('securitySchemes', 'accessToken', {
      type: 'apiKey',
      in: 'query',
      name: 'access_token',
      description: 'The access token as a parameter (query or body); the Authorization header wins when both are given',
    });
    this.registry.registerComponent('securitySchemes', 'oauth2', {
      type: 'oauth2',
      description:
        'OAuth 2.0 (RFC 6749). Confidential clients authenticate with client_id and client_secret, or HTTP Basic; ' +
        'public clients have no secret and use the authorization code grant with PKCE (S256).',
      flows: {
        authorizationCode: {
          authorizationUrl: '/oauth/authorize',
          tokenUrl: '/oauth/token',
          refreshUrl: '/oauth/token',
          scopes: SCOPE_DESCRIPTIONS,
        },
        password: { tokenUrl: '/oauth/token', refreshUrl: '/oauth/token', scopes: SCOPE_DESCRIPTIONS },
        clientCredentials: { tokenUrl: '/oauth/token', scopes: { all: 'a token with no user' } },
      },
    });
    this.registry.registerComponent('securitySchemes', 'webSession', {
      type: 'apiKey',
      in: 'cookie',
      name: 'forum_session',
      description:
        'The browser session of the /oauth and /account pages (HttpOnly, SameSite=Lax, path /; set by signing in on ' +
        'POST /oauth/authorize, or by following a mailed link: POST /account/verify, POST /account/password/reset)',
    });
    this.registry.registerComponent('securitySchemes', 'inboundToken', {
      type: 'http',
      scheme: 'bearer',
      description: 'INBOUND_EMAIL_TOKEN, the shared secret a mail provider’s inbound webhook presents (not an access token)',
    });
    this.registry.registerComponent('securitySchemes', 'clientBasic', {
      type: 'http',
      scheme: 'basic',
      description: 'OAuth client authentication: client_id and client_secret',
    });
  }

  /**
   * Declares a route on `router` (whose paths start with `prefix` in the document) and its operation in the
   * description. Returns the router, for chaining.
   */
  route(router: Router, prefix: string, operation: Operation, ...handlers: RouterMiddleware[]): Router {
    router[operation.method](operation.path, ...(handlers as [RouterMiddleware]));
    const path = openApiPath(prefix + operation.path);
    this.operations.push({ method: operation.method, path });
    if (operation.body?.streamed) this.streamed.push({ method: operation.method, path: pathPattern(path) });
    this.registry.registerPath(this.config(path, operation));
    this.document = null;
    return router;
  }

  /** The OpenAPI 3.1 document, generated once (and again only if a route was added since). */
  generate(info: { publicUrl: string; version: string }): object {
    this.document ??= new OpenApiGeneratorV31(this.registry.definitions).generateDocument({
      openapi: '3.1.0',
      info: {
        title: 'forum API',
        version: info.version,
        description:
          'A discussion-forum back end, wire-compatible with the Ruby China ("homeland") API v3. Every path under ' +
          '/api/v3 also answers with a `.json` suffix. Parameters come from the query string, a form body or a ' +
          'JSON body, merged (the body wins). Every success is 200. Every error is a JSON object with `error`, a stable ' +
          'name (`ParameterInvalid`, `RecordInvalid`, `Unauthorized`, `AccessDenied`, `ResourceNotFound`, ' +
          '`TooManyRequests`, `ServiceUnavailable`, …: each operation lists its own), and, where there is one, ' +
          '`message`, for people.',
      },
      servers: [{ url: info.publicUrl }],
      tags: TAGS,
    });
    return this.document;
  }

  private config(path: string, operation: Operation): RouteConfig {
    const statuses = new Set<OtherStatus>([...operation.errors, 500, 503]);
    for (const status of Object.keys(operation.otherResponses ?? {})) statuses.add(Number(status) as OtherStatus);
    if (operation.access === 'user') statuses.add(401);
    if (operation.body) statuses.add(413).add(415);
    // A token of the read scope is refused a write; the inbound endpoint takes no access token at all.
    const writesApi = operation.method !== 'get' && path.startsWith(API_PREFIX) && operation.access !== 'inbound';
    if (writesApi) statuses.add(403);
    const errors = Object.fromEntries(
      [...statuses]
        .sort((a, b) => a - b)
        .map((status) => {
          const own = operation.otherResponses?.[status];
          if (BODYLESS.includes(status)) return [status, { description: own!.description }];
          const error = status as ErrorStatus;
          const schema =
            own?.schema ?? (operation.oauthErrors && (status === 400 || status === 401) ? OAuthErrorSchema : errorSchema(error));
          const description =
            own?.description ??
            (error === 403 && writesApi
              ? `${ERROR_DESCRIPTIONS[403]}, or its token has the read scope`
              : ERROR_DESCRIPTIONS[error]);
          const example = own?.example === undefined ? {} : { example: own.example };
          return [status, { description, content: { [own?.media ?? 'application/json']: { schema, ...example } } }];
        }),
    );
    const security: Security = {
      user: [...userSecurity(operation.method), ...(operation.browserSession ? [{ webSession: [] }] : [])],
      public: [...userSecurity(operation.method), {}],
      client: [{ clientBasic: [] }, {}],
      browser: [{ webSession: [] }, {}],
      inbound: [{ inboundToken: [] }],
    }[operation.access];
    return {
      method: operation.method,
      path,
      summary: operation.summary,
      ...(operation.description ? { description: operation.description } : {}),
      tags: [operation.tag],
      security,
      request: {
        ...(operation.params ? { params: operation.params } : {}),
        ...(operation.query ? { query: operation.query } : {}),
        ...(operation.body
          ? {
              body: {
                required: true,
                content: Object.fromEntries(
                  operation.body.media.map((media) => [MEDIA[media], { schema: operation.body!.schema }]),
                ),
              },
            }
          : {}),
      },
      responses: { ...success(operation.response), ...errors },
    };
  }
}

function success(response: Success): RouteConfig['responses'] {
  if ('status' in response) return { [response.status]: { description: response.description } };
  const content = { [response.media ?? 'application/json']: { schema: response.schema, example: response.example } };
  return { 200: { description: response.description, content } };
}

const TAGS = [
  { name: 'Topics', description: 'Topics: lists, reading, writing, moderation' },
  { name: 'Replies', description: 'Replies to topics, and likes' },
  { name: 'Notifications', description: 'The caller’s notifications' },
  { name: 'Users', description: 'Profiles, lists, follows and blocks' },
  { name: 'Accounts', description: 'Joining: sign-up, the verification mail, a forgotten password' },
  { name: 'Nodes', description: 'Nodes (categories of topics)' },
  { name: 'Groups', description: 'Groups of members (who may read and write where)' },
  { name: 'Search', description: 'Full-text search of topics and replies, Chinese and English alike' },
  { name: 'Uploads', description: 'Photos and push devices' },
  { name: 'Admin', description: 'Administration: the moderation audit log' },
  { name: 'Review', description: 'Flags, and the review queue of flagged and held posts' },
  { name: 'Mail', description: 'Reply by e-mail: where a mail provider delivers the mail sent to reply addresses' },
  {
    name: 'OAuth',
    description: 'Tokens (RFC 6749, RFC 7009, RFC 7662), and the sign-in and consent pages of the authorization code grant',
  },
  { name: 'Forum', description: 'The forum as pages people read in a browser, at homeland’s URLs (HTML, not JSON)' },
  { name: 'Service', description: 'Health, the document itself, files' },
];

/** An OpenAPI path (`/api/v3/uploads/{id}`) as a pattern of request paths. */
function pathPattern(path: string): RegExp {
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
  return new RegExp(`^${escaped}$`);
}

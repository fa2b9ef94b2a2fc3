import type Router from '@koa/router';
import type { RouterMiddleware } from '@koa/router';
import { z } from 'zod';

/**
 * How the pages are declared in the service's document (GET /api/v3/openapi.json): each page's route together with
 * its operation, as the API's are, so that a page cannot exist undocumented. The pages do not know how the
 * document is made: they are handed something that declares a route (the API's description, by src/server).
 */

/** What a page's operation says, in the document's terms: a page for a person in a browser. */
export interface PageOperation {
  method: 'get' | 'post';
  /** Koa syntax. */
  path: string;
  summary: string;
  description?: string;
  tag: 'Accounts' | 'OAuth' | 'Forum';
  access: 'browser';
  /** The path's parameters (`:id` in `path`). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /**
   * A form: its fields, read with the schemas the use cases export. `streamed`: a form with a file field, whose
   * multipart body the page reads itself (post-image.ts).
   */
  body?: { schema: z.ZodType; media: readonly ('form' | 'multipart')[]; streamed?: boolean };
  /** A page (200); for a form that is posted and then shown, a redirect to it (303); for a path that moved, 301. */
  response:
    { schema: z.ZodType; example: unknown; description: string; media?: string } | { status: 301 | 303; description: string };
  /** The pages, redirects and refusals besides the success. */
  otherResponses?: Partial<
    Record<
      200 | 302 | 303 | 304 | 400 | 403 | 404 | 413 | 429,
      { schema?: z.ZodType; description: string; media?: string; example?: unknown }
    >
  >;
  /** The API's error bodies a page answers with: none (a page refuses with a page). */
  errors: readonly [];
}

/** Declares a route on `router` and its operation in the document; returns the router. */
export interface RouteDeclarer {
  route(router: Router, prefix: string, operation: PageOperation, ...handlers: RouterMiddleware[]): Router;
}

/** An HTML page, as a response schema. */
export const Page = z.string().meta({ description: 'An HTML page' });

/** A page among an operation's other responses (an error page, a form shown again). */
export const page = (description: string) => ({ schema: Page, media: 'text/html', description });

/** A page as an operation's response. */
export const htmlPage = (description: string) => ({
  schema: Page,
  example: '<!doctype html>…',
  description,
  media: 'text/html',
});

/** `lang`, which every page takes. */
export const Lang = z.enum(['en', 'zh-CN']).optional().meta({ description: 'The page’s language; else Accept-Language decides' });

/** A writing form's Preview button: show the post rendered by the server, and keep it in the form. */
export const Preview = (what: 'topic' | 'reply' | 'message') =>
  z
    .literal('1')
    .optional()
    .meta({ description: `Show the ${what} rendered, and keep it in the form` });

/** The CSRF token every form carries. */
export const Csrf = z.string().meta({ description: 'The token the page put in the form' });

/** The query of a mailed link's page. */
export const LinkQuery = z.object({ token: z.string().meta({ description: 'The token of the mailed link' }), lang: Lang });

/** The authorization request a person left for an /account page, to go back to (sign-in.ts). */
export const Authorize = z
  .string()
  .optional()
  .meta({ description: 'The query of the /oauth/authorize request the person came from, to return to once verified' });

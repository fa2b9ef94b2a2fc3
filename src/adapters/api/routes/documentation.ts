import { createReadStream } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Router from '@koa/router';
import { z } from 'zod';
import type { ApiDescription } from '../openapi/describe.js';

/**
 * Swagger UI's files, from the swagger-ui-dist package (never a CDN: the page works offline). Not its standalone
 * preset (Swagger's own top bar, with a box to load any other document) nor its favicons (Swagger's logo).
 */
const SWAGGER_UI = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'index.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

/**
 * The page: the forum's own heading over Swagger UI's rendering of the document, with nothing but this service's
 * own files (and so a strict CSP: scripts only from here, none inline).
 */
const PAGE = `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>forum API reference</title>
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
    <link rel="stylesheet" href="/docs/assets/index.css">
    <link rel="icon" href="data:,">
    <style>
      .forum-heading { background: #1f2933; color: #f5f7fa; font-family: sans-serif; padding: 14px 0; }
      .forum-heading > div { max-width: 1460px; margin: 0 auto; padding: 0 20px; display: flex; gap: 24px; align-items: baseline; }
      .forum-heading h1 { font-size: 20px; margin: 0; font-weight: 600; }
      .forum-heading a { color: #9fb3c8; font-size: 14px; }
    </style>
  </head>
  <body>
    <header class="forum-heading">
      <div>
        <h1>forum API reference</h1>
        <a href="/api/v3/openapi.json">OpenAPI document (JSON)</a>
        <a href="/">service index</a>
      </div>
    </header>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/initializer.js"></script>
  </body>
</html>
`;

/**
 * Swagger UI's base layout: the document alone, without the standalone preset's top bar. No validator badge (it
 * would call validator.swagger.io): nothing leaves for another host.
 */
const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '/api/v3/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
};
`;

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'";

/** `GET /api/v3/openapi.json` and `GET /docs` (the page and its files). `/` is the forum's front page (contract §21a). */
export function documentationRoutes(docs: ApiDescription, info: { publicUrl: string; version: string }): Router {
  const router = new Router();

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/api/v3/openapi.json',
      summary: 'This document',
      description: 'OpenAPI 3.1, generated from the schemas that check requests and type responses.',
      tag: 'Service',
      access: 'public',
      response: {
        schema: z.looseObject({ openapi: z.string(), info: z.looseObject({}), paths: z.looseObject({}) }),
        example: { openapi: '3.1.0', info: { title: 'forum API', version: info.version }, paths: {} },
        description: 'The OpenAPI document',
      },
      errors: [],
    },
    (ctx) => {
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.body = docs.generate(info);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/docs',
      summary: 'This document, readable',
      description: 'Swagger UI, served by the service itself.',
      tag: 'Service',
      access: 'public',
      response: { schema: z.string(), example: '<!DOCTYPE html>…', description: 'The page', media: 'text/html' },
      errors: [],
    },
    (ctx) => {
      ctx.set('Content-Security-Policy', CSP);
      ctx.type = 'text/html; charset=utf-8';
      ctx.body = PAGE;
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/docs/initializer.js',
      summary: 'The page’s configuration',
      tag: 'Service',
      access: 'public',
      response: { schema: z.string(), example: 'window.onload = …', description: 'A script', media: 'application/javascript' },
      errors: [],
    },
    (ctx) => {
      ctx.type = 'application/javascript; charset=utf-8';
      ctx.body = INITIALIZER;
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/docs/assets/:file',
      summary: 'The page’s files',
      tag: 'Service',
      access: 'public',
      params: z.object({ file: z.enum(Object.keys(ASSETS) as [string, ...string[]]) }),
      response: { schema: z.string(), example: '', description: 'A file of Swagger UI', media: 'application/octet-stream' },
      errors: [404],
    },
    (ctx) => {
      const type = ASSETS[ctx.params.file ?? ''];
      if (!type) {
        ctx.status = 404;
        ctx.body = { error: 'ResourceNotFound' };
        return;
      }
      ctx.set('Cache-Control', 'public, max-age=86400');
      ctx.type = type;
      ctx.body = createReadStream(path.join(SWAGGER_UI, ctx.params.file!));
    },
  );

  return router;
}

import Router from '@koa/router';
import type { Context } from 'koa';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ApiDescription } from '../openapi/describe.js';

/** Uploaded files as the store in use opens them for sending (the folder's, or the S3-compatible store's). */
export interface UploadedFiles {
  open(key: string): Promise<{ stream: Readable; size: number | null; modified: Date; contentType: string } | null>;
}

const A_YEAR = 365 * 24 * 60 * 60;

const Image = { schema: z.string().meta({ format: 'binary' }), example: '', description: 'The image', media: 'image/*' };

/**
 * `GET /uploads/…`: uploaded images, from the store in use (contract §19: every host serves every upload when they
 * share an S3-compatible store), under names that never change (a file's is its content's hash), so cached for a
 * year and immutable; of the type their bytes were judged to be when they came in, never sniffed as anything else,
 * and under a Content-Security-Policy that runs nothing (an SVG or HTML file could never run a script here).
 */
export function uploadRoutes(files: UploadedFiles, docs: ApiDescription): Router {
  const router = new Router();

  const send = async (ctx: Context, key: string) => {
    const file = await files.open(key);
    if (!file) {
      ctx.status = 404;
      ctx.body = { error: 'ResourceNotFound' };
      return;
    }
    ctx.set({
      'Cache-Control': `public, max-age=${A_YEAR}, immutable`,
      'X-Content-Type-Options': 'nosniff',
      'Content-Security-Policy': "default-src 'none'; sandbox",
    });
    ctx.lastModified = file.modified;
    ctx.status = 200; // ctx.fresh compares validators only for a successful response
    if (ctx.fresh) {
      file.stream.destroy();
      ctx.status = 304;
      return;
    }
    ctx.type = file.contentType;
    if (file.size !== null) ctx.length = file.size;
    ctx.body = file.stream;
  };

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/uploads/photos/:shard/:file',
      summary: 'An uploaded file',
      description:
        'Where image_url points: a name made of its content’s SHA-256, so cached for a year and immutable; ' +
        'X-Content-Type-Options: nosniff; a Content-Security-Policy that runs nothing.',
      tag: 'Service',
      access: 'public',
      params: z.object({
        shard: z.string().meta({ example: '3f' }),
        file: z.string().meta({ example: '3f2a7c0d5e9b41a68c1f0e2d3b4a59687766554433221100ffeeddccbbaa9988.jpg' }),
      }),
      response: Image,
      otherResponses: { 304: { description: 'Not modified since If-Modified-Since' } },
      errors: [404],
    },
    (ctx) => send(ctx, `photos/${ctx.params.shard}/${ctx.params.file}`),
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/uploads/photos/:year/:month/:file',
      summary: 'A photo uploaded before uploads were records',
      description: 'Served as it was; the same headers as an upload’s.',
      tag: 'Service',
      access: 'public',
      params: z.object({
        year: z.string().meta({ example: '2026' }),
        month: z.string().meta({ example: '11' }),
        file: z.string().meta({ example: '0f1e2d3c4b5a69788796a5b4c3d2e1f0.png' }),
      }),
      response: Image,
      otherResponses: { 304: { description: 'Not modified since If-Modified-Since' } },
      errors: [404],
    },
    (ctx) => send(ctx, `photos/${ctx.params.year}/${ctx.params.month}/${ctx.params.file}`),
  );

  return router;
}

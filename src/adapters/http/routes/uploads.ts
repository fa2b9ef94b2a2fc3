import Router from '@koa/router';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import type { ApiDescription } from '../openapi/describe.js';

/** Uploaded files as the storage adapter opens them for sending (see FolderStorage). */
export interface UploadedFiles {
  open(key: string): Promise<{ stream: Readable; size: number; modified: Date; contentType: string } | null>;
}

const A_YEAR = 365 * 24 * 60 * 60;

/**
 * `GET /uploads/…`: uploaded images, under names that never change (so they are cached for a year), with the
 * type their bytes were judged to be when they came in, and never sniffed as anything else by a browser.
 */
export function uploadRoutes(files: UploadedFiles, docs: ApiDescription): Router {
  const router = new Router();

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/uploads/photos/:year/:month/:file',
      summary: 'An uploaded photo',
      description: 'Where image_url points. Cached for a year (names never change); X-Content-Type-Options: nosniff.',
      tag: 'Service',
      access: 'public',
      params: z.object({
        year: z.string().meta({ example: '2026' }),
        month: z.string().meta({ example: '11' }),
        file: z.string().meta({ example: '0f1e2d3c4b5a69788796a5b4c3d2e1f0.png' }),
      }),
      response: { schema: z.string().meta({ format: 'binary' }), example: '', description: 'The image', media: 'image/*' },
      otherResponses: { 304: { description: 'Not modified since If-Modified-Since' } },
      errors: [404],
    },
    async (ctx) => {
      const { year, month, file: name } = ctx.params;
      const file = await files.open(`photos/${year}/${month}/${name}`);
      if (!file) {
        ctx.status = 404;
        ctx.body = { error: 'ResourceNotFound' };
        return;
      }
      ctx.set({
        'Cache-Control': `public, max-age=${A_YEAR}, immutable`,
        'X-Content-Type-Options': 'nosniff',
        'Content-Security-Policy': "default-src 'none'",
      });
      ctx.lastModified = file.modified;
      ctx.status = 200; // ctx.fresh compares validators only for a successful response
      if (ctx.fresh) {
        file.stream.destroy();
        ctx.status = 304;
        return;
      }
      ctx.type = file.contentType;
      ctx.length = file.size;
      ctx.body = file.stream;
    },
  );

  return router;
}

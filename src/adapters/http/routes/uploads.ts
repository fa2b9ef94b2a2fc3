import Router from '@koa/router';
import type { Readable } from 'node:stream';

/** Uploaded files as the storage adapter opens them for sending (see FolderStorage). */
export interface UploadedFiles {
  open(key: string): Promise<{ stream: Readable; size: number; modified: Date; contentType: string } | null>;
}

const A_YEAR = 365 * 24 * 60 * 60;

/**
 * `GET /uploads/…`: uploaded images, under names that never change (so they are cached for a year), with the
 * type their bytes were judged to be when they came in, and never sniffed as anything else by a browser.
 */
export function uploadRoutes(files: UploadedFiles): Router {
  const router = new Router();

  router.get('/uploads/{*key}', async (ctx) => {
    const file = await files.open(ctx.params.key ?? '');
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
  });

  return router;
}

import { Readable } from 'node:stream';
import Router from '@koa/router';
import type { Context } from 'koa';
import { ErrorLevel, type SitemapItemLoose, SitemapIndexStream, SitemapStream, streamToPromise } from 'sitemap';
import { z } from 'zod';
import type { NodeReadModel, SitemapReadModel } from '../../../application/read-models.js';
import type { Wire } from '../../presentation/wire.js';
import type { PageOperation, RouteDeclarer } from '../docs.js';
import { sendShared } from './feeds.js';

/**
 * What search engines read (contract §21a): `robots.txt`, and the sitemap index at `/sitemap.xml` with its files: the
 * topics a signed-out reader finds in the lists, a file per month of their creation; the nodes anyone may open; the
 * active members, in pieces of 50,000 ids. Each file is read from the sitemap's read model by index ranges, never by a
 * scan of every topic; each answers with an ETag (304 when unchanged), the same for everyone.
 */
export interface SitemapUseCases {
  sitemap: SitemapReadModel;
  nodes: NodeReadModel;
}
export const SitemapUseCases = Symbol.for('SitemapUseCases');

/** The most URLs a sitemap file may hold (the sitemap protocol). */
export const SITEMAP_URLS = 50_000;

/** What crawlers are asked to leave alone: accounts, sign-in and consent, the API, search results. */
const DISALLOWED = ['/account/', '/oauth/', '/api/', '/search'];

const XML = 'application/xml; charset=utf-8';
const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const PIECE = /^[1-9]\d{0,5}$/;

/** A file of the sitemap protocol, as an operation in the document (a file of URLs may have none: a 404). */
function xmlOperation(path: string, summary: string, params?: z.ZodObject): PageOperation {
  const index = path === '/sitemap.xml';
  return {
    method: 'get',
    path,
    summary,
    tag: 'Forum',
    access: 'browser',
    ...(params ? { params } : {}),
    response: {
      schema: z.string().meta({ description: 'A document of the sitemap protocol (sitemaps.org)' }),
      example: '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">…</urlset>',
      description: 'The file',
      media: 'application/xml',
    },
    otherResponses: {
      304: { description: 'Unchanged: the file the reader has (If-None-Match) is current' },
      ...(index ? {} : { 404: { schema: z.string(), description: 'No such file, or nothing in it', media: 'text/plain' } }),
    },
    errors: [],
  };
}

/** The URLs as a sitemap file (at most SITEMAP_URLS of them); none, no file (the protocol's file has one at least). */
async function urlset(items: SitemapItemLoose[]): Promise<string | null> {
  if (items.length === 0) return null;
  const stream = new SitemapStream({
    level: ErrorLevel.THROW,
    xmlns: { news: false, video: false, image: false, xhtml: false },
  });
  return (await streamToPromise(Readable.from(items).pipe(stream))).toString('utf8');
}

/** The files as a sitemap index. */
async function sitemapIndex(urls: string[]): Promise<string> {
  const stream = new SitemapIndexStream({ level: ErrorLevel.THROW });
  return (await streamToPromise(Readable.from(urls.map((url) => ({ url }))).pipe(stream))).toString('utf8');
}

function notFound(ctx: Context): void {
  ctx.status = 404;
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Not found';
}

export function sitemapRoutes(app: SitemapUseCases, wire: Wire, docs: RouteDeclarer): Router {
  const router = new Router();

  /** A sitemap file of `items`; with none, a 404 (the index lists only files with something in them). */
  async function answer(ctx: Context, items: SitemapItemLoose[]): Promise<void> {
    const xml = await urlset(items);
    if (xml === null) return notFound(ctx);
    sendShared(ctx, XML, xml);
  }

  /** The members whose ids are in piece `piece` (from 1), as a sitemap file. */
  async function users(ctx: Context, piece: number): Promise<void> {
    const logins = await app.sitemap.userLogins((piece - 1) * SITEMAP_URLS + 1, piece * SITEMAP_URLS);
    await answer(
      ctx,
      logins.map((login) => ({ url: wire.url(`/${encodeURIComponent(login)}`) })),
    );
  }

  /** The nodes anyone may open, as the nodes' page lists them: every node but the hidden ones. */
  const openNodes = async () => (await app.nodes.list({ actor: null })).result.filter((node) => !node.hidden);

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/robots.txt',
      summary: 'What crawlers may read, and where the sitemap is',
      tag: 'Forum',
      access: 'browser',
      response: {
        schema: z.string().meta({ description: 'robots.txt (RFC 9309)' }),
        example: 'User-agent: *\nDisallow: /account/\n…\nSitemap: https://forum.example/sitemap.xml\n',
        description: 'The rules',
        media: 'text/plain',
      },
      otherResponses: { 304: { description: 'Unchanged: the file the reader has (If-None-Match) is current' } },
      errors: [],
    },
    (ctx) => {
      const lines = [
        'User-agent: *',
        ...DISALLOWED.map((path) => `Disallow: ${path}`),
        '',
        `Sitemap: ${wire.url('/sitemap.xml')}`,
      ];
      sendShared(ctx, 'text/plain; charset=utf-8', `${lines.join('\n')}\n`);
    },
  );

  docs.route(
    router,
    '',
    xmlOperation('/sitemap.xml', 'The sitemap index: the topics by month of creation, the nodes, the members'),
    async (ctx) => {
      const [months, nodes, pieces] = await Promise.all([
        app.sitemap.topicMonths(),
        openNodes(),
        app.sitemap.userPieces(SITEMAP_URLS),
      ]);
      const files = [
        ...months.map((month) => `/sitemap/topics-${month}.xml`),
        ...(nodes.length > 0 ? ['/sitemap/nodes.xml'] : []),
        ...(pieces.length === 1 && pieces[0] === 1
          ? ['/sitemap/users.xml']
          : pieces.map((piece) => `/sitemap/users-${piece}.xml`)),
      ];
      sendShared(ctx, XML, await sitemapIndex(files.map((file) => wire.url(file))));
    },
  );

  docs.route(
    router,
    '',
    xmlOperation(
      '/sitemap/topics-:month.xml',
      'The topics created in a month (UTC) that a signed-out reader finds in the lists, with their last activity',
      z.object({ month: z.string().meta({ description: 'The month, as YYYY-MM', example: '2026-01' }) }),
    ),
    async (ctx) => {
      const month = MONTH.exec(String(ctx.params.month));
      const year = Number(month?.[1]);
      // (Date.UTC reads years below 100 as 19xx: no forum had topics before 1970.)
      if (!month || year < 1970) return notFound(ctx);
      const index = Number(month[2]) - 1;
      // The protocol's 50,000 URLs a file: a month with more than that (1,600 topics a day) lists its first 50,000.
      const topics = await app.sitemap.topicsCreated(
        new Date(Date.UTC(year, index, 1)),
        new Date(Date.UTC(year, index + 1, 1)),
        SITEMAP_URLS,
      );
      await answer(
        ctx,
        topics.map((topic) => ({ url: wire.url(`/topics/${topic.id}`), lastmod: topic.lastActiveAt.toISOString() })),
      );
    },
  );

  docs.route(router, '', xmlOperation('/sitemap/nodes.xml', 'The nodes anyone may open'), async (ctx) => {
    await answer(
      ctx,
      (await openNodes()).map((node) => ({ url: wire.url(`/topics/node${node.id}`) })),
    );
  });

  docs.route(
    router,
    '',
    xmlOperation('/sitemap/users.xml', 'The active members’ profiles (the first 50,000 ids)'),
    async (ctx) => {
      await users(ctx, 1);
    },
  );

  docs.route(
    router,
    '',
    xmlOperation(
      '/sitemap/users-:piece.xml',
      'The active members’ profiles, a piece of 50,000 ids (when there are more than 50,000)',
      z.object({ piece: z.string().meta({ description: 'The piece, from 1', example: '2' }) }),
    ),
    async (ctx) => {
      const raw = String(ctx.params.piece);
      const piece = PIECE.test(raw) ? Number(raw) : 0;
      if (piece < 1) return notFound(ctx);
      await users(ctx, piece);
    },
  );

  return router;
}

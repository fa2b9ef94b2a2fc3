import { createHash } from 'node:crypto';
import Router from '@koa/router';
import { Feed } from 'feed';
import type { Context } from 'koa';
import { z } from 'zod';
import type { CallerRef } from '../../../application/actor.js';
import type { NodeReadModel, TopicReadModel, TopicView } from '../../../application/read-models.js';
import type { ListTopics } from '../../../application/topics/list-topics.js';
import type { ListUserTopics } from '../../../application/users/user-lists.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { localeOf } from '../../presentation/locale.js';
import type { Wire } from '../../presentation/wire.js';
import { wordsOf } from '../../presentation/words/index.js';
import { Lang, type PageOperation, type RouteDeclarer } from '../docs.js';

/**
 * The feeds at homeland's paths (contract §21a): the newest topics, a node's, a member's; RSS 2.0 as homeland serves
 * them, Atom with `?format=atom`. Read as someone signed out reads the lists, through the same use cases as the pages
 * and the API (`ListTopics`, `ListUserTopics`), with the bodies of those topics read after them for the same reader:
 * nothing a signed-out reader cannot see appears in a feed.
 */
export interface FeedUseCases {
  listTopics: ListTopics;
  listUserTopics: ListUserTopics;
  nodes: NodeReadModel;
  /** The bodies of the topics a list gave (`details`). */
  topics: TopicReadModel;
}
export const FeedUseCases = Symbol.for('FeedUseCases');

/** The items of a feed (homeland's 20). */
export const FEED_ITEMS = 20;

const RSS = 'application/rss+xml; charset=utf-8';
const ATOM = 'application/atom+xml; charset=utf-8';

/** A signed-out reader: feed readers send no session, and a feed is the same for everyone. */
const ANYONE: CallerRef = { actor: null };

/**
 * Answers with a document that is the same for every reader: shared caches may keep it and revalidate it by its
 * ETag (a digest of the bytes); an unchanged one is a 304. The feeds and the sitemap answer this way.
 */
export function sendShared(ctx: Context, type: string, body: string): void {
  ctx.type = type;
  ctx.body = body;
  ctx.set('Cache-Control', 'public, no-cache');
  ctx.etag = `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  if (ctx.fresh) {
    ctx.status = 304;
    ctx.body = null;
  }
}

/** What cannot be in an XML document (C0 controls but tab and line ends; U+FFFE, U+FFFF), dropped from text. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Text the feed library escapes (a feed's title): without what XML cannot hold. */
export const xmlText = (text: string): string => text.replace(NOT_XML, '');

/**
 * Text the feed library puts in a CDATA section (an item's title and content): without what XML cannot hold, and
 * with every `]]>` but the first already split across two sections (the library splits only the first, and a second
 * one would end the section early: a title could then write elements into the feed). The feeds' test holds a title
 * with several.
 */
export function cdataText(text: string): string {
  const clean = xmlText(text);
  const [first, ...rest] = clean.split(']]>');
  return rest.length <= 1 ? clean : `${first}]]>${rest.join(']]]]><![CDATA[>')}`;
}

/** A feed's operation in the document. */
function feedOperation(path: string, summary: string, params?: z.ZodObject): PageOperation {
  return {
    method: 'get',
    path,
    summary,
    description:
      `RSS 2.0 (${RSS.split(';')[0]}); with \`format=atom\`, Atom (${ATOM.split(';')[0]}). The ${FEED_ITEMS} newest ` +
      'topics a signed-out reader finds there, each with its body as HTML.',
    tag: 'Forum',
    access: 'browser',
    ...(params ? { params } : {}),
    query: z.object({
      format: z.enum(['rss', 'atom']).optional().meta({ description: 'The feed’s format: RSS 2.0 unless `atom`' }),
      lang: Lang,
    }),
    response: {
      schema: z.string().meta({ description: 'An RSS 2.0 (or Atom) document' }),
      example: '<?xml version="1.0" encoding="utf-8"?><rss version="2.0">…</rss>',
      description: 'The feed',
      media: RSS.split(';')[0]!,
    },
    otherResponses: {
      304: { description: 'Unchanged: the feed the reader has (If-None-Match) is current' },
      ...(params ? { 404: { schema: z.string(), description: 'No such node or member', media: 'text/plain' } } : {}),
    },
    errors: [],
  };
}

/**
 * The feeds' two routers: the forum's lists' (`/topics/feed`, a node's), asked before the topic pages, and the
 * members' (`/:login/feed`), whose pattern is any path of two segments: asked last, after the people's pages, so
 * that no page of two segments (a topic's, a node's) is asked of it first.
 */
export function feedRoutes(app: FeedUseCases, wire: Wire, docs: RouteDeclarer): { lists: Router; members: Router } {
  const router = new Router();
  const members = new Router();

  /** The topics of a list, newest first, with their bodies, as a feed of the format asked for. */
  async function answer(ctx: Context, about: { title: string; page: string }, listed: TopicView[]): Promise<void> {
    const topics = listed.slice(0, FEED_ITEMS);
    const ids = topics.map((topic) => topic.id);
    const details = await app.topics.details(ids, null);
    const bodies = new Map(details.map((topic) => [topic.id, topic]));
    const shown = topics.flatMap((topic) => {
      const detail = bodies.get(topic.id);
      return detail ? [wire.topicDetail(detail, null)] : [];
    });
    const atom = ctx.query.format === 'atom';
    const self = wire.url(ctx.path);
    const feed = new Feed({
      id: self,
      title: xmlText(about.title),
      link: wire.url(about.page),
      language: localeOf(ctx),
      updated: shown.reduce((latest, topic) => {
        const at = new Date(topic.updated_at!);
        return at > latest ? at : latest;
      }, new Date(0)),
      feedLinks: { rss: self, atom: `${self}?format=atom` },
      generator: false,
    });
    for (const topic of shown) {
      const link = wire.url(`/topics/${topic.id}`);
      feed.addItem({
        title: cdataText(topic.title),
        link,
        // No id nor guid: the link is the item's permanent id (RSS's guid isPermaLink, Atom's id), as homeland's.
        date: new Date(topic.updated_at!),
        published: new Date(topic.created_at!),
        author: [{ name: topic.user.login, link: wire.url(`/${encodeURIComponent(topic.user.login)}`) }],
        content: cdataText(topic.body_html),
      });
    }
    ctx.vary('Accept-Language');
    sendShared(ctx, atom ? ATOM : RSS, atom ? feed.atom1() : feed.rss2());
  }

  /** A feed; what there is not (or not for everyone), a plain 404. */
  const feeding =
    (work: (ctx: Context) => Promise<void>) =>
    async (ctx: Context): Promise<void> => {
      try {
        await work(ctx);
      } catch (error) {
        if (!(error instanceof NotFound)) throw error;
        ctx.status = 404;
        ctx.type = 'text/plain; charset=utf-8';
        ctx.body = 'Not found';
      }
    };

  const words = (ctx: Context) => wordsOf(localeOf(ctx)).forum;

  docs.route(
    router,
    '',
    feedOperation('/topics/feed', 'The newest topics, as a feed'),
    feeding(async (ctx) => {
      const { result } = await app.listTopics.execute(ANYONE, { type: 'recent', offset: 0, limit: FEED_ITEMS });
      const forum = words(ctx);
      await answer(ctx, { title: `${forum.lists.recent} · ${forum.siteName}`, page: '/topics/last' }, result);
    }),
  );

  docs.route(
    router,
    '',
    feedOperation(
      '/topics/node:id/feed',
      'A node’s newest topics, as a feed',
      z.object({ id: z.string().meta({ description: 'The node’s id (digits)' }) }),
    ),
    feeding(async (ctx) => {
      const id = idOf(ctx.params.id);
      // As its page: a node that does not exist, or is hidden, is not there (the page says so too).
      const { result: node } = await app.nodes.get(id, ANYONE);
      if (!node || node.hidden) throw new NotFound('node');
      const { result } = await app.listTopics.execute(ANYONE, { type: 'recent', nodeId: id, offset: 0, limit: FEED_ITEMS });
      const forum = words(ctx);
      await answer(ctx, { title: `${forum.nodeTopics(node.name)} · ${forum.siteName}`, page: `/topics/node${id}` }, result);
    }),
  );

  docs.route(
    members,
    '',
    feedOperation(
      '/:login/feed',
      'A member’s newest topics, as a feed',
      z.object({ login: z.string().meta({ description: 'The member’s login' }) }),
    ),
    feeding(async (ctx) => {
      const login = String(ctx.params.login);
      const topics = await app.listUserTopics.execute(null, login, { order: 'recent', offset: '0', limit: String(FEED_ITEMS) });
      const forum = words(ctx);
      const shownLogin = topics[0]?.user.login ?? login;
      await answer(
        ctx,
        { title: `${shownLogin} · ${forum.userTopics} · ${forum.siteName}`, page: `/${encodeURIComponent(shownLogin)}/topics` },
        topics,
      );
    }),
  );

  return { lists: router, members };
}

/** A path's id: digits only, else nothing here. */
function idOf(raw: unknown): number {
  const id = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id < 1) throw new NotFound('node');
  return id;
}

import { hash } from 'node:crypto';
import type { Context } from 'koa';
import type { VNode } from 'preact';
import { z } from 'zod';
import type { Actor } from '../../application/actor.js';
import type { CountUnreadNotifications } from '../../application/notifications/manage-notifications.js';
import type { ResolveWebSession } from '../../application/oauth/web-sessions.js';
import { NotFound } from '../../domain/shared/errors.js';
import { policy } from '../../domain/shared/policy.js';
import { readsAsEveryone } from '../../domain/visibility/visibility.js';
import type { FrontPageCache } from '../presentation/front-page-cache.js';
import { renderDocument } from '../presentation/html.js';
import { bodyLeftToRoute } from '../presentation/request-body.js';
import { wordsOf } from '../presentation/words/index.js';
import type { Wire } from '../presentation/wire.js';
import { type BrowserPages, contentSecurityPolicy, SESSION_COOKIE, sessionCsrf } from './browser.js';
import { htmlPage, Lang, page } from './docs.js';
import { formChose, paramsOf } from './forms.js';
import { frameOf } from './frame.js';
import { receiveForm } from './post-image.js';
import { expiredForm, tooLargeForm } from './routes/account.js';
import { type SignedIn, signedInUser } from './sign-in.js';
import { type ForumFrame, NotFoundPage } from './views/forum.js';
import { actionFor } from './views/layout.js';

/**
 * What every forum page shares (contract §21): who reads it (the browser's session, their forms' token, their unread
 * count), how it is answered (an ETag and 304; public when signed out, private when signed in), the anonymous first
 * pages of lists from the page cache, the one not-found page, and the signed-in writer a form needs.
 */

/** What every forum page calls. */
export interface ForumPageUseCases {
  resolveWebSession: ResolveWebSession;
  /** The signed-in reader's unread count, on every page (contract §21b). */
  countUnread: CountUnreadNotifications;
}

/** The anonymous first pages of the lists, kept as the API's are (FrontPageCache), and how to mark kept bytes. */
export interface PageCache {
  cache: FrontPageCache;
  keep(body: Buffer): Buffer;
}

/** `?page=n`, from 1; anything else is the first page (a crawler's odd link is not an error). */
export function pageOf(ctx: Context): number {
  const page = Number(ctx.query.page);
  return Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1;
}
export const IdParam = z.object({ id: z.string().meta({ description: 'The id (digits)' }) });
export const LoginParam = z.object({ login: z.string().meta({ description: 'The member’s login' }) });
export const ListQuery = z.object({
  page: z.number().int().min(1).optional().meta({ description: 'Which page, from 1' }),
  lang: Lang,
});

/** A path's parameters, as an operation documents them: a member's login, or an id. */
const paramsIn = (path: string) =>
  path.includes(':login') ? { params: LoginParam } : path.includes(':id') ? { params: IdParam } : {};

/** A page's operation in the service's document: a GET of a page, which may be unchanged (304) or not there (404). */
export const pageOperation = (path: string, summary: string) =>
  ({
    method: 'get',
    path,
    summary,
    tag: 'Forum',
    access: 'browser',
    ...paramsIn(path),
    query: ListQuery,
    response: htmlPage('The page'),
    otherResponses: {
      304: { description: 'Unchanged: the page the browser has (If-None-Match) is current' },
      404: page('Nothing there, or not for this reader'),
    },
    errors: [],
  }) as const;

/** A form of a page's operation: posted, then back to the page it is on (303), or the page again with a refusal. */
export const formOperation = (path: string, summary: string, body: z.ZodObject) =>
  ({
    method: 'post',
    path,
    summary,
    tag: 'Forum',
    access: 'browser',
    ...paramsIn(path),
    query: z.object({ lang: Lang }),
    body: { schema: body, media: ['form', 'multipart'] },
    response: { status: 303, description: 'Done: back to the page (not signed in: to the sign-in page)' },
    otherResponses: {
      200: htmlPage('A preview: the page again, the post rendered above its form'),
      400: page('Refused (the API’s reason): the page again, with what was typed'),
      403: page('The form’s token is not this session’s, or the API refuses (its reason)'),
      404: page('Nothing there for this reader'),
    },
    errors: [],
  }) as const;

/** A path's id: digits only, else nothing here. */
export function idOf(raw: unknown): number {
  const id = typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : 0;
  if (id < 1) throw new NotFound('page');
  return id;
}

export interface ForumPages {
  /** The reader (from the browser's session, if any) and the frame of their page. */
  readerOf(ctx: Context, description?: string): Promise<{ actor: Actor; frame: ForumFrame }>;
  /**
   * Answers with a page (or its kept bytes). `unkept`: a page no cache may keep, the browser's own included (a private
   * conversation, contract §24: nothing of it stays on a shared computer once its reader signs out).
   */
  show(ctx: Context, status: number, view: VNode | Buffer, options?: { unkept?: boolean }): void;
  /** A list's first page for a reader who is not signed in, from the page cache; else made afresh. */
  firstPageOr(ctx: Context, actor: Actor, key: string, make: () => Promise<VNode>): Promise<VNode | Buffer>;
  /** Answers with the one not-found page (404), in the reader's frame. */
  notFound(ctx: Context): Promise<void>;
  /** Runs a page; what the core does not find (or does not show this reader) is the one not-found page. */
  reading(work: (ctx: Context) => Promise<void>): (ctx: Context) => Promise<void>;
  /**
   * The signed-in writer of a form, whose token it carries; else the answer is given and null returned (for the
   * pages' script, `json`: a token that is not the session's is said in JSON).
   */
  writer(ctx: Context, answer?: 'page' | 'json'): Promise<SignedIn | null>;
}

/** The forum pages' Content-Security-Policy, made once. */
const FORUM_POLICY = contentSecurityPolicy(undefined, true);

export function forumPages(app: ForumPageUseCases, wire: Wire, browser: BrowserPages, pageCache?: PageCache): ForumPages {
  /** Each kept page's ETag, made once with it. */
  const etags = new WeakMap<Buffer, string>();

  /** The reader (from the browser's session, if any) and the frame of their page. */
  async function readerOf(ctx: Context, description?: string): Promise<{ actor: Actor; frame: ForumFrame }> {
    // No Cookie header (most readers signed out, crawlers): no cookie jar to make.
    const signedIn =
      ctx.headers.cookie && ctx.cookies.get(SESSION_COOKIE) ? await signedInUser(ctx, app.resolveWebSession) : null;
    const actor = signedIn?.user ?? null;
    ctx.state.reader = actor;
    const frame = frameOf(ctx);
    const unread = signedIn ? ((await app.countUnread.execute({ actor })).result ?? 0) : 0;
    return {
      actor,
      frame: {
        ...frame,
        reader: signedIn
          ? {
              login: signedIn.user.login,
              csrf: sessionCsrf(signedIn.session),
              unread,
              ...(policy.reviewPosts(signedIn.user) ? { admin: true } : {}),
            }
          : { login: null },
        // A later page of a list is its own page (and canonical to itself), as search engines ask.
        canonical: wire.url(pageOf(ctx) > 1 ? `${ctx.path}?page=${pageOf(ctx)}` : ctx.path),
        ...(description ? { description } : {}),
      },
    };
  }

  /**
   * Answers with a page: its ETag (a digest of the bytes) and a 304 when the browser has them; shared caches may
   * keep an anonymous page (revalidating it), never a signed-in one; an `unkept` page nobody keeps.
   */
  function show(ctx: Context, status: number, view: VNode | Buffer, options: { unkept?: boolean } = {}): void {
    const signedIn = ctx.state.reader !== null && ctx.state.reader !== undefined;
    // A signed-in reader's page loads the forum's script (views/script.ts); the account pages load none.
    browser.show(ctx, status, view, {
      policy: FORUM_POLICY,
      cacheControl: options.unkept ? 'private, no-store' : signedIn ? 'private, no-cache' : 'public, no-cache',
    });
    // One field, appended as it is: `vary`'s parsing of the header, twice, was 5 % of a cached page's CPU.
    ctx.append('Vary', 'Cookie, Accept-Language');
    // A page nobody keeps is never revalidated: no validator to make.
    if (status !== 200 || options.unkept) return;
    ctx.etag = Buffer.isBuffer(view) ? etagOf(view) : digestTag(ctx.body as Buffer);
    if (ctx.fresh) {
      ctx.status = 304;
      ctx.body = null;
    }
  }

  // A validator, not a secret: SHA-1 in one call is the cheapest digest that tells two pages apart.
  const digestTag = (body: Buffer) => `W/"${hash('sha1', body, 'base64url')}"`;
  function etagOf(body: Buffer): string {
    let tag = etags.get(body);
    if (tag === undefined) etags.set(body, (tag = digestTag(body)));
    return tag;
  }

  /**
   * A list's first page for a reader who is not signed in: from the page cache (one read and one rendering for every
   * such reader, dropped when topics or replies change, as the API's front page), else made afresh.
   */
  async function firstPageOr(ctx: Context, actor: Actor, key: string, make: () => Promise<VNode>): Promise<VNode | Buffer> {
    if (!pageCache || !readsAsEveryone(actor) || pageOf(ctx) !== 1) return make();
    return pageCache.cache.get(`page|${frameOf(ctx).locale}|${key}`, async () =>
      pageCache.keep(Buffer.from(renderDocument(await make()))),
    );
  }

  /** Answers with the one not-found page (404), in the reader's frame. */
  async function notFound(ctx: Context): Promise<void> {
    const { frame } = await readerOf(ctx);
    show(ctx, 404, <NotFoundPage frame={frame} />);
  }

  /** Runs a page; what the core does not find (or does not show this reader) is the one not-found page. */
  const reading =
    (work: (ctx: Context) => Promise<void>) =>
    async (ctx: Context): Promise<void> => {
      try {
        await work(ctx);
      } catch (error) {
        if (!(error instanceof NotFound) || formChose(ctx, error)) throw error;
        await notFound(ctx);
      }
    };

  /** The signed-in reader of a form, whose token it carries; else the answer is given here and null returned. */
  async function writer(ctx: Context, answer: 'page' | 'json' = 'page'): Promise<SignedIn | null> {
    const signedIn = await signedInUser(ctx, app.resolveWebSession);
    if (!signedIn) {
      browser.seeOther(ctx, actionFor('/account/sign-in', frameOf(ctx).locale));
      return null;
    }
    // A form with an image field is read here (its token is in it), once a session is known to send it.
    if (bodyLeftToRoute(ctx) && !(await receiveForm(ctx))) {
      if (answer === 'page') tooLargeForm(ctx, browser);
      else {
        ctx.status = 413;
        ctx.body = { error: wordsOf(frameOf(ctx).locale).account.tooLarge };
      }
      return null;
    }
    if (!browser.sessionCsrfMatches(signedIn.session, paramsOf(ctx).csrf_token)) {
      if (answer === 'page') expiredForm(ctx, browser);
      else {
        ctx.status = 403;
        ctx.body = { error: wordsOf(frameOf(ctx).locale).account.expired };
      }
      return null;
    }
    ctx.state.reader = signedIn.user;
    return signedIn;
  }

  return { readerOf, show, firstPageOr, notFound, reading, writer };
}

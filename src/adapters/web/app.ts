import Router from '@koa/router';
import type { Context, Next } from 'koa';
import type { RouteDeclarer } from './docs.js';
import { refusals } from './forms.js';
import type { AccountPageUseCases } from './routes/account.js';
import { authorizeRoutes, type AuthorizeRouteUseCases } from './routes/authorize.js';
import { joiningRoutes } from './routes/joining.js';
import { passwordRoutes } from './routes/password.js';
import { feedRoutes, type FeedUseCases } from './routes/feeds.js';
import { sitemapRoutes, type SitemapUseCases } from './routes/sitemap.js';
import { browserPages, SESSION_COOKIE } from './browser.js';
import { forumPages, type PageCache } from './forum-pages.js';
import { peopleRoutes, type PeoplePageUseCases } from './routes/people.js';
import { readingRoutes, type ReadingPageUseCases } from './routes/reading.js';
import { writingRoutes, type WritingPageUseCases } from './routes/writing.js';
import { assetRoutes } from './routes/assets.js';
import { moderatingRoutes, type ModeratingPageUseCases } from './routes/moderating.js';
import { notificationRoutes, type NotificationPageUseCases } from './routes/notifications.js';
import { messageRoutes, type MessagePageUseCases } from './routes/messages.js';
import type { Wire } from '../presentation/wire.js';
import { settingsRoutes } from './routes/settings.js';
import { signInRoutes } from './routes/sign-in.js';
import { providerRoutes, type ProviderPageUseCases } from './routes/providers.js';
import { twoFactorRoutes } from './routes/two-factor.js';
import { unsubscribeRoutes } from './routes/unsubscribe.js';

/**
 * The pages a person sees in a browser (contract §10's sign-in and consent, §16b's account pages, §17's
 * unsubscribe link; later §21's forum): HTML forms that work without scripts, in the reader's language, calling
 * the same use cases as the API. The service's one Koa app mounts them (src/server/app.ts).
 */

/** What the pages call, by the routers that call it. */
export interface WebUseCases {
  /** The sign-in and consent pages of the authorization code grant. */
  authorize: AuthorizeRouteUseCases;
  /** The pages of joining, signing in, settings and unsubscribing (/account). */
  accountPages: AccountPageUseCases;
  /** Signing in with another provider, and linking one (contract §25). */
  providerPages: ProviderPageUseCases;
  /** The forum's pages (contract §21a): lists, topics and their forms, nodes, search. */
  readingPages: ReadingPageUseCases;
  /** The members, and a member's page with its tabs (contract §21a), following and blocking them (§21b). */
  peoplePages: PeoplePageUseCases;
  /** Writing in a browser (contract §21b): a new topic. */
  writingPages: WritingPageUseCases;
  /** The signed-in person's notifications (contract §21b). */
  notificationPages: NotificationPageUseCases;
  /** The signed-in person's private messages (contract §24): their conversations, one, a new one. */
  messagePages: MessagePageUseCases;
  /** Moderation in a browser, for administrators (contract §21b): a topic's, a member's, the review queue. */
  moderatingPages: ModeratingPageUseCases;
  /** The feeds of the newest topics, a node's and a member's (contract §21a). */
  feeds: FeedUseCases;
  /** robots.txt and the sitemap (contract §21a). */
  sitemap: SitemapUseCases;
}

export interface WebDependencies {
  useCases: WebUseCases;
  /** Declares each page with its operation in the service's document. */
  docs: RouteDeclarer;
  /** Runs the rest of a request inside its own persistence context. */
  scope<T>(work: () => Promise<T>): Promise<T>;
  /** The service is reached by https: cookies are Secure. */
  secureCookies: boolean;
  /** The API's shapes, which the forum's pages show (so that they show what the API shows), and absolute URLs. */
  wire: Wire;
  /**
   * The anonymous first pages of the lists, kept and dropped on events as the API's are, and `keep` marking bytes
   * that are sent again and again (compressed once); none: every page is read.
   */
  pageCache?: PageCache;
}

/** Whether a GET may read through a repository (see webRoutes). */
const needsContext = (ctx: Context) =>
  ctx.path.startsWith('/account/') || ctx.path.startsWith('/oauth/') || ctx.cookies.get(SESSION_COOKIE) !== undefined;

/**
 * The forum's not-found page for a path no page and no API route knows (the server asks for it only then, and not
 * for the API's own paths: src/server/app.ts), in the reader's language and frame, as a page that finds nothing
 * answers. A signed-in browser's GET is given a persistence context to read its session in, as a page's is.
 */
export function pageNotFound(dependencies: WebDependencies): (ctx: Context) => Promise<void> {
  const { useCases, scope, wire } = dependencies;
  const { notFound } = forumPages(useCases.readingPages, wire, browserPages({ secureCookies: dependencies.secureCookies }));
  return (ctx) =>
    (ctx.method === 'GET' || ctx.method === 'HEAD') && ctx.cookies.get(SESSION_COOKIE) !== undefined
      ? scope(() => notFound(ctx))
      : notFound(ctx);
}

/**
 * The pages' routers, in the order they are asked (src/server/routing.ts asks each only about the paths it has
 * routes for). Each carries the two things every page needs in front of its route: a persistence context where a
 * GET may read through a repository, and the one refusal path.
 */
export function webRoutes(dependencies: WebDependencies): Router[] {
  const { useCases, docs, scope } = dependencies;
  const options = { secureCookies: dependencies.secureCookies };
  const account = useCases.accountPages;
  const feeds = feedRoutes(useCases.feeds, dependencies.wire, docs);
  // A form's POST has its persistence context already (every write has, src/server/app.ts). A GET gets one where it
  // may read through a repository: the account pages (a mailed link's account) and any page a signed-in browser
  // asks for (its session). A signed-out reader's forum page reads through read models only, and skips the fork,
  // as the API's reads do (docs/performance.md).
  const context = (ctx: Context, next: Next) =>
    (ctx.method === 'GET' || ctx.method === 'HEAD') && needsContext(ctx) ? scope(next) : next();
  return [
    authorizeRoutes(useCases.authorize, docs, options),
    joiningRoutes(account, docs, options),
    passwordRoutes(account, docs, options),
    signInRoutes(account, docs, options),
    providerRoutes(useCases.providerPages, docs, dependencies.wire, options),
    settingsRoutes(account, docs, options),
    twoFactorRoutes(account, docs, options),
    unsubscribeRoutes(account.unsubscribe, docs, options),
    assetRoutes(docs),
    // Before the pages: `/topics/feed`, `/robots.txt` and `/sitemap.xml` are theirs, not a topic's or a member's.
    feeds.lists,
    sitemapRoutes(useCases.sitemap, dependencies.wire, docs),
    // Before the topic pages: `/topics/new` is not a topic.
    writingRoutes(useCases.writingPages, dependencies.wire, docs, browserPages(options)),
    // After those two (`/topics/feed` and `/topics/new` are theirs), before the others: the pages most asked for are
    // asked of the fewest routers.
    readingRoutes(useCases.readingPages, dependencies.wire, docs, { ...options, pageCache: dependencies.pageCache }),
    notificationRoutes(useCases.notificationPages, dependencies.wire, docs, browserPages(options)),
    // No page cache for it: a conversation is its participants' alone (contract §24).
    messageRoutes(useCases.messagePages, dependencies.wire, docs, browserPages(options)),
    moderatingRoutes(useCases.moderatingPages, dependencies.wire, docs, browserPages(options)),
    // After the other pages: its `/:login` takes any one-segment path they leave.
    peopleRoutes(useCases.peoplePages, dependencies.wire, docs, options),
    // After them all: `/:login/feed` is any path of two segments (a topic's, a node's page) as far as its router knows.
    feeds.members,
  ].map((routes) => {
    const router = new Router();
    // The one refusal path: a refused form is shown again (forms.ts).
    router.use(context, refusals);
    router.use(routes.routes());
    return router;
  });
}

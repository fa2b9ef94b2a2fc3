import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ActingUser, Actor, CallerRef } from '../../../application/actor.js';
import type { LikeObject } from '../../../application/likes/like.js';
import type { WritingRights } from '../../../application/nodes/writing-rights.js';
import type { PreviewPost } from '../../../application/posts/preview.js';
import { type CreateReply, CreateReplyParams } from '../../../application/replies/create-reply.js';
import type { FavoriteTopic, FollowTopic } from '../../../application/topics/topic-relations.js';
import { type FlagPost, FlagParams } from '../../../application/review/flag-post.js';
import type { DeleteTopic } from '../../../application/topics/delete-topic.js';
import type { DeleteReply } from '../../../application/replies/delete-reply.js';
import { type UpdateReply, UpdateReplyParams } from '../../../application/replies/update-reply.js';
import { SESSION_COOKIE } from '../browser.js';
import { actionFor } from '../views/layout.js';
import { EditReplyPage } from '../views/writing.js';
import type { NodeReadModel, ReplyReadModel, TopicReadModel } from '../../../application/read-models.js';
import type { Clock } from '../../../application/ports.js';
import type { ListReplies } from '../../../application/replies/list-replies.js';
import type { UploadPhoto } from '../../../application/uploads/upload-photo.js';
import type { SearchContent } from '../../../application/search/search.js';
import type { ListTopics } from '../../../application/topics/list-topics.js';
import type { ShowTopic } from '../../../application/topics/show-topic.js';
import { newSince } from '../../../application/topics/read-state.js';
import type { BlockNode } from '../../../application/users/manage-users.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { LOCALES } from '../../../domain/users/user.js';
import type { Wire } from '../../presentation/wire.js';
import { wordsOf } from '../../presentation/words/index.js';
import { browserPages } from '../browser.js';
import { type FormPage, handleForm, readForm } from '../forms.js';
import {
  formOperation,
  type ForumPageUseCases,
  forumPages,
  IdParam,
  idOf,
  ListQuery,
  type PageCache,
  pageOf,
  pageOperation,
} from '../forum-pages.js';
import { Csrf, Preview, Lang, page as pageResponse, type RouteDeclarer } from '../docs.js';
import { frameOf } from '../frame.js';
import { attachImage, withImage } from '../post-image.js';
import {
  type ReplyDraft,
  type Reply,
  type TopicDetail,
  type ListKind,
  type Node,
  NodesPage,
  SearchPage,
  TopicListPage,
  TopicPage,
} from '../views/forum.js';

/** What the reading pages call: the use cases and read models the API's reads call, nothing of their own. */
export interface ReadingPageUseCases extends ForumPageUseCases {
  listTopics: ListTopics;
  showTopic: ShowTopic;
  listReplies: ListReplies;
  nodes: NodeReadModel;
  search: SearchContent;
  // taking part (contract §21b)
  createReply: CreateReply;
  previewPost: PreviewPost;
  replies: ReplyReadModel;
  like: LikeObject;
  followTopic: FollowTopic;
  favoriteTopic: FavoriteTopic;
  flagPost: FlagPost;
  updateReply: UpdateReply;
  deleteTopic: DeleteTopic;
  deleteReply: DeleteReply;
  uploadPhoto: UploadPhoto;
  blockNode: BlockNode;
  /** Where a signed-in reader left off in a topic (contract §22): the link to the first unread reply, the new-replies line. */
  topics: TopicReadModel;
  /** Whether the node of a topic lets its reader reply, and who may when it does not (contract §23). */
  writingRights: WritingRights;
  /** What time it is: which topics are new to a reader (contract §22). */
  clock: Clock;
}
export const ReadingPageUseCases = Symbol.for('ReadingPageUseCases');

/** Topics a list page shows (the API's default page), and replies a topic page shows (contract §21a). */
export const TOPICS_PER_PAGE = 20;
export const REPLIES_PER_PAGE = 100;

/** The lists at homeland's URLs, and the API's list type each shows (`last_reply`: by last activity, as `/topics`). */
const LISTS: [string, ListKind, 'last_actived' | 'recent' | 'popular' | 'no_reply' | 'excellent'][] = [
  ['/topics/last', 'recent', 'recent'],
  ['/topics/popular', 'popular', 'popular'],
  ['/topics/no_reply', 'no_reply', 'no_reply'],
  ['/topics/excellent', 'excellent', 'excellent'],
  ['/topics/last_reply', 'last_actived', 'last_actived'],
];

/** homeland's account pages, and ours (contract §21a: a 301, so that bookmarks and search engines move). */
const HOMELAND_ACCOUNT_PATHS: [string, string][] = [
  ['/account/sign_in', '/account/sign-in'],
  ['/account/sign_up', '/account/sign-up'],
  ['/account/password/new', '/account/password/forgot'],
  ['/setting', '/account/settings'],
];

/**
 * The forum as pages (contract §21a): homeland's URLs, read through the same use cases as the API's reads and shown
 * in the wire's shapes, so that a page shows a reader exactly what the API shows them. Anonymous pages may be kept
 * by caches (revalidated by their ETag); a signed-in reader's are private.
 */
export function readingRoutes(
  app: ReadingPageUseCases,
  wire: Wire,
  docs: RouteDeclarer,
  options: { secureCookies: boolean; pageCache?: PageCache | undefined },
): Router {
  const router = new Router();
  const browser = browserPages(options);
  const { readerOf, show, firstPageOr, reading, writer } = forumPages(app, wire, browser, options.pageCache);

  const caller = (actor: Actor): CallerRef => ({ actor });
  const t = (ctx: Context) => wordsOf(frameOf(ctx).locale).forum;

  async function topicList(ctx: Context, kind: ListKind, type: (typeof LISTS)[number][2], path: string, nodeId?: number) {
    const page = pageOf(ctx);
    const { actor, frame } = await readerOf(ctx);
    const words = t(ctx);
    frame.feed = nodeId === undefined ? '/topics/feed' : `/topics/node${nodeId}/feed`;
    const view = await firstPageOr(ctx, actor, path, async () => {
      const { viewer, result } = await app.listTopics.execute(caller(actor), {
        type,
        nodeId: nodeId ?? null,
        offset: (page - 1) * TOPICS_PER_PAGE,
        limit: TOPICS_PER_PAGE + 1,
      });
      const topics = result.slice(0, TOPICS_PER_PAGE).map((topic) => wire.topic(topic, viewer));
      // A signed-in reader's list marks the topics new to them (contract §22); a list read signed out marks none.
      const fresh =
        viewer && frame.reader.login ? { fresh: { since: newSince(app.clock.now()), login: frame.reader.login } } : {};
      const common = { frame, topics, ...fresh, page, hasNext: result.length > TOPICS_PER_PAGE, path };
      if (nodeId === undefined) {
        const title = path === '/' ? words.siteName : words.lists[kind];
        return <TopicListPage {...common} title={title} heading={words.lists[kind]} kind={kind} />;
      }
      const { result: node } = await app.nodes.get(nodeId, { actor });
      if (!node || node.hidden) throw new NotFound('node');
      const shown = wire.node(node);
      frame.description = shown.summary || words.nodeTopics(shown.name);
      const csrf = frame.reader.csrf;
      const nodeBlock = actor && csrf ? { csrf, blocked: await app.nodes.blocks(actor.id, nodeId) } : undefined;
      return (
        <TopicListPage
          {...common}
          title={shown.name}
          heading={words.nodeTopics(shown.name)}
          kind={null}
          node={shown}
          {...(nodeBlock ? { nodeBlock } : {})}
        />
      );
    });
    show(ctx, 200, view);
  }

  for (const path of ['/', '/topics']) {
    docs.route(
      router,
      '',
      pageOperation(path, path === '/' ? 'The front page: the active topics, pinned first' : 'The active topics'),
      reading((ctx) => topicList(ctx, 'last_actived', 'last_actived', path)),
    );
  }
  for (const [path, kind, type] of LISTS) {
    docs.route(
      router,
      '',
      pageOperation(path, `Topics: ${kind.replace('_', ' ')}`),
      reading((ctx) => topicList(ctx, kind, type, path)),
    );
  }
  docs.route(
    router,
    '',
    pageOperation('/topics/node:id', 'A node’s topics'),
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      await topicList(ctx, 'last_actived', 'last_actived', `/topics/node${id}`, id);
    }),
  );

  /**
   * A topic and a page of its replies, for this reader (with their form and their relation to it when signed in);
   * `draft`: the reply form as they left it, refused or previewed.
   */
  async function topicPage(
    ctx: Context,
    id: number,
    page: number,
    extra: { status?: number; draft?: ReplyDraft; notice?: string; alert?: string } = {},
  ): Promise<void> {
    const { actor, frame } = await readerOf(ctx);
    // Where a signed-in reader left off before this reading moves their mark (contract §22): the line above the
    // first reply they have yet to read. Read first: showing the topic marks it opened.
    const mark = actor ? await app.topics.markOf(id, actor.id) : null;
    const { viewer, result } = await app.showTopic.execute(caller(actor), id);
    const offset = (page - 1) * REPLIES_PER_PAGE;
    // One reply more than the page shows, to know of a next page; the reader has read those shown (contract §22).
    const replies = await app.listReplies.execute(caller(viewer), {
      topicId: id,
      offset,
      limit: REPLIES_PER_PAGE + 1,
      shown: REPLIES_PER_PAGE,
    });
    const topic = wire.topicDetail(result.topic, viewer);
    // A node that lets only some reply (contract §23): the page says who, instead of a form the use case refuses.
    const whoMayReply = viewer ? await app.writingRights.whoMayReply(viewer, result.topic.nodeId) : null;
    // Its author sees a held topic (contract §18), and is told why nobody else does.
    const notice = extra.notice ?? (result.topic.visibility === 'held' ? t(ctx).heldForReview : undefined);
    const shownReplies = replies.result.replies.slice(0, REPLIES_PER_PAGE).map((reply) => wire.reply(reply, replies.viewer));
    frame.description = excerpt(topic.body);
    frame.kind = 'article';
    frame.structured = discussion(topic, shownReplies, offset, frame.canonical, wire);
    show(
      ctx,
      extra.status ?? 200,
      <TopicPage
        frame={frame}
        topic={topic}
        replies={shownReplies}
        firstFloor={offset + 1}
        page={page}
        hasNext={replies.result.replies.length > REPLIES_PER_PAGE}
        {...(viewer && mark?.firstUnread ? { firstUnreadId: mark.firstUnread.id } : {})}
        {...(viewer ? { meta: result.meta } : {})}
        {...(extra.draft ? { draft: extra.draft } : {})}
        {...(notice ? { notice } : {})}
        {...(extra.alert ? { alert: extra.alert } : {})}
        {...(whoMayReply ? { replyRefused: t(ctx).whoMayReply(whoMayReply) } : {})}
      />,
    );
  }

  const topicOperation = pageOperation('/topics/:id', 'A topic and its replies (100 a page; reply n has the anchor #reply<n>)');
  docs.route(
    router,
    '',
    {
      ...topicOperation,
      query: ListQuery.extend({
        held: z.literal('1').optional().meta({ description: 'After a reply: it waits for review (a notice says so)' }),
        flagged: z.literal('1').optional().meta({ description: 'After a flag: a notice thanks the reader' }),
        quote: z.string().optional().meta({ description: 'A reply to quote: the reply form starts with it' }),
        unread: z
          .literal('1')
          .optional()
          .meta({ description: 'Signed in: to the first reply the reader has yet to read (a list’s “n new” links here)' }),
      }),
      otherResponses: {
        ...topicOperation.otherResponses,
        303: { description: 'With unread=1, signed in: to the first unread reply (its page and #reply<n>), else to the topic' },
      },
    },
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      if (ctx.query.unread === '1' && (await firstUnread(ctx, id))) return;
      const notice = ctx.query.held === '1' ? t(ctx).heldForReview : ctx.query.flagged === '1' ? t(ctx).flagged : undefined;
      const draft = await quoted(ctx, id);
      await topicPage(ctx, id, pageOf(ctx), { ...(notice ? { notice } : {}), ...(draft ? { draft } : {}) });
    }),
  );

  /**
   * `?unread=1` (a list's "n new", contract §22): a signed-in reader is sent to the first reply after their mark that
   * they have yet to read, on its page, by its floor; having none, to the topic. False for a reader not signed in
   * (the page is shown as it is).
   */
  async function firstUnread(ctx: Context, topicId: number): Promise<boolean> {
    if (!ctx.cookies.get(SESSION_COOKIE)) return false;
    const { actor } = await readerOf(ctx);
    if (!actor) return false;
    const first = (await app.topics.markOf(topicId, actor.id))?.firstUnread;
    const query = new URLSearchParams();
    if (first && first.floor > REPLIES_PER_PAGE) query.set('page', String(Math.ceil(first.floor / REPLIES_PER_PAGE)));
    const lang = ctx.query.lang;
    if (typeof lang === 'string' && (LOCALES as readonly string[]).includes(lang)) query.set('lang', lang);
    const search = query.size > 0 ? `?${query.toString()}` : '';
    browser.seeOther(ctx, `/topics/${topicId}${search}${first ? `#reply${first.floor}` : ''}`);
    return true;
  }

  /**
   * `?quote=<reply id>`: the reply form of a signed-in reader starts with that reply quoted (a reply of this topic
   * that the reader may read, as the API's reply detail shows it; anything else quotes nothing).
   */
  async function quoted(ctx: Context, topicId: number): Promise<ReplyDraft | undefined> {
    const raw = ctx.query.quote;
    if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || !ctx.cookies.get(SESSION_COOKIE)) return undefined;
    const { actor } = await readerOf(ctx);
    if (!actor) return undefined;
    const reply = await app.replies.detail(Number(raw), actor);
    if (!reply || reply.topicId !== topicId || reply.action) return undefined;
    const lines = reply.body
      .trim()
      .split('\n')
      .map((line) => `> ${line}`.trimEnd());
    return { body: `@${reply.user.login}\n${lines.join('\n')}\n\n` };
  }

  // Taking part (contract §21b): the topic page's forms, each a use case the API calls, then back to the page.

  const ReplyFormBody = CreateReplyParams.extend({
    csrf_token: Csrf,
    preview: Preview('reply'),
  });

  docs.route(
    router,
    '',
    withImage(formOperation('/topics/:id/replies', 'Reply (or preview it), with an image if one is chosen', ReplyFormBody)),
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const page = pageOf(ctx);
      const formPage: FormPage = {
        words: wordsOf(frameOf(ctx).locale).account,
        again: (refusal, typed) =>
          topicPage(ctx, id, page, { status: refusal.status, draft: { body: typed.body ?? '', error: refusal.message } }),
      };
      await attachImage(ctx, formPage, app.uploadPhoto, signedIn.user);
      const form = readForm(ctx, ReplyFormBody, formPage);
      if (form.preview) {
        const preview = app.previewPost.execute(signedIn.user, form.body);
        return topicPage(ctx, id, page, { draft: { body: form.body, preview } });
      }
      const created = await app.createReply.execute(signedIn.user, { topicId: id, body: form.body });
      const floor = await app.replies.floorOf(id, created.reply.id);
      const last = Math.max(1, Math.ceil(floor / REPLIES_PER_PAGE));
      const query = [last > 1 ? `page=${last}` : '', created.reply.visibility === 'held' ? 'held=1' : ''].filter(Boolean);
      browser.seeOther(ctx, `/topics/${id}${query.length ? `?${query.join('&')}` : ''}#reply${floor}`);
    }),
  );

  /** A flag, on the topic or on one of its replies (contract §18): the API's FlagPost, then back with thanks. */
  const FlagFormBody = FlagParams.extend({ csrf_token: Csrf });
  const flag = (type: 'topic' | 'reply') =>
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const form = readForm(ctx, FlagFormBody, {
        words: wordsOf(frameOf(ctx).locale).account,
        again: (refusal) => topicPage(ctx, id, 1, { status: refusal.status, alert: refusal.message }),
      });
      const target = { type, id: type === 'topic' ? id : idOf(ctx.params.replyId) };
      await app.flagPost.execute(signedIn.user, target, { reason: form.reason, message: form.message });
      browser.seeOther(ctx, `/topics/${id}?flagged=1`);
    });
  const replyParams = z.object({ id: IdParam.shape.id, replyId: z.string().meta({ description: 'The reply’s id' }) });
  docs.route(router, '', formOperation('/topics/:id/flag', 'Flag the topic for a moderator', FlagFormBody), flag('topic'));
  docs.route(
    router,
    '',
    { ...formOperation('/topics/:id/replies/:replyId/flag', 'Flag a reply for a moderator', FlagFormBody), params: replyParams },
    flag('reply'),
  );

  /** Deleting one's own post (as the API allows: its abilities), then back to the topic (or, the topic gone, home). */
  docs.route(
    router,
    '',
    formOperation('/topics/:id/delete', 'Delete the topic', z.object({ csrf_token: Csrf })),
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      await app.deleteTopic.execute(signedIn.user, id, null);
      browser.seeOther(ctx, '/');
    }),
  );
  docs.route(
    router,
    '',
    {
      ...formOperation('/topics/:id/replies/:replyId/delete', 'Delete a reply', z.object({ csrf_token: Csrf })),
      params: replyParams,
    },
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      await app.deleteReply.execute(signedIn.user, idOf(ctx.params.replyId), null);
      browser.seeOther(ctx, `/topics/${id}`);
    }),
  );

  /** Editing one's own reply (as the API allows: its abilities), with a preview; then back to it on its page. */
  const EditReplyBody = UpdateReplyParams.extend({
    csrf_token: Csrf,
    preview: Preview('reply'),
  });
  async function editReplyPage(
    ctx: Context,
    topicId: number,
    replyId: number,
    status = 200,
    draft?: { body: string; error?: string; preview?: string },
  ): Promise<void> {
    const { actor, frame } = await readerOf(ctx);
    if (!actor || !frame.reader.csrf) return browser.seeOther(ctx, actionFor('/account/sign-in', frame.locale));
    const reply = await app.replies.detail(replyId, actor);
    if (!reply || reply.topicId !== topicId || !wire.replyDetail(reply, actor).abilities.update) throw new NotFound('reply');
    show(
      ctx,
      status,
      <EditReplyPage
        frame={frame}
        csrf={frame.reader.csrf}
        action={`/topics/${topicId}/replies/${replyId}/edit`}
        topic={{ id: topicId, title: reply.topicTitle }}
        draft={draft ?? { body: reply.body }}
      />,
    );
  }
  docs.route(
    router,
    '',
    {
      ...pageOperation('/topics/:id/replies/:replyId/edit', 'Edit your reply'),
      params: replyParams,
      otherResponses: {
        303: { description: 'Not signed in: to the sign-in page' },
        404: pageResponse('No such reply of yours to edit'),
      },
    },
    reading((ctx) => editReplyPage(ctx, idOf(ctx.params.id), idOf(ctx.params.replyId))),
  );
  docs.route(
    router,
    '',
    withImage({
      ...formOperation('/topics/:id/replies/:replyId/edit', 'Save your reply (or preview it)', EditReplyBody),
      params: replyParams,
    }),
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const replyId = idOf(ctx.params.replyId);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const formPage: FormPage = {
        words: wordsOf(frameOf(ctx).locale).account,
        again: (refusal, typed) =>
          editReplyPage(ctx, id, replyId, refusal.status, { body: typed.body ?? '', error: refusal.message }),
      };
      await attachImage(ctx, formPage, app.uploadPhoto, signedIn.user);
      const form = readForm(ctx, EditReplyBody, formPage);
      if (form.preview) {
        const preview = app.previewPost.execute(signedIn.user, form.body);
        return editReplyPage(ctx, id, replyId, 200, { body: form.body, preview });
      }
      await app.updateReply.execute(signedIn.user, { id: replyId, body: form.body });
      const floor = await app.replies.floorOf(id, replyId);
      const page = Math.max(1, Math.ceil(floor / REPLIES_PER_PAGE));
      browser.seeOther(ctx, `/topics/${id}${page > 1 ? `?page=${page}` : ''}#reply${floor}`);
    }),
  );

  /** Blocking a node from its page (the API's BlockNode): its topics leave the reader's lists; then back to it. */
  for (const block of [true, false]) {
    const act = block ? 'block' : 'unblock';
    docs.route(
      router,
      '',
      formOperation(`/nodes/:id/${act}`, `${block ? 'Block' : 'Unblock'} a node`, z.object({ csrf_token: Csrf })),
      reading(async (ctx) => {
        const id = idOf(ctx.params.id);
        const signedIn = await writer(ctx);
        if (!signedIn) return;
        await app.blockNode.execute(signedIn.user, id, block);
        browser.seeOther(ctx, `/topics/node${id}`);
      }),
    );
  }

  /** Like, follow and favorite, and their undoing: a button each, posted, then back to the topic. */
  const TOPIC_ACTS: [string, (actor: ActingUser, id: number) => Promise<unknown>][] = [
    ['like', (actor, id) => app.like.execute(actor, { type: 'topic', id }, true)],
    ['unlike', (actor, id) => app.like.execute(actor, { type: 'topic', id }, false)],
    ['follow', (actor, id) => app.followTopic.execute(actor, id, true)],
    ['unfollow', (actor, id) => app.followTopic.execute(actor, id, false)],
    ['favorite', (actor, id) => app.favoriteTopic.execute(actor, id, true)],
    ['unfavorite', (actor, id) => app.favoriteTopic.execute(actor, id, false)],
  ];
  for (const [act, run] of TOPIC_ACTS) {
    docs.route(
      router,
      '',
      formOperation(`/topics/:id/${act}`, `${act[0]!.toUpperCase()}${act.slice(1)} the topic`, z.object({ csrf_token: Csrf })),
      reading(async (ctx) => {
        const id = idOf(ctx.params.id);
        const signedIn = await writer(ctx);
        if (!signedIn) return;
        await run(signedIn.user, id);
        browser.seeOther(ctx, `/topics/${id}`);
      }),
    );
  }

  docs.route(
    router,
    '',
    pageOperation('/nodes', 'Every node, by section'),
    reading(async (ctx) => {
      const { actor, frame } = await readerOf(ctx);
      // Sections in their own order (by their sort), each with its nodes in theirs; the nodes in none last.
      const sections = new Map<number | null, { section: string | null; nodes: Node[] }>();
      for (const section of await app.nodes.sections()) sections.set(section.id, { section: section.name, nodes: [] });
      for (const node of (await app.nodes.list({ actor })).result) {
        if (node.hidden) continue;
        const key = node.section?.id ?? null;
        if (!sections.has(key)) sections.set(key, { section: node.section?.name ?? null, nodes: [] });
        sections.get(key)!.nodes.push(wire.node(node));
      }
      const listed = [...sections.values()].filter((section) => section.nodes.length > 0);
      show(ctx, 200, <NodesPage frame={frame} sections={listed} />);
    }),
  );

  const search = pageOperation('/search', 'Search topics and replies');
  docs.route(
    router,
    '',
    {
      ...search,
      query: ListQuery.extend({ q: z.string().optional().meta({ description: 'The words to find' }) }),
      otherResponses: { ...search.otherResponses, 400: pageResponse('Words the search refuses: the page again, saying why') },
    },
    reading(async (ctx) => {
      const page = pageOf(ctx);
      const q = typeof ctx.query.q === 'string' ? ctx.query.q.trim() : '';
      const { actor, frame } = await readerOf(ctx);
      // Words the search refuses (too long, say) are said above its form, as any refused form's are.
      handleForm(ctx, {
        words: wordsOf(frame.locale).account,
        again: (refusal) =>
          show(
            ctx,
            refusal.status,
            <SearchPage frame={frame} q={q} results={null} page={1} hasNext={false} refused={refusal.message} />,
          ),
      });
      const results =
        q === ''
          ? null
          : await app.search.execute(actor, {
              q,
              offset: String((page - 1) * TOPICS_PER_PAGE),
              limit: String(TOPICS_PER_PAGE + 1),
            });
      show(
        ctx,
        200,
        <SearchPage
          frame={frame}
          q={q}
          results={results && results.slice(0, TOPICS_PER_PAGE).map((result) => wire.searchResult(result, actor))}
          page={page}
          hasNext={results !== null && results.length > TOPICS_PER_PAGE}
        />,
      );
    }),
  );

  for (const [from, to] of HOMELAND_ACCOUNT_PATHS) {
    docs.route(
      router,
      '',
      {
        method: 'get',
        path: from,
        summary: `homeland’s ${from}: moved to ${to}`,
        tag: 'Forum',
        access: 'browser',
        query: z.object({ lang: Lang }),
        response: { status: 301, description: `To ${to}` },
        errors: [],
      },
      (ctx) => {
        ctx.status = 301;
        ctx.redirect(ctx.querystring ? `${to}?${ctx.querystring}` : to);
      },
    );
  }

  return router;
}

/**
 * The topic as schema.org's DiscussionForumPosting, its replies on this page as its comments (what search engines
 * read a forum thread from). Deleted replies and system events are left out; the texts are the posts' Markdown.
 */
function discussion(topic: TopicDetail, replies: Reply[], offset: number, url: string, wire: Wire): object {
  const person = (login: string) => ({ '@type': 'Person', name: login, url: wire.url(`/${encodeURIComponent(login)}`) });
  return {
    '@context': 'https://schema.org',
    '@type': 'DiscussionForumPosting',
    headline: topic.title,
    text: topic.body,
    url,
    datePublished: topic.created_at,
    dateModified: topic.updated_at,
    author: person(topic.user.login),
    interactionStatistic: [
      {
        '@type': 'InteractionCounter',
        interactionType: 'https://schema.org/CommentAction',
        userInteractionCount: topic.replies_count,
      },
      {
        '@type': 'InteractionCounter',
        interactionType: 'https://schema.org/LikeAction',
        userInteractionCount: topic.likes_count,
      },
    ],
    comment: replies
      .map((reply, i) => ({ reply, floor: offset + i + 1 }))
      .filter(({ reply }) => !reply.deleted && !reply.action)
      .map(({ reply, floor }) => ({
        '@type': 'Comment',
        text: reply.body,
        datePublished: reply.created_at,
        author: person(reply.user.login),
        url: `${url}#reply${floor}`,
      })),
  };
}

/** The start of a post's text, for a page's description: Markdown's marks dropped, one line, at most 160 characters. */
function excerpt(markdown: string): string {
  const text = markdown
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!\[[^\]]*\]\([^)]*\)/g, ' ')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`~|-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

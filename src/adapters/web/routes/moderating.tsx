import type { NodeView } from '../../../application/read-models.js';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Actor } from '../../../application/actor.js';
import { maybe, oneOf, Reason, Ref } from '../../../application/inputs.js';
import type { NodeReadModel, TopicReadModel } from '../../../application/read-models.js';
import {
  type ListReviewItems,
  REVIEW_STATUSES,
  type ResolveReview,
  ResolveReviewParams,
} from '../../../application/review/review-queue.js';
import type { DeleteTopic } from '../../../application/topics/delete-topic.js';
import type { MoveTopic } from '../../../application/topics/move-topic.js';
import { TOPIC_ACTIONS, type TopicAction, type TopicActionType } from '../../../application/topics/topic-action.js';
import { DISCIPLINE_ACTS, DisciplineDays, type DisciplineUser } from '../../../application/users/discipline.js';
import type { ShowUser } from '../../../application/users/manage-users.js';
import { Forbidden, NotFound } from '../../../domain/shared/errors.js';
import { policy } from '../../../domain/shared/policy.js';
import type { Wire } from '../../presentation/wire.js';
import { type Words, wordsOf } from '../../presentation/words/index.js';
import type { BrowserPages } from '../browser.js';
import { Csrf, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { type FormPage, type Refusal, readForm, refuse, type Typed } from '../forms.js';
import { type ForumPageUseCases, forumPages, IdParam, idOf, ListQuery, LoginParam, pageOf } from '../forum-pages.js';
import { frameOf } from '../frame.js';
import type { ModerationTyped } from '../views/forum.js';
import { ModerateTopicPage, ModerateUserPage, RefusedPage, ReviewQueuePage } from '../views/moderating.js';

/**
 * What the moderation pages call: the use cases the API calls (a topic's action, its deletion, the review queue) and
 * forumctl's where the API has none (a topic moved without its text sent again; a member silenced or suspended).
 */
export interface ModeratingPageUseCases extends ForumPageUseCases {
  topics: TopicReadModel;
  nodes: NodeReadModel;
  topicAction: TopicAction;
  moveTopic: MoveTopic;
  deleteTopic: DeleteTopic;
  showUser: ShowUser;
  disciplineUser: DisciplineUser;
  listReviewItems: ListReviewItems;
  resolveReview: ResolveReview;
}
export const ModeratingPageUseCases = Symbol.for('ModeratingPageUseCases');

/** Items the review queue shows a page. */
export const REVIEW_ITEMS_PER_PAGE = 20;

/** What a topic's moderation form asks for: the API's topic actions (but `normal`, unexcellent's other name), delete, move. */
const TOPIC_ACTS = ['suggest', 'unsuggest', 'excellent', 'unexcellent', 'close', 'open', 'ban', 'delete', 'move'] as const;
const isTopicAction = (act: string): act is TopicActionType => (TOPIC_ACTIONS as readonly string[]).includes(act);

const ReasonField = Reason.meta({ description: 'Why, for the audit log (at most 500 characters)' });

const ModerateTopicBody = z.object({
  csrf_token: Csrf,
  act: oneOf(TOPIC_ACTS).meta({
    description:
      'suggest and unsuggest (pin), excellent and unexcellent, close and open, ban: the API’s topic action; delete: ' +
      'the API’s delete; move: to node_id, as an administrator’s update moves it (its node locked)',
  }),
  reason: ReasonField,
  node_id: maybe(Ref).meta({ description: 'With move: the node to move the topic to' }),
});

const DisciplineBody = z.object({
  csrf_token: Csrf,
  act: oneOf(DISCIPLINE_ACTS).meta({ description: 'silence or suspend (for days), unsilence or unsuspend' }),
  days: maybe(DisciplineDays).meta({ description: 'With silence or suspend: for how many days' }),
  reason: ReasonField,
});

const ResolveBody = ResolveReviewParams.extend({ csrf_token: Csrf, reason: ReasonField });

const ReviewQuery = ListQuery.extend({
  status: z.enum(REVIEW_STATUSES).optional().meta({ description: 'pending (the default), or resolved' }),
});

/** What a refused form had, shown again (never its token). */
const typedOf = (typed: Typed): ModerationTyped => ({
  ...(typed.reason ? { reason: typed.reason } : {}),
  ...(typed.node_id ? { nodeId: typed.node_id } : {}),
  ...(typed.days ? { days: typed.days } : typed.silence_days ? { days: typed.silence_days } : {}),
});

/**
 * Moderation in a browser (contract §18, §21b), for administrators, and for a node's moderators there (§23): a topic's
 * acts from its page, a member's silence and suspension from their profile, and the review queue. Each act is a form
 * carrying the session's token, posted to the use case the API (or forumctl) calls, then a redirect (303) to a page
 * that shows what it did; a refusal is the use case's, shown on the moderation page with what was typed. The rules,
 * and the audit entries, are the use cases': a page shows a moderator's panels to whom the API gives the abilities (the
 * wire's), and nobody else learns anything from these pages (the not-found page).
 */
export function moderatingRoutes(app: ModeratingPageUseCases, wire: Wire, docs: RouteDeclarer, browser: BrowserPages): Router {
  const router = new Router();
  const { readerOf, show, reading, writer } = forumPages(app, wire, browser);
  const t = (ctx: Context): Words => wordsOf(frameOf(ctx).locale);

  /** How a moderation form is refused: the use case's words, or (not an administrator) that only one may. */
  const form = (ctx: Context, again: FormPage['again']): FormPage => ({
    words: t(ctx).account,
    forbidden: t(ctx).moderation.forbidden,
    again: (refusal, typed) => reading(() => Promise.resolve(again(refusal, typed)))(ctx),
  });

  const pageResponses = {
    304: { description: 'Unchanged: the page the browser has (If-None-Match) is current' },
    404: page('Nothing there, or the reader is not an administrator (the not-found page: they learn nothing)'),
  };
  const formResponses = (done: string) =>
    ({
      response: { status: 303, description: `Done: ${done} (not signed in: to the sign-in page)` },
      otherResponses: {
        400: page('Refused (the core’s reason): the moderation page again, with what was typed'),
        403: page('The form’s token is not this session’s, or the reader is not an administrator (the core’s rule)'),
        404: page('No such thing for this reader'),
      },
    }) as const;

  // A topic.

  /** The topic's moderation page (its panel, with the nodes it may move to), for an administrator; a refusal on it. */
  async function topicModerationPage(ctx: Context, id: number, refused?: { refusal: Refusal; typed: Typed }) {
    const { actor, frame } = await readerOf(ctx);
    const found = await app.topics.detail(id, actor);
    if (!found) throw new NotFound('topic');
    const topic = wire.topicDetail(found, actor);
    // Whom the API lets ban a topic moderates it here (administrators, the node's moderators); anyone else learns
    // nothing but a refusal. Where it may go: any node for an administrator, a moderator's own nodes (contract §23).
    const may = topic.abilities.ban;
    if (!may && !refused) throw new NotFound('page');
    const movable = (node: NodeView) => !node.hidden && (actor?.role === 'admin' || node.moderated === true);
    const nodes = may ? (await app.nodes.list({ actor })).result.filter(movable).map((node) => wire.node(node)) : [];
    const refusal = refused ? { message: refused.refusal.message, typed: typedOf(refused.typed) } : undefined;
    if (!may && refusal) {
      const back = { href: `/topics/${id}`, label: t(ctx).moderation.backToTopic };
      return show(ctx, refused!.refusal.status, <RefusedPage frame={frame} message={refusal.message} back={back} />);
    }
    show(
      ctx,
      refused?.refusal.status ?? 200,
      <ModerateTopicPage frame={frame} topic={topic} nodes={nodes} may={may} {...(refusal ? { refusal } : {})} />,
    );
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/topics/:id/moderate',
      summary: 'A topic’s moderation page (administrators)',
      description:
        'The moderation panel of the topic’s page, with the nodes it may move to. Anyone who is not an administrator ' +
        'gets the not-found page.',
      tag: 'Forum',
      access: 'browser',
      params: IdParam,
      query: z.object({ lang: Lang }),
      response: htmlPage('The page'),
      otherResponses: pageResponses,
      errors: [],
    },
    reading((ctx) => topicModerationPage(ctx, idOf(ctx.params.id))),
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/topics/:id/moderate',
      summary: 'Moderate a topic: pin, excellent, close, ban, delete or move it',
      description:
        'The API’s topic action (suggest, unsuggest, excellent, unexcellent, close, open, ban), its delete, or a move ' +
        'as an administrator’s update makes it; each audited with `reason`. Then back to the topic (deleted: to its ' +
        'node’s topics).',
      tag: 'Forum',
      access: 'browser',
      params: IdParam,
      query: z.object({ lang: Lang }),
      body: { schema: ModerateTopicBody, media: ['form', 'multipart'] },
      ...formResponses('back to the topic, or (deleted) to its node’s topics'),
      errors: [],
    },
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const user = signedIn.user;
      const input = readForm(ctx, ModerateTopicBody, {
        ...form(ctx, (refusal, typed) => topicModerationPage(ctx, id, { refusal, typed })),
        chosen: ['node'],
      });
      const reason = input.reason ?? null;
      if (input.act === 'delete') {
        const topic = await app.topics.detail(id, user);
        if (!topic) throw new NotFound('topic');
        await app.deleteTopic.execute(user, id, reason);
        return browser.seeOther(ctx, `/topics/node${topic.nodeId}`);
      }
      if (input.act === 'move') {
        if (input.node_id === undefined) refuse(t(ctx).moderation.chooseNode);
        await app.moveTopic.execute(user, id, input.node_id, reason);
      } else if (isTopicAction(input.act)) {
        await app.topicAction.execute(user, id, input.act, reason);
      }
      browser.seeOther(ctx, `/topics/${id}`);
    }),
  );

  // A member.

  /** A member's moderation page (their standing and the panel), for an administrator; a refusal on it. */
  async function userModerationPage(ctx: Context, login: string, refused?: { refusal: Refusal; typed: Typed }) {
    const { actor, frame } = await readerOf(ctx);
    const { user } = await app.showUser.execute(actor, login);
    const shown = wire.userDetail(user, actor);
    // Whom the API lets manage accounts (administrators); anyone else learns nothing but a refusal.
    const may = shown.abilities.update;
    if (!may && !refused) throw new NotFound('page');
    const refusal = refused ? { message: refused.refusal.message, typed: typedOf(refused.typed) } : undefined;
    if (!may && refusal) {
      const back = { href: `/${encodeURIComponent(user.login)}`, label: t(ctx).moderation.backToProfile };
      return show(ctx, refused!.refusal.status, <RefusedPage frame={frame} message={refusal.message} back={back} />);
    }
    // The ends as stored: one that has passed is none in force.
    const now = new Date();
    const inForce = (end: Date | null) => (end !== null && end > now ? end.toISOString() : null);
    const standing = { silencedUntil: inForce(user.silencedUntil), suspendedUntil: inForce(user.suspendedUntil) };
    show(
      ctx,
      refused?.refusal.status ?? 200,
      <ModerateUserPage frame={frame} user={shown} standing={standing} may={may} {...(refusal ? { refusal } : {})} />,
    );
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/admin/users/:login',
      summary: 'A member’s standing and moderation (administrators)',
      description:
        'Whether the member is silenced or suspended, until when, and the forms that silence, suspend or lift either. ' +
        'Anyone who is not an administrator gets the not-found page.',
      tag: 'Forum',
      access: 'browser',
      params: LoginParam,
      query: z.object({ lang: Lang }),
      response: htmlPage('The page'),
      otherResponses: pageResponses,
      errors: [],
    },
    reading((ctx) => userModerationPage(ctx, String(ctx.params.login))),
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/admin/users/:login',
      summary: 'Silence or suspend a member, or lift either',
      description:
        'As forumctl’s users silence, suspend, unsilence and unsuspend: for `days`, ending by itself; a suspension ' +
        'also ends the member’s tokens and sessions; audited with `reason`. Then to the member’s standing.',
      tag: 'Forum',
      access: 'browser',
      params: LoginParam,
      query: z.object({ lang: Lang }),
      body: { schema: DisciplineBody, media: ['form', 'multipart'] },
      ...formResponses('to the member’s standing'),
      errors: [],
    },
    reading(async (ctx) => {
      const login = String(ctx.params.login);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const input = readForm(
        ctx,
        DisciplineBody,
        form(ctx, (refusal, typed) => userModerationPage(ctx, login, { refusal, typed })),
      );
      await app.disciplineUser.execute(signedIn.user, login, { act: input.act, days: input.days, reason: input.reason });
      browser.seeOther(ctx, `/admin/users/${encodeURIComponent(login)}`);
    }),
  );

  // The review queue.

  /**
   * A page of the queue as the use case lists it to the reader: every item to an administrator, those of posts in the
   * nodes they moderate to a node's moderator (contract §23); null when the reader reviews nothing (the use case
   * refuses them).
   */
  async function queueOf(actor: Actor, status: 'pending' | 'resolved', page: number) {
    if (!actor) return null;
    try {
      const items = await app.listReviewItems.execute(actor, {
        status,
        offset: (page - 1) * REVIEW_ITEMS_PER_PAGE,
        limit: REVIEW_ITEMS_PER_PAGE + 1,
      });
      return items.map((item) => wire.reviewItem(item, actor));
    } catch (error) {
      if (error instanceof Forbidden) return null;
      throw error;
    }
  }

  /** A node's moderator reviews their nodes' items only, and neither calls an author a spammer nor silences one. */
  const moderatorOnly = (actor: Actor) => !policy.reviewPosts(actor);

  const statusOf = (ctx: Context) => (ctx.query.status === 'resolved' ? 'resolved' : 'pending');

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/admin/review',
      summary: 'The review queue (administrators, and a node’s moderators)',
      description:
        'Flagged and held posts, as GET /api/v3/admin/review lists them (pending oldest first, 20 a page), each with ' +
        'its post, its flags and the actions that resolve it: every item to an administrator, those of posts in the ' +
        'nodes they moderate to a node’s moderator, without spammer and silence_days, which stay the ' +
        'administrators’. Anyone else gets the not-found page.',
      tag: 'Forum',
      access: 'browser',
      query: ReviewQuery,
      response: htmlPage('The page'),
      otherResponses: pageResponses,
      errors: [],
    },
    reading(async (ctx) => {
      const status = statusOf(ctx);
      const page = pageOf(ctx);
      const { actor, frame } = await readerOf(ctx);
      const items = await queueOf(actor, status, page);
      if (!items) throw new NotFound('page');
      show(
        ctx,
        200,
        <ReviewQueuePage
          frame={frame}
          status={status}
          items={items.slice(0, REVIEW_ITEMS_PER_PAGE)}
          page={page}
          hasNext={items.length > REVIEW_ITEMS_PER_PAGE}
          moderatorOnly={moderatorOnly(actor)}
        />,
      );
    }),
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/admin/review/:id',
      summary: 'Resolve an item of the review queue',
      description:
        'As POST /api/v3/admin/review/:id: agree or disagree (a flag), approve or reject (a hold), spammer (either); ' +
        '`silence_days` with agree or reject; audited with `reason`. Then back to the queue.',
      tag: 'Forum',
      access: 'browser',
      params: IdParam,
      query: z.object({ lang: Lang }),
      body: { schema: ResolveBody, media: ['form', 'multipart'] },
      ...formResponses('back to the queue'),
      errors: [],
    },
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const input = readForm(
        ctx,
        ResolveBody,
        form(ctx, async (refusal, typed) => {
          const { actor, frame } = await readerOf(ctx);
          const items = await queueOf(actor, 'pending', 1);
          const message = refusal.message;
          if (!items) {
            const back = { href: '/', label: t(ctx).forum.backHome };
            return show(ctx, refusal.status, <RefusedPage frame={frame} message={message} back={back} />);
          }
          const refused = { itemId: id, message, typed: typedOf(typed) };
          show(
            ctx,
            refusal.status,
            <ReviewQueuePage
              frame={frame}
              status="pending"
              items={items.slice(0, REVIEW_ITEMS_PER_PAGE)}
              page={1}
              hasNext={items.length > REVIEW_ITEMS_PER_PAGE}
              moderatorOnly={moderatorOnly(actor)}
              refused={refused}
            />,
          );
        }),
      );
      await app.resolveReview.execute(signedIn.user, id, {
        action: input.action,
        silence_days: input.silence_days,
        reason: input.reason,
      });
      browser.seeOther(ctx, '/admin/review');
    }),
  );

  return router;
}

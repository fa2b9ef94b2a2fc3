import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type {
  ListConversationReplies,
  ListConversations,
  ShowConversation,
} from '../../../application/conversations/read-conversations.js';
import {
  type AddParticipants,
  AddParticipantsParams,
  type LeaveConversation,
  type ReplyToConversation,
  ReplyToConversationParams,
  type StartConversation,
  StartConversationParams,
} from '../../../application/conversations/write-conversations.js';
import type { PreviewPost } from '../../../application/posts/preview.js';
import type { ReplyReadModel } from '../../../application/read-models.js';
import type { UploadPhoto } from '../../../application/uploads/upload-photo.js';
import type { Wire } from '../../presentation/wire.js';
import { wordsOf } from '../../presentation/words/index.js';
import type { BrowserPages } from '../browser.js';
import { Csrf, htmlPage, Lang, Preview, page, type RouteDeclarer } from '../docs.js';
import { type FormPage, readForm, type Typed, typedIn } from '../forms.js';
import { formOperation, type ForumPageUseCases, forumPages, IdParam, idOf, ListQuery, pageOf } from '../forum-pages.js';
import { frameOf } from '../frame.js';
import { attachImage, withImage } from '../post-image.js';
import type { ForumFrame } from '../views/forum.js';
import { actionFor } from '../views/layout.js';
import {
  type ConversationForms,
  ConversationPage,
  ConversationsPage,
  type MessageDraft,
  NewMessagePage,
} from '../views/messages.js';
import { REPLIES_PER_PAGE, TOPICS_PER_PAGE } from './reading.js';

/** What the message pages call: the API's own use cases (contract §24), nothing of their own. */
export interface MessagePageUseCases extends ForumPageUseCases {
  listConversations: ListConversations;
  showConversation: ShowConversation;
  listConversationReplies: ListConversationReplies;
  startConversation: StartConversation;
  replyToConversation: ReplyToConversation;
  addParticipants: AddParticipants;
  leaveConversation: LeaveConversation;
  previewPost: PreviewPost;
  uploadPhoto: UploadPhoto;
  /** The floor of the message one just wrote, for the page and anchor the browser goes to. */
  replies: ReplyReadModel;
}
export const MessagePageUseCases = Symbol.for('MessagePageUseCases');

/** Who a message goes to, as the forms take it: one line of names. */
const To = StartConversationParams.shape.to.meta({
  description: 'Logins and group names, separated by commas or spaces',
});
const NewMessageBody = StartConversationParams.extend({ to: To, csrf_token: Csrf, preview: Preview('message') });
const ReplyBody = ReplyToConversationParams.extend({ csrf_token: Csrf, preview: Preview('message') });
const AddBody = AddParticipantsParams.extend({ to: To, csrf_token: Csrf });

/** What a signed-out reader, or anyone outside a conversation, is told by the operations below. */
const SIGN_IN = { description: 'Not signed in: to the sign-in page' };
const NOT_THEIRS = page('Not a conversation of the reader’s: the not-found page, to anyone else, administrators included');

/** A refused new message form, as it comes back: what was typed, and why. */
const draftOf = (typed: Typed, error: string): MessageDraft => ({
  to: typed.to ?? '',
  title: typed.title ?? '',
  body: typed.body ?? '',
  error,
});

/**
 * Private messages in a browser (contract §24): `/messages` (the reader's conversations), `/messages/new` (with
 * `?to=<login>`, the link on a profile), a conversation's page with its reply form, adding people and leaving. Each
 * page and form is the API's use case, which alone decides who sees a conversation: to anyone outside it, it is the
 * not-found page, administrators included. The pages are the reader's alone: never in the page cache (it is not
 * given to this router), and kept by no cache, the browser's own included (`unkept`).
 */
export function messageRoutes(app: MessagePageUseCases, wire: Wire, docs: RouteDeclarer, browser: BrowserPages): Router {
  const router = new Router();
  const { readerOf, show, reading, writer } = forumPages(app, wire, browser);
  const toSignIn = (ctx: Context, frame: ForumFrame) => browser.seeOther(ctx, actionFor('/account/sign-in', frame.locale));
  const formWords = (ctx: Context) => wordsOf(frameOf(ctx).locale).account;

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/messages',
      summary: 'Your conversations',
      description:
        'Newest activity first, 20 a page, each with who takes part, its last message and how many of its messages ' +
        'you have yet to read. Not signed in: to the sign-in page (303).',
      tag: 'Forum',
      access: 'browser',
      query: ListQuery,
      response: htmlPage('The conversations'),
      otherResponses: { 303: SIGN_IN },
      errors: [],
    },
    reading(async (ctx) => {
      const { actor, frame } = await readerOf(ctx);
      if (!actor || !frame.reader.csrf) return toSignIn(ctx, frame);
      const page = pageOf(ctx);
      const listed = await app.listConversations.execute(actor, {
        offset: (page - 1) * TOPICS_PER_PAGE,
        limit: TOPICS_PER_PAGE + 1,
      });
      const conversations = listed.slice(0, TOPICS_PER_PAGE).map((conversation) => wire.conversation(conversation, actor));
      const hasNext = listed.length > TOPICS_PER_PAGE;
      show(ctx, 200, <ConversationsPage frame={frame} conversations={conversations} page={page} hasNext={hasNext} />, {
        unkept: true,
      });
    }),
  );

  /** The new message form, for the signed-in reader (anyone else: to the sign-in page), as `draft` has it. */
  async function newMessagePage(ctx: Context, status: number, draft: MessageDraft): Promise<void> {
    const { actor, frame } = await readerOf(ctx);
    if (!actor || !frame.reader.csrf) return toSignIn(ctx, frame);
    show(ctx, status, <NewMessagePage frame={frame} csrf={frame.reader.csrf} draft={draft} />, { unkept: true });
  }

  // Before `/messages/:id`: `new` is no conversation.
  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/messages/new',
      summary: 'The new message form',
      description: 'For a signed-in person; anyone else is sent to the sign-in page (303).',
      tag: 'Forum',
      access: 'browser',
      query: z.object({
        lang: Lang,
        to: z.string().optional().meta({ description: 'Who the message goes to, to start with (a profile’s link)' }),
      }),
      response: htmlPage('The form: to, title, Markdown message, preview'),
      otherResponses: { 303: SIGN_IN },
      errors: [],
    },
    reading((ctx) => newMessagePage(ctx, 200, { to: typedIn(ctx).to ?? '', title: '', body: '' })),
  );

  const newMessage = formOperation('/messages', 'Start a conversation (or preview it)', NewMessageBody);
  docs.route(
    router,
    '',
    withImage({
      ...newMessage,
      description:
        'The new message form, posted: with `preview`, the form again with the message rendered; else the API’s ' +
        'conversation start, then to the conversation’s page (303). A refusal (a name of nobody, someone who does ' +
        'not take messages from you, a limit): the form again with the API’s reason and what was typed.',
      response: { status: 303, description: 'To the new conversation (not signed in: to the sign-in page)' },
      otherResponses: { ...newMessage.otherResponses, 429: page('Too many messages today: the form again') },
    }),
    reading(async (ctx) => {
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const formPage: FormPage = {
        words: formWords(ctx),
        again: (refusal, typed) => newMessagePage(ctx, refusal.status, draftOf(typed, refusal.message)),
      };
      await attachImage(ctx, formPage, app.uploadPhoto, signedIn.user);
      const form = readForm(ctx, NewMessageBody, formPage);
      if (form.preview) {
        const preview = app.previewPost.execute(signedIn.user, form.body);
        // The names as they were typed, not as the form read them.
        return newMessagePage(ctx, 200, { to: typedIn(ctx).to ?? '', title: form.title, body: form.body, preview });
      }
      const id = await app.startConversation.execute(signedIn.user, { to: form.to, title: form.title, body: form.body });
      browser.seeOther(ctx, `/messages/${id}`);
    }),
  );

  /**
   * A conversation and a page of its messages, for a participant (showing them reads them, contract §22); `forms`:
   * the reply or add-people form as the reader left it, refused or previewed. Whoever else asks meets the use case's
   * NotFound: the not-found page.
   */
  async function conversationPage(ctx: Context, id: number, page: number, status = 200, forms?: ConversationForms) {
    const { actor, frame } = await readerOf(ctx);
    if (!actor || !frame.reader.csrf) return toSignIn(ctx, frame);
    const conversation = await app.showConversation.execute(actor, id);
    const offset = (page - 1) * REPLIES_PER_PAGE;
    const { replies } = await app.listConversationReplies.execute(actor, { id, offset, limit: REPLIES_PER_PAGE });
    show(
      ctx,
      status,
      <ConversationPage
        frame={frame}
        csrf={frame.reader.csrf}
        conversation={wire.conversationDetail(conversation, actor)}
        replies={replies.map((reply) => wire.reply(reply, actor))}
        firstFloor={offset + 1}
        page={page}
        // Every message counts in replies_count (none is ever taken out of it): a next page is one past this one.
        hasNext={offset + REPLIES_PER_PAGE < conversation.repliesCount}
        {...(forms ? { forms } : {})}
      />,
      { unkept: true },
    );
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/messages/:id',
      summary: 'A conversation and its messages',
      description:
        'Its opening message and who takes part, then its messages (100 a page; message n has the anchor #reply<n>), ' +
        'read as they are shown; the reply form, adding people, leaving.',
      tag: 'Forum',
      access: 'browser',
      params: IdParam,
      query: ListQuery,
      response: htmlPage('The conversation'),
      otherResponses: { 303: SIGN_IN, 404: NOT_THEIRS },
      errors: [],
    },
    reading((ctx) => conversationPage(ctx, idOf(ctx.params.id), pageOf(ctx))),
  );

  const reply = formOperation('/messages/:id/replies', 'Reply in a conversation (or preview it)', ReplyBody);
  docs.route(
    router,
    '',
    withImage({
      ...reply,
      response: { status: 303, description: 'Sent: to the message on its page (not signed in: to the sign-in page)' },
      otherResponses: { ...reply.otherResponses, 404: NOT_THEIRS, 429: page('Too many messages today: the page again') },
    }),
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const page = pageOf(ctx);
      const formPage: FormPage = {
        words: formWords(ctx),
        again: (refusal, typed) =>
          conversationPage(ctx, id, page, refusal.status, { reply: { body: typed.body ?? '', error: refusal.message } }),
      };
      await attachImage(ctx, formPage, app.uploadPhoto, signedIn.user);
      const form = readForm(ctx, ReplyBody, formPage);
      if (form.preview) {
        const preview = app.previewPost.execute(signedIn.user, form.body);
        return conversationPage(ctx, id, page, 200, { reply: { body: form.body, preview } });
      }
      const replyId = await app.replyToConversation.execute(signedIn.user, { id, body: form.body });
      const floor = await app.replies.floorOf(id, replyId);
      const last = Math.max(1, Math.ceil(floor / REPLIES_PER_PAGE));
      browser.seeOther(ctx, `/messages/${id}${last > 1 ? `?page=${last}` : ''}#reply${floor}`);
    }),
  );

  const adding = formOperation('/messages/:id/participants', 'Add people to a conversation', AddBody);
  docs.route(
    router,
    '',
    {
      ...adding,
      description: 'Any participant may, as the API allows: up to 20 in all, nobody who does not take messages from them.',
      response: { status: 303, description: 'Added: back to the conversation (not signed in: to the sign-in page)' },
      otherResponses: { ...adding.otherResponses, 404: NOT_THEIRS },
    },
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const form = readForm(ctx, AddBody, {
        words: formWords(ctx),
        again: (refusal, typed) =>
          conversationPage(ctx, id, 1, refusal.status, { adding: { to: typed.to ?? '', error: refusal.message } }),
      });
      await app.addParticipants.execute(signedIn.user, { id, to: form.to });
      browser.seeOther(ctx, `/messages/${id}`);
    }),
  );

  const leaving = formOperation('/messages/:id/leave', 'Leave a conversation', z.object({ csrf_token: Csrf }));
  docs.route(
    router,
    '',
    {
      ...leaving,
      description: 'It no longer exists for the reader, unless someone in it adds them back.',
      response: { status: 303, description: 'Left: to your conversations (not signed in: to the sign-in page)' },
      otherResponses: { 403: page('The form’s token is not this session’s'), 404: NOT_THEIRS },
    },
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      await app.leaveConversation.execute(signedIn.user, { id });
      browser.seeOther(ctx, '/messages');
    }),
  );

  return router;
}

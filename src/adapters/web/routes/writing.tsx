import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ActingUser } from '../../../application/actor.js';
import type { WritingRights } from '../../../application/nodes/writing-rights.js';
import type { PreviewPost } from '../../../application/posts/preview.js';
import type { NodeReadModel, TopicReadModel } from '../../../application/read-models.js';
import { type UpdateTopic, UpdateTopicParams } from '../../../application/topics/update-topic.js';
import { type CreateTopic, CreateTopicParams } from '../../../application/topics/create-topic.js';
import type { UploadPhoto } from '../../../application/uploads/upload-photo.js';
import { NotFound } from '../../../domain/shared/errors.js';
import type { Wire } from '../../presentation/wire.js';
import { wordsOf } from '../../presentation/words/index.js';
import type { BrowserPages } from '../browser.js';
import { Csrf, Preview, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { type FormPage, readForm, type Typed } from '../forms.js';
import { formOperation, type ForumPageUseCases, forumPages, IdParam, idOf } from '../forum-pages.js';
import { frameOf } from '../frame.js';
import { attachImage, ImageField, uploadedImage, withImage } from '../post-image.js';
import { actionFor } from '../views/layout.js';
import type { Node } from '../views/forum.js';
import { TopicFormPage, type TopicDraft } from '../views/writing.js';

/** What the writing pages call: the API's own use cases. */
export interface WritingPageUseCases extends ForumPageUseCases {
  nodes: NodeReadModel;
  topics: TopicReadModel;
  createTopic: CreateTopic;
  updateTopic: UpdateTopic;
  previewPost: PreviewPost;
  uploadPhoto: UploadPhoto;
  /** The nodes a form offers: those the writer may start topics in (contract §23). */
  writingRights: WritingRights;
}
export const WritingPageUseCases = Symbol.for('WritingPageUseCases');

/** A refused topic form, as it comes back: what was typed, and why. */
const draftOf = (typed: Typed, error: string): TopicDraft => ({
  nodeId: typed.node_id ?? '',
  title: typed.title ?? '',
  body: typed.body ?? '',
  error,
});

const NewTopicBody = CreateTopicParams.extend({
  csrf_token: Csrf,
  preview: Preview('topic'),
});

/**
 * Starting a topic in a browser (contract §21b): the form, a preview the server renders, the API's CreateTopic; a
 * refusal shows the form again with the API's words and what was typed; a held topic says it waits for review.
 */
export function writingRoutes(app: WritingPageUseCases, wire: Wire, docs: RouteDeclarer, browser: BrowserPages): Router {
  const router = new Router();
  const { readerOf, show, reading, writer } = forumPages(app, wire, browser);

  /**
   * The nodes a topic of `author`'s may go to: those listed to them that they may start topics in (contract §23), and
   * `keep`, the node an edited topic is in (it stays there without that right). `listed`: every node listed to them.
   */
  async function topicNodes(author: ActingUser, keep?: number): Promise<{ offered: Node[]; listed: Node[] }> {
    const nodes = (await app.nodes.list({ actor: author })).result.filter((node) => !node.hidden);
    const listed = nodes.map((node) => wire.node(node));
    const ids = listed.map((node) => node.id);
    const startable = await app.writingRights.topicNodes(author, ids);
    return { offered: listed.filter((node) => startable.has(node.id) || node.id === keep), listed };
  }

  /**
   * The form, for the signed-in reader (not signed in: to the sign-in page), with the nodes they may start topics in;
   * `chosen` (`?node_id=`): the node it starts in, or, when they may not start topics there, who may, instead of a form
   * the use case would refuse.
   */
  async function newTopicPage(ctx: Context, status = 200, draft?: TopicDraft, chosen?: number): Promise<void> {
    const { actor, frame } = await readerOf(ctx);
    if (!actor || !frame.reader.csrf) return browser.seeOther(ctx, actionFor('/account/sign-in', frame.locale));
    const { offered, listed } = await topicNodes(actor);
    const node = listed.find((each) => each.id === chosen);
    const refused = node && !offered.includes(node) ? await app.writingRights.whoMayStartTopics(actor, node.id) : null;
    if (node && refused) {
      const words = wordsOf(frame.locale).forum;
      const message = words.whoMayStartTopics(refused, node.name);
      return show(ctx, 403, <TopicFormPage frame={frame} csrf={frame.reader.csrf} nodes={offered} refused={message} />);
    }
    const shown = draft ?? (node && offered.includes(node) ? { nodeId: String(node.id), title: '', body: '' } : undefined);
    show(
      ctx,
      status,
      <TopicFormPage frame={frame} csrf={frame.reader.csrf} nodes={offered} {...(shown ? { draft: shown } : {})} />,
    );
  }

  /** `?node_id=`: digits, else no node chosen. */
  const chosenNode = (ctx: Context) => {
    const raw = ctx.query.node_id;
    return typeof raw === 'string' && /^\d{1,9}$/.test(raw) ? Number(raw) : undefined;
  };

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/topics/new',
      summary: 'The new topic form',
      description:
        'For a signed-in person, with the nodes they may start topics in; anyone else is sent to the ' +
        'sign-in page (303).',
      tag: 'Forum',
      access: 'browser',
      query: z.object({
        lang: Lang,
        node_id: z.string().optional().meta({ description: 'The node the form starts with (homeland’s link from a node)' }),
      }),
      response: htmlPage('The form: node, title, Markdown body, preview'),
      otherResponses: {
        303: { description: 'Not signed in: to the sign-in page' },
        403: page('The node chosen does not let the reader start topics: who may, instead of the form'),
      },
      errors: [],
    },
    reading((ctx) => newTopicPage(ctx, 200, undefined, chosenNode(ctx))),
  );

  const newTopic = formOperation('/topics', 'Start a topic (or preview it)', NewTopicBody);
  docs.route(
    router,
    '',
    withImage({
      ...newTopic,
      description:
        'The new topic form, posted: with `preview`, the form again with the topic rendered; else the API’s topic ' +
        'create, then to the topic’s page (303), which tells its author when it waits for review. A refusal: the ' +
        'form again with the API’s reason and what was typed.',
      response: { status: 303, description: 'To the new topic (not signed in: to the sign-in page)' },
      otherResponses: {
        ...newTopic.otherResponses,
        429: page('Too many topics today: the form again'),
      },
    }),
    reading(async (ctx) => {
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const formPage: FormPage = {
        words: wordsOf(frameOf(ctx).locale).account,
        again: (refusal, typed) => newTopicPage(ctx, refusal.status, draftOf(typed, refusal.message)),
        chosen: ['node'],
      };
      await attachImage(ctx, formPage, app.uploadPhoto, signedIn.user);
      const form = readForm(ctx, NewTopicBody, formPage);
      if (form.preview) {
        const preview = app.previewPost.execute(signedIn.user, form.body);
        return newTopicPage(ctx, 200, { nodeId: String(form.node_id), title: form.title, body: form.body, preview });
      }
      const id = await app.createTopic.execute(signedIn.user, { title: form.title, body: form.body, nodeId: form.node_id });
      // A held topic's page says so to its author (reading.tsx).
      browser.seeOther(ctx, `/topics/${id}`);
    }),
  );

  /**
   * Editing one's own topic (as the API allows: its abilities): title, node and body, a preview first if wanted,
   * the API's UpdateTopic, then back to the topic.
   */
  async function editTopicPage(ctx: Context, id: number, status = 200, draft?: TopicDraft): Promise<void> {
    const { actor, frame } = await readerOf(ctx);
    if (!actor || !frame.reader.csrf) return browser.seeOther(ctx, actionFor('/account/sign-in', frame.locale));
    const [topic] = await app.topics.details([id], actor);
    if (!topic || !wire.topic(topic, actor).abilities.update) throw new NotFound('topic');
    const { offered } = await topicNodes(actor, topic.nodeId);
    const shown = draft ?? { nodeId: String(topic.nodeId), title: topic.title, body: topic.body };
    show(ctx, status, <TopicFormPage frame={frame} csrf={frame.reader.csrf} nodes={offered} draft={shown} editing={{ id }} />);
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/topics/:id/edit',
      summary: 'Edit your topic',
      description: 'For its author (or an administrator), as the API allows; anyone else gets the not-found page.',
      tag: 'Forum',
      access: 'browser',
      params: IdParam,
      query: z.object({ lang: Lang }),
      response: htmlPage('The form, as the topic stands'),
      otherResponses: {
        303: { description: 'Not signed in: to the sign-in page' },
        404: page('No such topic of yours to edit'),
      },
      errors: [],
    },
    reading((ctx) => editTopicPage(ctx, idOf(ctx.params.id))),
  );

  const EditTopicBody = UpdateTopicParams.extend({
    csrf_token: Csrf,
    preview: Preview('topic'),
  });
  docs.route(
    router,
    '',
    withImage({
      ...formOperation('/topics/:id/edit', 'Save your topic (or preview it)', EditTopicBody),
      response: { status: 303, description: 'Saved: to the topic (not signed in: to the sign-in page)' },
    }),
    reading(async (ctx) => {
      const id = idOf(ctx.params.id);
      const signedIn = await writer(ctx);
      if (!signedIn) return;
      const formPage: FormPage = {
        words: wordsOf(frameOf(ctx).locale).account,
        again: (refusal, typed) => editTopicPage(ctx, id, refusal.status, draftOf(typed, refusal.message)),
        chosen: ['node'],
      };
      await attachImage(ctx, formPage, app.uploadPhoto, signedIn.user);
      const form = readForm(ctx, EditTopicBody, formPage);
      const draft = { nodeId: String(form.node_id), title: form.title, body: form.body };
      if (form.preview) {
        return editTopicPage(ctx, id, 200, { ...draft, preview: app.previewPost.execute(signedIn.user, form.body) });
      }
      await app.updateTopic.execute(signedIn.user, { id, title: form.title, body: form.body, nodeId: form.node_id });
      browser.seeOther(ctx, `/topics/${id}`);
    }),
  );

  /**
   * An image uploaded at once by the page's script (views/script.ts), for the browser's session: the API's upload
   * (§19), answered as JSON for the script to put its Markdown where the cursor is; a refusal, in the reader's words.
   */
  const Refused = z.object({ error: z.string() });
  const refusedJson = (description: string) => ({ schema: Refused, media: 'application/json', description });
  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/photos',
      summary: 'Upload an image into what one writes (the pages’ script)',
      description:
        'The API’s POST /api/v3/photos for a browser’s session, as homeland’s pages have it: the image’s URL and the ' +
        'Markdown that shows it. Without scripts, the post’s own form carries the image instead.',
      tag: 'Forum',
      access: 'browser',
      query: z.object({ lang: Lang }),
      body: { schema: z.object({ csrf_token: Csrf }).extend(ImageField.shape), media: ['multipart'], streamed: true },
      response: {
        schema: z.object({ image_url: z.string(), markdown: z.string() }),
        example: { image_url: 'https://forum.example/uploads/photos/ab/ab12….png', markdown: '![cat](https://…)' },
        description: 'The uploaded image, and its Markdown',
        media: 'application/json',
      },
      otherResponses: {
        303: { description: 'Not signed in: to the sign-in page' },
        400: refusedJson('No image, or not one the forum takes (the API’s reason)'),
        403: refusedJson('The form’s token is not this session’s; or the API refuses the upload (a silenced member)'),
        413: refusedJson('The image is past 5 MiB'),
        429: refusedJson('Too many uploads today'),
      },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await writer(ctx, 'json');
      if (!signedIn) return;
      const words = wordsOf(frameOf(ctx).locale);
      const image = await uploadedImage(
        ctx,
        {
          words: words.account,
          again: (refusal) => {
            ctx.status = refusal.status;
            ctx.body = { error: refusal.message };
          },
        },
        app.uploadPhoto,
        signedIn.user,
      );
      if (!image) {
        ctx.status = 400;
        ctx.body = { error: words.forum.uploadFailed };
        return;
      }
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { image_url: image.url, markdown: image.markdown };
    },
  );

  return router;
}

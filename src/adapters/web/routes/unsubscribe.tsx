import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Unsubscribe } from '../../../application/mail/unsubscribe.js';
import { browserPages } from '../browser.js';
import { htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { paramsOf } from '../forms.js';
import { frameOf } from '../frame.js';
import { BadUnsubscribePage, UnsubscribedPage, UnsubscribePage } from '../views/unsubscribe.js';

const Key = z.string().meta({ description: 'The unsubscribe key of the mail (`List-Unsubscribe`)' });
const KeyParam = z.object({ key: z.string().catch('') });

/**
 * The link in a notification mail's or a digest's `List-Unsubscribe` (contract §17). Its key names the person and
 * the kind of mail, so it needs no session, and no CSRF token: the key is the credential, and a forged POST can
 * only do what the key's owner asked by putting the link in their mail. GET shows a button and changes nothing
 * (mail scanners open links); POST unsubscribes: the button, or a mail provider's one-click POST (RFC 8058: a
 * body of `List-Unsubscribe=One-Click`, form-encoded or multipart, sent without cookies). Both answer 200 once done,
 * again and again, as RFC 8058 wants a POST answered.
 */
export function unsubscribeRoutes(unsubscribe: Unsubscribe, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const { show } = browserPages(options);
  /** The key of the link: a value that is not text is no key (a link that cannot be used). */
  const keyOf = (ctx: Context) => KeyParam.parse(paramsOf(ctx)).key;

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/unsubscribe',
      summary: 'The page of an unsubscribe link',
      description:
        'Where `List-Unsubscribe` and a mail’s Unsubscribe link point: says which mail it stops, with a button. ' +
        'Opening it changes nothing. A key that is not one of ours: a page saying so (404).',
      tag: 'Accounts',
      access: 'browser',
      query: z.object({ key: Key, lang: Lang }),
      response: htmlPage('The Unsubscribe button'),
      otherResponses: { 404: page('The key is not one of ours') },
      errors: [],
    },
    async (ctx) => {
      const key = keyOf(ctx);
      const named = unsubscribe.describe(key);
      if (!named) return show(ctx, 404, <BadUnsubscribePage frame={frameOf(ctx)} />);
      show(ctx, 200, <UnsubscribePage frame={frameOf(ctx)} unsubscribeKey={key} list={named.list} />);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/unsubscribe',
      summary: 'Unsubscribe (one click)',
      description:
        'The page’s button, and RFC 8058’s one-click unsubscribe as mail providers send it: a POST to the ' +
        '`List-Unsubscribe` link with `List-Unsubscribe=One-Click` in the body, no cookies. The key in the query ' +
        'says who and which mail (notification mail: `email_notifications` becomes `none`; a digest: ' +
        '`email_digest` becomes `none`). Idempotent. A key that is not one of ours: 404 page, nothing changed.',
      tag: 'Accounts',
      access: 'browser',
      query: z.object({ key: Key, lang: Lang }),
      body: {
        schema: z.object({
          'List-Unsubscribe': z.literal('One-Click').optional().meta({ description: 'What RFC 8058 has the POST carry' }),
        }),
        media: ['form', 'multipart'],
      },
      response: htmlPage('Unsubscribed'),
      otherResponses: { 404: page('The key is not one of ours') },
      errors: [],
    },
    async (ctx) => {
      const done = await unsubscribe.execute(keyOf(ctx));
      if (!done) return show(ctx, 404, <BadUnsubscribePage frame={frameOf(ctx)} />);
      show(ctx, 200, <UnsubscribedPage frame={frameOf(ctx)} list={done.list} />);
    },
  );

  return router;
}

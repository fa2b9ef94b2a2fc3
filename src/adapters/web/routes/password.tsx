import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { ForgotPasswordParams } from '../../../application/accounts/password-reset.js';
import { browserPages } from '../browser.js';
import { Authorize, Csrf, htmlPage, Lang, LinkQuery, page, type RouteDeclarer } from '../docs.js';
import { linkTokenOf, paramsOf, readForm, refuse, typedIn } from '../forms.js';
import { frameOf } from '../frame.js';
import { authorizeReturn, keepReturn, signInFromLink } from '../sign-in.js';
import { BadResetLinkPage, ForgotPage, ForgotSentPage, ResetDonePage, ResetPage } from '../views/joining.js';
import { type AccountPageUseCases, accountForm, accountWords, expiredForm } from './account.js';

/**
 * A forgotten password (contract §16b), for a person in a browser: have a reset link mailed, and choose a new
 * password on the page it opens, which signs the browser in (and goes back to the authorization request the person
 * came from, if any).
 */

const ForgotQuery = z.object({ lang: Lang, authorize: Authorize });
const ForgotForm = ForgotPasswordParams.extend({ csrf_token: Csrf, authorize: Authorize });
const ResetForm = z.object({
  token: z.string().meta({ description: 'The token of the mailed link' }),
  password: z.string().meta({ description: '8 to 128 characters; not a common password, nor the login or e-mail' }),
  password_confirmation: z.string().meta({ description: 'The same password again' }),
  csrf_token: Csrf,
});

export function passwordRoutes(app: AccountPageUseCases, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const browser = browserPages(options);
  const { show } = browser;
  const csrfMatches = (ctx: Context) => browser.browserCsrfMatches(ctx, paramsOf(ctx).csrf_token);

  /**
   * The reset link of the request (its token), and whose it is: `first` when its account has no password yet (§25);
   * null when the link cannot be used.
   */
  async function resetLink(ctx: Context): Promise<{ token: string; login: string; first: boolean } | null> {
    const token = linkTokenOf(ctx);
    const link = token ? await app.describeMailLink.execute(token, ['reset']) : null;
    return link ? { token, login: link.login, first: !link.hasPassword } : null;
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/password/forgot',
      summary: 'The forgotten-password page',
      description: 'An HTML page for a person: a login or e-mail address, to have a reset link mailed.',
      tag: 'Accounts',
      access: 'browser',
      query: ForgotQuery,
      response: htmlPage('The form'),
      errors: [],
    },
    async (ctx) => {
      show(
        ctx,
        200,
        <ForgotPage frame={frameOf(ctx)} csrf={browser.browserCsrf(ctx)} authorize={authorizeReturn(typedIn(ctx).authorize)} />,
      );
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/password/forgot',
      summary: 'Send the forgotten-password form',
      description:
        'As `POST /api/v3/users/password/forgot`: always the same page (“if there is such an account, a link is on ' +
        'its way”), as fast whether or not there is. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: ForgotForm, media: ['form'] },
      response: htmlPage('If there is such an account, a link is on its way'),
      otherResponses: {
        400: page('No login or address given: the form again'),
        403: page('The CSRF token is missing or wrong'),
        429: page('Too many requests for this address or account (with Retry-After)'),
      },
      errors: [],
    },
    async (ctx) => {
      if (!csrfMatches(ctx)) return expiredForm(ctx, browser);
      const frame = frameOf(ctx);
      const t = accountWords(ctx);
      const form = readForm(
        ctx,
        ForgotForm,
        accountForm(
          ctx,
          (refusal, typed) =>
            show(
              ctx,
              refusal.status,
              <ForgotPage
                frame={frame}
                csrf={browser.browserCsrf(ctx)}
                login={typed.login ?? ''}
                authorize={authorizeReturn(typed.authorize)}
                error={refusal.message}
              />,
            ),
          { missing: t.fillRequired },
        ),
      );
      if (!form.login) refuse(t.fillRequired);
      await app.requestPasswordReset.execute({ login: form.login }, { address: ctx.ip });
      keepReturn(ctx, browser, form.authorize);
      show(ctx, 200, <ForgotSentPage frame={frame} />);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/password/reset',
      summary: 'The page of a password reset link',
      description:
        'Where a reset mail links: the new password, twice. Opening it spends nothing. An unknown, used or expired ' +
        'token: a page saying so (404), offering to ask for a new link.',
      tag: 'Accounts',
      access: 'browser',
      query: LinkQuery,
      response: htmlPage('The form'),
      otherResponses: { 404: page('The link is unknown, used or expired') },
      errors: [],
    },
    async (ctx) => {
      const link = await resetLink(ctx);
      if (!link) return show(ctx, 404, <BadResetLinkPage frame={frameOf(ctx)} />);
      show(
        ctx,
        200,
        <ResetPage
          frame={frameOf(ctx)}
          csrf={browser.browserCsrf(ctx)}
          token={link.token}
          login={link.login}
          first={link.first}
        />,
      );
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/password/reset',
      summary: 'Set a new password',
      description:
        'The reset form: the link is spent, the password set, every token and browser session of the account ended, ' +
        'and this browser signed in. A refused password (too short, too common, the login…) or two that differ: ' +
        'the form again with the reason (400), and the link still works. An unknown, used or expired token: 404 ' +
        'page. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: ResetForm, media: ['form'] },
      response: htmlPage('The password is changed; every other session ended; signed in'),
      otherResponses: {
        400: page('The password is refused, or the two differ: the form again, saying why'),
        403: page('The CSRF token is missing or wrong'),
        404: page('The link is unknown, used or expired'),
      },
      errors: [],
    },
    async (ctx) => {
      if (!csrfMatches(ctx)) return expiredForm(ctx, browser);
      const frame = frameOf(ctx);
      const link = await resetLink(ctx);
      if (!link) return show(ctx, 404, <BadResetLinkPage frame={frame} />);
      const form = readForm(
        ctx,
        ResetForm,
        accountForm(ctx, (refusal) =>
          show(
            ctx,
            refusal.status,
            <ResetPage
              frame={frame}
              csrf={browser.browserCsrf(ctx)}
              token={link.token}
              login={link.login}
              first={link.first}
              error={refusal.message}
            />,
          ),
        ),
      );
      if (form.password !== form.password_confirmation) refuse(accountWords(ctx).passwordsDiffer);
      const reset = await app.resetPassword.execute(link.token, form.password);
      if (!reset) return show(ctx, 404, <BadResetLinkPage frame={frame} />);
      const { login, continueTo } = await signInFromLink(ctx, browser, app.openWebSession, reset.user.id);
      show(ctx, 200, <ResetDonePage frame={frame} login={login} first={link.first} continueTo={continueTo} />);
    },
  );

  return router;
}

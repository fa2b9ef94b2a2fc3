import Router from '@koa/router';
import { z } from 'zod';
import { localeOf } from '../../presentation/locale.js';
import { browserPages } from '../browser.js';
import { Csrf, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { paramsOf, readForm } from '../forms.js';
import { frameOf } from '../frame.js';
import { signedInUser, signInWithPassword } from '../sign-in.js';
import { actionFor } from '../views/layout.js';
import { FarewellPage, SignInPage } from '../views/settings.js';
import { type AccountPageUseCases, accountForm, accountWords, expiredForm } from './account.js';

/**
 * The account pages' sign-in and sign-out (contract §16b): a browser signs in with a login (or e-mail) and
 * password, throttled as the password grant is, and goes on to the settings page. The session is the one the
 * /oauth pages share.
 */

const LangQuery = z.object({ lang: Lang });
const SignInForm = z.object({
  login: z.string().meta({ description: 'A login or an e-mail address' }),
  password: z.string(),
  csrf_token: Csrf,
});
const SignOutForm = z.object({ csrf_token: Csrf });

export function signInRoutes(app: AccountPageUseCases, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const browser = browserPages(options);
  const { show } = browser;

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/sign-in',
      summary: 'The account pages’ sign-in page',
      description:
        'An HTML page for a person: login (or e-mail) and password, to reach the settings page. A browser already ' +
        'signed in goes on to it (303).',
      tag: 'Accounts',
      access: 'browser',
      query: LangQuery,
      response: htmlPage('The sign-in form'),
      otherResponses: { 303: { description: 'Already signed in: to the settings page' } },
      errors: [],
    },
    async (ctx) => {
      if (await signedInUser(ctx, app.resolveWebSession)) {
        return browser.seeOther(ctx, actionFor('/account/settings', localeOf(ctx)));
      }
      const providers = await app.listProviders.execute();
      show(ctx, 200, <SignInPage frame={frameOf(ctx)} csrf={browser.browserCsrf(ctx)} providers={providers} />);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/sign-in',
      summary: 'Send the sign-in form',
      description:
        'Signs the browser in (the session cookie the /oauth pages share) and 303 to the settings page. Wrong login ' +
        'or password, or an account not confirmed or not approved yet: the form again, saying so (an unconfirmed ' +
        'account is offered the mail again). Throttled as the password grant is (429). A missing or wrong ' +
        '`csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: SignInForm, media: ['form'] },
      response: htmlPage('The form again: wrong login or password, or the account may not sign in yet'),
      otherResponses: {
        303: { description: 'Signed in: to the settings page' },
        403: page('The CSRF token is missing or wrong'),
        429: page('Too many failed sign-ins (with Retry-After)'),
      },
      errors: [],
    },
    async (ctx) => {
      if (!browser.browserCsrfMatches(ctx, paramsOf(ctx).csrf_token)) return expiredForm(ctx, browser);
      const form = readForm(
        ctx,
        SignInForm.partial({ login: true, password: true }),
        accountForm(ctx, (refusal, typed) =>
          show(
            ctx,
            refusal.status,
            <SignInPage
              frame={frameOf(ctx)}
              csrf={browser.browserCsrf(ctx)}
              login={typed.login ?? ''}
              error={refusal.message}
              unverified={refusal.unverified}
            />,
          ),
        ),
      );
      await signInWithPassword(ctx, browser, app.signIn, form, {
        wrongLogin: accountWords(ctx).wrongLogin,
        next: actionFor('/account/settings', localeOf(ctx)),
      });
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/sign-out',
      summary: 'Sign out (the account pages)',
      description:
        'Ends the browser session (the one the /oauth pages share) and says so. A missing or wrong `csrf_token` ' +
        'of a signed-in browser is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: SignOutForm, media: ['form'] },
      response: htmlPage('Signed out'),
      otherResponses: { 403: page('The CSRF token is missing or wrong') },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      if (signedIn) {
        if (!browser.sessionCsrfMatches(signedIn.session, paramsOf(ctx).csrf_token)) return expiredForm(ctx, browser);
        await app.signOut.execute(signedIn.session);
      }
      browser.setSession(ctx, null);
      show(ctx, 200, <FarewellPage frame={frameOf(ctx)} deleted={false} />);
    },
  );

  return router;
}

import Router from '@koa/router';
import { z } from 'zod';
import { localeOf } from '../../presentation/locale.js';
import { browserPages, PASSKEY_PAGE_POLICY } from '../browser.js';
import { Csrf, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { paramsOf, readForm, refuse } from '../forms.js';
import { frameOf, wordsIn } from '../frame.js';
import { CODE_STEP_PATH, dropPendingSignIn, pendingSignInOf, signedInUser, signInWithPassword } from '../sign-in.js';
import { actionFor } from '../views/layout.js';
import { FarewellPage, SignInPage } from '../views/settings.js';
import { CodeStepPage, PASSKEY_SIGN_IN_OPTIONS_PATH, RecoveryUsedPage } from '../views/two-factor.js';
import { type AccountPageUseCases, accountForm, accountWords, expiredForm } from './account.js';
import { passkeyOptionsResponses, sendPasskeyOptions } from './passkey-options.js';

/**
 * The account pages' sign-in and sign-out (contract §16b): a browser signs in with a login (or e-mail) and
 * password, throttled as the password grant is, and goes on to the settings page. The session is the one the
 * /oauth pages share. An account with a second factor (contract §25) is asked for its code on a page of its own,
 * which both sign-in pages (this one and /oauth/authorize's) send the browser to (sign-in.ts: completeSignIn); an
 * account with passkeys may use one there instead (the passkey script, with options this browser's pending sign-in
 * holds the challenge of).
 */

const LangQuery = z.object({ lang: Lang });
const SignInForm = z.object({
  login: z.string().meta({ description: 'A login or an e-mail address' }),
  password: z.string(),
  csrf_token: Csrf,
});
const SignOutForm = z.object({ csrf_token: Csrf });
const CodeForm = z.object({
  code: z.string().max(64).meta({ description: 'The authenticator app’s code now, or a recovery code' }),
  credential: z
    .string()
    .max(20_000)
    .optional()
    .meta({ description: 'Instead of a code: a passkey’s answer to the options of POST ' + PASSKEY_SIGN_IN_OPTIONS_PATH }),
  csrf_token: Csrf,
});

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
      await signInWithPassword(ctx, browser, app, form, {
        wrongLogin: accountWords(ctx).wrongLogin,
        next: actionFor('/account/settings', localeOf(ctx)),
        codeStep: actionFor(CODE_STEP_PATH, localeOf(ctx)),
      });
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: CODE_STEP_PATH,
      summary: 'The sign-in step that asks for the second factor',
      description:
        'After the right password for an account with two-factor sign-in (either sign-in page), the browser holds a ' +
        'pending sign-in (a cookie, ten minutes; no session yet) and is sent here: a form for the authenticator app’s ' +
        'code or a recovery code, and, for an account with passkeys, a “Use a passkey” button (the passkey script). ' +
        'Without a live pending sign-in: 303 to the sign-in page.',
      tag: 'Accounts',
      access: 'browser',
      query: LangQuery,
      response: htmlPage('The code form'),
      otherResponses: { 303: { description: 'No pending sign-in: to /account/sign-in' } },
      errors: [],
    },
    async (ctx) => {
      const waiting = await app.finishSignIn.waiting(pendingSignInOf(ctx));
      if (!waiting) return browser.seeOther(ctx, actionFor('/account/sign-in', localeOf(ctx)));
      show(ctx, 200, <CodeStepPage frame={frameOf(ctx)} csrf={browser.browserCsrf(ctx)} passkeys={waiting.passkeys} />, {
        policy: PASSKEY_PAGE_POLICY,
      });
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: CODE_STEP_PATH,
      summary: 'Send the second factor',
      description:
        'A right code (the authenticator’s, of a time step not used before; or an unused recovery code, which is ' +
        'then spent), or `credential`, a passkey’s answer to the challenge of this browser’s options (used once), ' +
        'opens the session and 303s to where the sign-in was headed (the settings page, or the authorization ' +
        'request); a recovery code first shows how many are left. A wrong code or passkey: the form again (200), ' +
        'counted with the account’s failed sign-ins (429 when too many). No live pending sign-in: the sign-in page ' +
        'again. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: CodeForm, media: ['form'] },
      response: htmlPage('The form again (a wrong code), or the recovery codes left after one was used'),
      otherResponses: {
        303: { description: 'Signed in: to where the sign-in was headed; or no pending sign-in: to /account/sign-in' },
        403: page('The CSRF token is missing or wrong'),
        429: page('Too many failed sign-ins (with Retry-After)'),
      },
      errors: [],
    },
    async (ctx) => {
      if (!browser.browserCsrfMatches(ctx, paramsOf(ctx).csrf_token)) return expiredForm(ctx, browser);
      const pending = pendingSignInOf(ctx);
      const passkeys = (await app.finishSignIn.waiting(pending))?.passkeys ?? false;
      const again = accountForm(ctx, (refusal) =>
        show(
          ctx,
          refusal.status,
          <CodeStepPage frame={frameOf(ctx)} csrf={browser.browserCsrf(ctx)} passkeys={passkeys} error={refusal.message} />,
          { policy: PASSKEY_PAGE_POLICY },
        ),
      );
      const { code, credential } = readForm(ctx, CodeForm.partial({ code: true }), again);
      const t = wordsIn(ctx).twoFactor;
      const answer = credential ? { passkey: credential } : { code: code ?? '' };
      const finished = await app.finishSignIn.execute(pending, answer, ctx.ip);
      if (finished.outcome === 'wrong') refuse('passkey' in answer ? t.wrongPasskey : t.wrongCode, 200);
      dropPendingSignIn(ctx, browser);
      if (finished.outcome === 'expired') {
        return show(ctx, 200, <SignInPage frame={frameOf(ctx)} csrf={browser.browserCsrf(ctx)} error={t.startAgain} />);
      }
      browser.setSession(ctx, finished.opened.session);
      if (finished.recoveryCodesLeft === null) return browser.seeOther(ctx, finished.continueTo);
      show(
        ctx,
        200,
        <RecoveryUsedPage frame={frameOf(ctx)} left={finished.recoveryCodesLeft} continueTo={finished.continueTo} />,
      );
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: PASSKEY_SIGN_IN_OPTIONS_PATH,
      summary: 'The options of a passkey sign-in (the sign-in step’s passkey script)',
      description:
        'For a browser with a live pending sign-in of an account with passkeys: the options ' +
        '`navigator.credentials.get` takes (WebAuthn, as JSON: this service as relying party, the account’s passkeys ' +
        'allowed), with a new challenge this pending sign-in holds for five minutes, which the answer sent to POST ' +
        CODE_STEP_PATH +
        ' uses up. The form’s `csrf_token` is the browser’s.',
      tag: 'Accounts',
      access: 'browser',
      query: LangQuery,
      body: { schema: z.object({ csrf_token: Csrf }), media: ['form'] },
      ...passkeyOptionsResponses({
        403: 'No live pending sign-in of an account with passkeys, or the CSRF token is not this browser’s',
      }),
      errors: [],
    },
    async (ctx) => {
      await sendPasskeyOptions(ctx, async () => {
        const options = browser.browserCsrfMatches(ctx, paramsOf(ctx).csrf_token)
          ? await app.finishSignIn.passkeyOptions(pendingSignInOf(ctx))
          : null;
        return options ? { options } : { status: 403, error: wordsIn(ctx).twoFactor.startAgain };
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

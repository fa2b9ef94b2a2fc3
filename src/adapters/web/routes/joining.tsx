import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { SignUpParams } from '../../../application/accounts/sign-up.js';
import { ResendVerificationParams } from '../../../application/accounts/verification.js';
import { localeOf } from '../../presentation/locale.js';
import { browserPages } from '../browser.js';
import { Authorize, Csrf, htmlPage, Lang, LinkQuery, page, type RouteDeclarer } from '../docs.js';
import { handleForm, linkTokenOf, paramsOf, readForm, refuse, typedIn } from '../forms.js';
import { frameOf } from '../frame.js';
import { authorizeReturn, keepReturn, signedInUser, signInFromLink } from '../sign-in.js';
import {
  AlreadyConfirmedPage,
  BadLinkPage,
  CheckMailPage,
  ConfirmedPage,
  ConfirmPage,
  MessagePage,
  ResentPage,
  SignUpPage,
} from '../views/joining.js';
import { actionFor } from '../views/layout.js';
import { type AccountPageUseCases, accountForm, accountWords, expiredForm } from './account.js';

/**
 * The pages of joining (contract §16b), for a person in a browser: sign up, have the verification mail sent again,
 * confirm an address from the mailed link. Every form carries this browser's double-submit CSRF token; a confirmed
 * link signs the browser in, and goes back to the authorization request the person came from (sign-in.ts).
 */

const SignUpQuery = z.object({
  lang: Lang,
  invite: z.string().optional().meta({ description: 'An invite code (REGISTRATION=invite): fills the field' }),
  authorize: Authorize,
});
const SignUpForm = SignUpParams.extend({
  csrf_token: Csrf,
  website: z.string().optional().meta({ description: 'A honeypot: people leave it empty (it is off screen)' }),
  authorize: Authorize,
});
const ResendForm = ResendVerificationParams.extend({ csrf_token: Csrf });

/** Where signing up goes, and the cookie that tells it, for ten minutes, where the mail went. */
const SENT_PATH = '/account/sign-up/sent';
const SENT_TO_COOKIE = 'forum_sent_to';
const SENT_SECONDS = 600;
const VerifyForm = z.object({ token: z.string().meta({ description: 'The token of the mailed link' }), csrf_token: Csrf });

export function joiningRoutes(app: AccountPageUseCases, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const browser = browserPages(options);
  const { show } = browser;
  const csrfMatches = (ctx: Context) => browser.browserCsrfMatches(ctx, paramsOf(ctx).csrf_token);

  const closed = (ctx: Context) =>
    show(ctx, 403, <MessagePage frame={frameOf(ctx)} title={(t) => t.closedTitle} message={accountWords(ctx).closedMessage} />);

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/sign-up',
      summary: 'The sign-up page',
      description:
        'An HTML page for a person: login, e-mail, password, an optional name, and the invite code ' +
        'when REGISTRATION=invite (filled from `invite`). In English or Simplified Chinese, by `lang` or ' +
        'Accept-Language. REGISTRATION=closed: a page saying so (403).',
      tag: 'Accounts',
      access: 'browser',
      query: SignUpQuery,
      response: htmlPage('The sign-up form'),
      otherResponses: { 403: page('Sign-up is closed (REGISTRATION=closed)') },
      errors: [],
    },
    async (ctx) => {
      if (app.registration === 'closed') return closed(ctx);
      const query = typedIn(ctx);
      const providers = await app.listProviders.execute();
      show(
        ctx,
        200,
        <SignUpPage
          frame={frameOf(ctx)}
          csrf={browser.browserCsrf(ctx)}
          registration={app.registration}
          values={{ invite: query.invite ?? '' }}
          authorize={authorizeReturn(query.authorize)}
          providers={providers}
        />,
      );
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/sign-up',
      summary: 'Send the sign-up form',
      description:
        'What the sign-up page posts. The account is made unverified and a verification mail sent (as `POST ' +
        '/api/v3/users`); the page says where the mail went and offers to send it again. A refused field shows the ' +
        'form again with the reason and what was typed (never the password). A filled honeypot (`website`) is ' +
        'answered as a success and makes nothing. With `authorize`, the browser returns to that authorization ' +
        'request once the address is confirmed. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: SignUpForm, media: ['form'] },
      response: {
        status: 303,
        description: `Signed up (or taken for a program): to ${SENT_PATH}, which says where the mail went (a reload does not post again)`,
      },
      otherResponses: {
        400: page('A field is missing or refused: the form again, saying why'),
        403: page('The CSRF token is missing or wrong; sign-up is closed; or the invite code is not valid'),
        429: page('Too many sign-ups from this address (with Retry-After)'),
      },
      errors: [],
    },
    async (ctx) => {
      if (app.registration === 'closed') return closed(ctx);
      if (!csrfMatches(ctx)) return expiredForm(ctx, browser);
      const t = accountWords(ctx);
      const invites = app.registration === 'invite';
      const form = readForm(
        ctx,
        SignUpForm,
        accountForm(
          ctx,
          (refusal, typed) =>
            show(
              ctx,
              refusal.status,
              <SignUpPage
                frame={frameOf(ctx)}
                csrf={browser.browserCsrf(ctx)}
                registration={app.registration}
                values={{
                  login: typed.login ?? '',
                  email: typed.email ?? '',
                  name: typed.name ?? '',
                  ...(invites ? { invite: typed.invite ?? '' } : {}),
                }}
                authorize={authorizeReturn(typed.authorize)}
                error={refusal.message}
              />,
            ),
          { missing: t.fillRequired, forbidden: t.inviteRefused },
        ),
      );
      // The page asks for all three at once (the core would refuse a blank one in its own words, one at a time).
      if (!form.login || !form.email || !form.password) refuse(t.fillRequired);
      // Posted, then shown (a reload does not post again): where the mail went is kept for the page that says so.
      const sent = () => {
        browser.setCookie(ctx, SENT_TO_COOKIE, Buffer.from(form.email).toString('base64url'), {
          path: SENT_PATH,
          maxAgeSeconds: SENT_SECONDS,
        });
        browser.seeOther(ctx, actionFor(SENT_PATH, localeOf(ctx)));
      };
      // A program that fills every field: answered as a person would be, and nothing is made.
      if (form.website) return sent();
      await app.signUp.execute(
        {
          login: form.login,
          email: form.email,
          password: form.password,
          name: form.name,
          invite: invites ? form.invite : undefined,
        },
        { address: ctx.ip, locale: localeOf(ctx) },
      );
      keepReturn(ctx, browser, form.authorize);
      sent();
    },
  );

  /** A verification link that did its work already: the address is confirmed, and the page links on. */
  async function showAlreadyConfirmed(ctx: Context, login: string): Promise<void> {
    const signedIn = (await signedInUser(ctx, app.resolveWebSession)) !== null;
    show(ctx, 200, <AlreadyConfirmedPage frame={frameOf(ctx)} login={login} signedIn={signedIn} />);
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: SENT_PATH,
      summary: 'The page after signing up',
      description:
        'Where signing up goes (303): it says where the verification mail went (kept for ten minutes in a cookie of ' +
        'this browser) and offers to send it again.',
      tag: 'Accounts',
      access: 'browser',
      query: z.object({ lang: Lang }),
      response: htmlPage('The mail is on its way'),
      errors: [],
    },
    (ctx) => {
      const kept = ctx.cookies.get(SENT_TO_COOKIE);
      const email = kept ? Buffer.from(kept, 'base64url').toString() : null;
      show(ctx, 200, <CheckMailPage frame={frameOf(ctx)} csrf={browser.browserCsrf(ctx)} email={email} />);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/verification',
      summary: 'Send the verification mail again (a page)',
      description:
        'What the “send the mail again” forms post (after sign-up, on a spent link, on the sign-in page of an ' +
        'unverified account): as `POST /api/v3/users/verification`, always the same page, whether or not there is ' +
        'such an account. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: ResendForm, media: ['form'] },
      response: htmlPage('If the account waits for confirmation, a new link is on its way'),
      otherResponses: {
        400: page('No login or address given'),
        403: page('The CSRF token is missing or wrong'),
        429: page('Too many requests for this address or account (with Retry-After)'),
      },
      errors: [],
    },
    async (ctx) => {
      if (!csrfMatches(ctx)) return expiredForm(ctx, browser);
      const frame = frameOf(ctx);
      const form = readForm(
        ctx,
        ResendForm,
        accountForm(ctx, (refusal) =>
          show(ctx, refusal.status, <MessagePage frame={frame} title={(t) => t.resentTitle} message={refusal.message} />),
        ),
      );
      await app.resendVerification.execute({ login: form.login }, { address: ctx.ip });
      show(ctx, 200, <ResentPage frame={frame} />);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/verify',
      summary: 'The page of a verification link',
      description:
        'Where a verification (or e-mail change) mail links: the page names the account and shows a Confirm ' +
        'button. Opening it spends nothing (mail scanners open links); only the button (POST) does. A verification ' +
        'link opened again once it confirmed the address: a page saying the address is confirmed already, linking ' +
        'to sign in (or to the settings, when signed in). An unknown or expired token: a page saying so (404), ' +
        'offering to send a new link.',
      tag: 'Accounts',
      access: 'browser',
      query: LinkQuery,
      response: htmlPage('The Confirm button; or, the link used already, that the address is confirmed'),
      otherResponses: { 404: page('The link is unknown, expired, or was an e-mail change used already') },
      errors: [],
    },
    async (ctx) => {
      const token = linkTokenOf(ctx);
      const link = token ? await app.describeMailLink.execute(token, ['verify', 'email_change']) : null;
      const csrf = browser.browserCsrf(ctx);
      if (!link) return show(ctx, 404, <BadLinkPage frame={frameOf(ctx)} csrf={csrf} />);
      // Opened again once it did its work: the address is confirmed already, and the page says so and links on.
      if (link.spent) return showAlreadyConfirmed(ctx, link.login);
      show(ctx, 200, <ConfirmPage frame={frameOf(ctx)} csrf={csrf} token={token} login={link.login} />);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/verify',
      summary: 'Confirm an address',
      description:
        'The Confirm button: spends the token. The account is active (or waits for approval when ' +
        'REGISTRATION=approval), or a changed address takes effect. An active account’s browser is signed in (the ' +
        'session cookie); when the person signed up from an authorization request, 303 back to it. An unknown, ' +
        'expired token, or one used for something else: 404 page; a verification link used already: 200, the address is confirmed already. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: VerifyForm, media: ['form'] },
      response: htmlPage('Confirmed: the account is active (signed in), or waits for approval'),
      otherResponses: {
        303: { description: 'Confirmed and signed in: back to the authorization request the person came from' },
        400: page('The new address of an e-mail change was taken meanwhile'),
        403: page('The CSRF token is missing or wrong'),
        404: page('The link is unknown, used or expired'),
      },
      errors: [],
    },
    async (ctx) => {
      if (!csrfMatches(ctx)) return expiredForm(ctx, browser);
      const frame = frameOf(ctx);
      // The button sends nothing but the link's token; a refusal (the new address taken meanwhile) is said on the page of the link.
      handleForm(
        ctx,
        accountForm(ctx, (refusal) =>
          show(ctx, refusal.status, <BadLinkPage frame={frame} csrf={browser.browserCsrf(ctx)} error={refusal.message} />),
        ),
      );
      const token = linkTokenOf(ctx);
      const confirmed = token ? await app.confirmAddress.execute(token) : null;
      if (!confirmed) {
        // Confirm pressed twice, or on a page left open: the first press did the work.
        const link = token ? await app.describeMailLink.execute(token, ['verify']) : null;
        if (link?.spent) return showAlreadyConfirmed(ctx, link.login);
        return show(ctx, 404, <BadLinkPage frame={frame} csrf={browser.browserCsrf(ctx)} />);
      }
      const { login, continueTo } = await signInFromLink(
        ctx,
        browser,
        app.openWebSession,
        confirmed.state === 'active' ? confirmed.user.id : null,
      );
      if (login && continueTo && !confirmed.email) return browser.seeOther(ctx, continueTo);
      show(
        ctx,
        200,
        <ConfirmedPage
          frame={frame}
          login={confirmed.user.login}
          state={confirmed.state}
          email={confirmed.email}
          continueTo={continueTo}
        />,
      );
    },
  );

  return router;
}

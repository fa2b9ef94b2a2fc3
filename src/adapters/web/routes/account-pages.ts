import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import {
  ForgotPasswordParams,
  type RequestPasswordReset,
  type ResetPassword,
} from '../../../application/accounts/password-reset.js';
import { type Registration, type SignUp, SignUpParams } from '../../../application/accounts/sign-up.js';
import {
  type ConfirmAddress,
  type DescribeMailLink,
  type ResendVerification,
  ResendVerificationParams,
} from '../../../application/accounts/verification.js';
import type { MailPreferencesOf } from '../../../application/accounts/preferences.js';
import type { ChangePassword, RequestEmailChange, UpdateProfile } from '../../../application/accounts/profile.js';
import type { DeleteOwnAccount, ExportAccount } from '../../../application/accounts/leaving.js';
import type { OpenWebSession, ResolveWebSession, SignIn, SignOut } from '../../../application/oauth/web-sessions.js';
import type { UserReadModel } from '../../../application/read-models.js';
import type { Unsubscribe } from '../../../application/mail/unsubscribe.js';
import { Forbidden, InvalidInput, RuleViolated, TooManyRequests } from '../../../domain/shared/errors.js';
import { authorizeReturn, browserPages } from '../browser.js';
import { localeOf } from '../../presentation/locale.js';
import type { RouteDeclarer } from '../docs.js';
import type { Params } from '../forms.js';
import { type AccountWords, wordsOf } from '../../presentation/words/index.js';
import type { Frame } from '../views/layout.js';
import {
  BadLinkPage as badLinkPage,
  BadResetLinkPage as badResetLinkPage,
  CheckMailPage as checkMailPage,
  ConfirmPage as confirmPage,
  ConfirmedPage as confirmedPage,
  ForgotPage as forgotPage,
  ForgotSentPage as forgotSentPage,
  MessagePage as messagePage,
  ResentPage as resentPage,
  ResetDonePage as resetDonePage,
  ResetPage as resetPage,
  SignUpPage as signUpPage,
} from '../views/joining.js';
import { Csrf, htmlPage, Lang, page } from '../docs.js';

/**
 * The pages of joining (contract §16b), for a person in a browser: sign up, confirm an address from the mailed
 * link, forgot and reset a password. The rules live in the account use cases (the same the API calls); this
 * module is the browser's side of them: pages in the reader's language, CSRF (every form carries this browser's
 * double-submit token), the browser session a confirmed link opens, and the way back to an authorization request
 * the person came from (a short-lived cookie, kept across the mail).
 */

/** REGISTRATION, for the sign-up page (whether it asks for an invite, or says sign-up is closed). */
export const RegistrationSetting = Symbol.for('RegistrationSetting');

/** What the account pages call. */
export interface AccountPageUseCases {
  registration: Registration;
  signUp: SignUp;
  resendVerification: ResendVerification;
  describeMailLink: DescribeMailLink;
  confirmAddress: ConfirmAddress;
  requestPasswordReset: RequestPasswordReset;
  resetPassword: ResetPassword;
  openWebSession: OpenWebSession;
  // the settings page (account-settings.ts)
  resolveWebSession: ResolveWebSession;
  signIn: SignIn;
  signOut: SignOut;
  users: UserReadModel;
  updateProfile: UpdateProfile;
  requestEmailChange: RequestEmailChange;
  changePassword: ChangePassword;
  mailPreferences: MailPreferencesOf;
  deleteOwnAccount: DeleteOwnAccount;
  exportAccount: ExportAccount;
  // the unsubscribe link of notification mail and digests (unsubscribe-page.ts)
  unsubscribe: Unsubscribe;
}
export const AccountPageUseCases = Symbol.for('AccountPageUseCases');

/** The authorization request a person left to sign up (or reset a password), to go back to: as long as a mail link lives. */
const RETURN_COOKIE = 'forum_return';
const RETURN_PATH = '/account';
const RETURN_SECONDS = 24 * 3600;

const Authorize = z
  .string()
  .optional()
  .meta({ description: 'The query of the /oauth/authorize request the person came from, to return to once verified' });

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
const TokenQuery = z.object({ token: z.string().meta({ description: 'The token of the mailed link' }), lang: Lang });
const VerifyForm = z.object({ token: z.string().meta({ description: 'The token of the mailed link' }), csrf_token: Csrf });
const ForgotQuery = z.object({ lang: Lang, authorize: Authorize });
const ForgotForm = ForgotPasswordParams.extend({ csrf_token: Csrf, authorize: Authorize });
const ResetForm = z.object({
  token: z.string().meta({ description: 'The token of the mailed link' }),
  password: z.string().meta({ description: '8 to 128 characters; not a common password, nor the login or e-mail' }),
  password_confirmation: z.string().meta({ description: 'The same password again' }),
  csrf_token: Csrf,
});

const text = (params: Params, name: string): string => (typeof params[name] === 'string' ? (params[name] as string) : '');

export function accountPageRoutes(app: AccountPageUseCases, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const pages = browserPages(options);
  const { show } = pages;

  /** The page's language and, for a page that was asked for (GET), its place (its link in the other language). */
  function frameOf(ctx: Context): Frame {
    if (ctx.method !== 'GET') return { locale: localeOf(ctx) };
    const query = new URLSearchParams(ctx.querystring);
    query.delete('lang');
    const rest = query.toString();
    return { locale: localeOf(ctx), here: rest ? `${ctx.path}?${rest}` : ctx.path };
  }

  const stringsOf = (ctx: Context): AccountWords => wordsOf(localeOf(ctx)).account;

  function expiredForm(ctx: Context): void {
    show(ctx, 403, messagePage({ frame: frameOf(ctx), title: (t) => t.expiredTitle, message: stringsOf(ctx).expired }));
  }

  /** A refusal of the core as a message for the form, and its status; anything else goes on up. */
  function refusal(ctx: Context, error: unknown): { status: number; message: string } {
    const t = stringsOf(ctx);
    if (error instanceof RuleViolated || error instanceof InvalidInput) return { status: 400, message: t.rule(error.message) };
    if (error instanceof TooManyRequests) {
      ctx.set('Retry-After', String(error.retryAfterSeconds));
      return { status: 429, message: t.tooMany(error.retryAfterSeconds) };
    }
    throw error;
  }

  /** Opens the browser session of an account a mailed link proved; null when it may not sign in yet. */
  async function signInBrowser(ctx: Context, userId: number): Promise<string | null> {
    const opened = await app.openWebSession.execute(userId);
    if (!opened) return null;
    pages.setSession(ctx, opened.session);
    return opened.user.login;
  }

  /** Where to send the person back to, if they came from an authorization request; the cookie is spent. */
  function takeReturn(ctx: Context): string | undefined {
    const kept = ctx.cookies.get(RETURN_COOKIE);
    if (kept === undefined) return undefined;
    pages.setCookie(ctx, RETURN_COOKIE, null, { path: RETURN_PATH });
    const query = authorizeReturn(Buffer.from(kept, 'base64url').toString());
    return query ? `/oauth/authorize?${query}` : undefined;
  }

  function keepReturn(ctx: Context, raw: unknown): void {
    const query = authorizeReturn(raw);
    if (query) {
      pages.setCookie(ctx, RETURN_COOKIE, Buffer.from(query).toString('base64url'), {
        path: RETURN_PATH,
        maxAgeSeconds: RETURN_SECONDS,
      });
    }
  }

  const closed = (ctx: Context) =>
    show(ctx, 403, messagePage({ frame: frameOf(ctx), title: (t) => t.closedTitle, message: stringsOf(ctx).closedMessage }));

  // ---- sign up ---------------------------------------------------------------------------------------------

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
      const params = ctx.state.params as Params;
      show(
        ctx,
        200,
        signUpPage({
          frame: frameOf(ctx),
          csrf: pages.browserCsrf(ctx),
          registration: app.registration,
          values: { invite: text(params, 'invite') },
          authorize: authorizeReturn(params.authorize),
        }),
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
      response: htmlPage('The mail is on its way'),
      otherResponses: {
        400: page('A field is missing or refused: the form again, saying why'),
        403: page('The CSRF token is missing or wrong; sign-up is closed; or the invite code is not valid'),
        429: page('Too many sign-ups from this address (with Retry-After)'),
      },
      errors: [],
    },
    async (ctx) => {
      if (app.registration === 'closed') return closed(ctx);
      const params = ctx.state.params as Params;
      if (!pages.browserCsrfMatches(ctx, params.csrf_token)) return expiredForm(ctx);
      const t = stringsOf(ctx);
      const values = {
        login: text(params, 'login').trim(),
        email: text(params, 'email').trim(),
        name: text(params, 'name').trim(),
        ...(app.registration === 'invite' ? { invite: text(params, 'invite').trim() } : {}),
      };
      const password = text(params, 'password');
      const authorize = authorizeReturn(params.authorize);
      const again = (status: number, error: string) =>
        show(
          ctx,
          status,
          signUpPage({
            frame: frameOf(ctx),
            csrf: pages.browserCsrf(ctx),
            registration: app.registration,
            values,
            authorize,
            error,
          }),
        );
      const sent = () =>
        show(ctx, 200, checkMailPage({ frame: frameOf(ctx), csrf: pages.browserCsrf(ctx), email: values.email }));
      if (!values.login || !values.email || !password) return again(400, t.fillRequired);
      // A program that fills every field: answered as a person would be, and nothing is made.
      if (text(params, 'website') !== '') return sent();
      try {
        await app.signUp.execute(
          { login: values.login, email: values.email, password, name: values.name, invite: values.invite },
          { address: ctx.ip, locale: localeOf(ctx) },
        );
      } catch (error) {
        if (error instanceof Forbidden) return again(403, t.inviteRefused);
        const { status, message } = refusal(ctx, error);
        return again(status, message);
      }
      keepReturn(ctx, authorize);
      sent();
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
      const params = ctx.state.params as Params;
      if (!pages.browserCsrfMatches(ctx, params.csrf_token)) return expiredForm(ctx);
      const frame = frameOf(ctx);
      try {
        await app.resendVerification.execute({ login: text(params, 'login') }, { address: ctx.ip });
      } catch (error) {
        const { status, message } = refusal(ctx, error);
        return show(ctx, status, messagePage({ frame, title: (t) => t.resentTitle, message }));
      }
      show(ctx, 200, resentPage({ frame }));
    },
  );

  // ---- confirm an address ----------------------------------------------------------------------------------

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/verify',
      summary: 'The page of a verification link',
      description:
        'Where a verification (or e-mail change) mail links: the page names the account and shows a Confirm ' +
        'button. Opening it spends nothing (mail scanners open links); only the button (POST) does. An unknown, ' +
        'used or expired token: a page saying so (404), offering to send a new link.',
      tag: 'Accounts',
      access: 'browser',
      query: TokenQuery,
      response: htmlPage('The Confirm button'),
      otherResponses: { 404: page('The link is unknown, used or expired') },
      errors: [],
    },
    async (ctx) => {
      const token = text(ctx.state.params as Params, 'token');
      const link = token ? await app.describeMailLink.execute(token, ['verify', 'email_change']) : null;
      const csrf = pages.browserCsrf(ctx);
      if (!link) return show(ctx, 404, badLinkPage({ frame: frameOf(ctx), csrf }));
      show(ctx, 200, confirmPage({ frame: frameOf(ctx), csrf, token, login: link.login }));
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
        'used or expired token: 404 page. A missing or wrong `csrf_token` is 403.',
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
      const params = ctx.state.params as Params;
      if (!pages.browserCsrfMatches(ctx, params.csrf_token)) return expiredForm(ctx);
      const frame = frameOf(ctx);
      const token = text(params, 'token');
      let confirmed: Awaited<ReturnType<ConfirmAddress['execute']>>;
      try {
        confirmed = token ? await app.confirmAddress.execute(token) : null;
      } catch (error) {
        const { status, message } = refusal(ctx, error);
        return show(ctx, status, badLinkPage({ frame, csrf: pages.browserCsrf(ctx), error: message }));
      }
      if (!confirmed) return show(ctx, 404, badLinkPage({ frame, csrf: pages.browserCsrf(ctx) }));
      const login = confirmed.state === 'active' ? await signInBrowser(ctx, confirmed.user.id) : null;
      const continueTo = takeReturn(ctx);
      if (login && continueTo && !confirmed.email) return pages.seeOther(ctx, continueTo);
      show(
        ctx,
        200,
        confirmedPage({
          frame,
          login: confirmed.user.login,
          state: confirmed.state,
          email: confirmed.email,
          ...(login && continueTo ? { continueTo } : {}),
        }),
      );
    },
  );

  // ---- a forgotten password --------------------------------------------------------------------------------

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
      const params = ctx.state.params as Params;
      show(
        ctx,
        200,
        forgotPage({ frame: frameOf(ctx), csrf: pages.browserCsrf(ctx), authorize: authorizeReturn(params.authorize) }),
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
      const params = ctx.state.params as Params;
      if (!pages.browserCsrfMatches(ctx, params.csrf_token)) return expiredForm(ctx);
      const frame = frameOf(ctx);
      const login = text(params, 'login').trim();
      const authorize = authorizeReturn(params.authorize);
      const again = (status: number, error: string) =>
        show(ctx, status, forgotPage({ frame, csrf: pages.browserCsrf(ctx), login, authorize, error }));
      if (!login) return again(400, stringsOf(ctx).fillRequired);
      try {
        await app.requestPasswordReset.execute({ login }, { address: ctx.ip });
      } catch (error) {
        const { status, message } = refusal(ctx, error);
        return again(status, message);
      }
      keepReturn(ctx, authorize);
      show(ctx, 200, forgotSentPage({ frame }));
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
      query: TokenQuery,
      response: htmlPage('The form'),
      otherResponses: { 404: page('The link is unknown, used or expired') },
      errors: [],
    },
    async (ctx) => {
      const token = text(ctx.state.params as Params, 'token');
      const link = token ? await app.describeMailLink.execute(token, ['reset']) : null;
      if (!link) return show(ctx, 404, badResetLinkPage({ frame: frameOf(ctx) }));
      show(ctx, 200, resetPage({ frame: frameOf(ctx), csrf: pages.browserCsrf(ctx), token, login: link.login }));
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
      const params = ctx.state.params as Params;
      if (!pages.browserCsrfMatches(ctx, params.csrf_token)) return expiredForm(ctx);
      const frame = frameOf(ctx);
      const token = text(params, 'token');
      const password = text(params, 'password');
      const link = token ? await app.describeMailLink.execute(token, ['reset']) : null;
      if (!link) return show(ctx, 404, badResetLinkPage({ frame }));
      const again = (error: string) =>
        show(ctx, 400, resetPage({ frame, csrf: pages.browserCsrf(ctx), token, login: link.login, error }));
      if (password !== text(params, 'password_confirmation')) return again(stringsOf(ctx).passwordsDiffer);
      let reset: Awaited<ReturnType<ResetPassword['execute']>>;
      try {
        reset = await app.resetPassword.execute(token, password);
      } catch (error) {
        const { message } = refusal(ctx, error);
        return again(message);
      }
      if (!reset) return show(ctx, 404, badResetLinkPage({ frame }));
      const login = await signInBrowser(ctx, reset.user.id);
      const continueTo = takeReturn(ctx);
      show(ctx, 200, resetDonePage({ frame, login, ...(login && continueTo ? { continueTo } : {}) }));
    },
  );

  return router;
}

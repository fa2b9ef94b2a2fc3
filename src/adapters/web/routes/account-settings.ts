import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { ActingUser } from '../../../application/actor.js';
import { AccountNotActive } from '../../../application/oauth/password-login.js';
import { ChangeEmailParams, UpdateProfileParams } from '../../../application/accounts/profile.js';
import { PreferencesParams } from '../../../application/accounts/preferences.js';
import { InvalidInput, RuleViolated, TooManyRequests } from '../../../domain/shared/errors.js';
import { SESSION_COOKIE, browserPages, secretsMatch, sessionCsrf } from '../browser.js';
import { localeOf } from '../../presentation/locale.js';
import type { RouteDeclarer } from '../docs.js';
import type { Params } from '../forms.js';
import { type AccountWords, wordsOf } from '../../presentation/words/index.js';
import { type Frame, actionFor } from '../views/layout.js';
import { MessagePage as messagePage } from '../views/joining.js';
import {
  type ProfileValues,
  SETTINGS_FORMS,
  type SettingsForm,
  type SettingsInput,
  FarewellPage as farewellPage,
  SettingsPage as settingsPage,
  SignInPage as signInPage,
} from '../views/settings.js';
import type { AccountPageUseCases } from './account-pages.js';
import { Csrf, htmlPage, Lang, page } from '../docs.js';

/**
 * The settings page of a signed-in person (contract §16b: profile, e-mail, password, mail preferences, leaving),
 * and the account pages' sign-in and sign-out. The rules are the API's own use cases (§16c, §17); the person is the
 * browser session's. Every form carries a token derived from the session (the sign-in form: the browser's
 * double-submit token); a form from elsewhere is refused (403) before anything is read.
 */

const LangQuery = z.object({ lang: Lang });
const SignInForm = z.object({
  login: z.string().meta({ description: 'A login or an e-mail address' }),
  password: z.string(),
  csrf_token: Csrf,
});
const SignOutForm = z.object({ csrf_token: Csrf });
const SettingsFormBody = z.object({
  form: z.enum(SETTINGS_FORMS).meta({ description: 'Which of the page’s forms was sent' }),
  csrf_token: Csrf,
  ...UpdateProfileParams.partial().shape,
  email_public: z.enum(['true']).optional().meta({ description: 'profile: the checkbox (absent: unchecked)' }),
  email: ChangeEmailParams.shape.email.optional(),
  current_password: z.string().optional().meta({ description: 'email, password: the password now' }),
  password: z.string().optional().meta({ description: 'password: the new one; delete: the password, to confirm' }),
  password_confirmation: z.string().optional().meta({ description: 'password: the new one again' }),
  ...PreferencesParams.partial().shape,
  confirm: z.enum(['yes']).optional().meta({ description: 'delete: the confirmation checkbox' }),
});

const text = (params: Params, name: string): string => (typeof params[name] === 'string' ? (params[name] as string) : '');

const PROFILE_FIELDS = ['name', 'location', 'company', 'twitter', 'github', 'website', 'tagline', 'bio'] as const;

export function accountSettingsRoutes(
  app: AccountPageUseCases,
  docs: RouteDeclarer,
  options: { secureCookies: boolean },
): Router {
  const router = new Router();
  const pages = browserPages(options);
  const { show } = pages;

  function frameOf(ctx: Context): Frame {
    return ctx.method === 'GET' ? { locale: localeOf(ctx), here: ctx.path } : { locale: localeOf(ctx) };
  }
  const stringsOf = (ctx: Context): AccountWords => wordsOf(localeOf(ctx)).account;
  const toSignIn = (ctx: Context) => pages.seeOther(ctx, actionFor('/account/sign-in', localeOf(ctx)));

  function expiredForm(ctx: Context): void {
    show(ctx, 403, messagePage({ frame: frameOf(ctx), title: (t) => t.expiredTitle, message: stringsOf(ctx).expired }));
  }

  async function sessionUser(ctx: Context): Promise<{ session: string; user: ActingUser } | null> {
    const session = ctx.cookies.get(SESSION_COOKIE);
    const user = await app.resolveWebSession.execute(session);
    return session && user ? { session, user } : null;
  }

  /** The settings page as saved now, with what became of the form just sent (and what was typed, if refused). */
  async function showSettings(
    ctx: Context,
    signedIn: { session: string; user: ActingUser },
    status = 200,
    extra: Pick<SettingsInput, 'outcome' | 'newEmail'> & { profile?: ProfileValues } = {},
  ): Promise<void> {
    const [detail, preferences] = await Promise.all([app.users.byId(signedIn.user.id), app.mailPreferences.show(signedIn.user)]);
    if (!detail) return toSignIn(ctx);
    const profile: ProfileValues = extra.profile ?? {
      name: detail.name ?? '',
      location: detail.location ?? '',
      company: detail.company ?? '',
      twitter: detail.twitter ?? '',
      github: detail.github ?? '',
      website: detail.website ?? '',
      tagline: detail.tagline ?? '',
      bio: detail.bio ?? '',
      emailPublic: detail.emailPublic,
    };
    show(
      ctx,
      status,
      settingsPage({
        frame: frameOf(ctx),
        csrf: sessionCsrf(signedIn.session),
        login: detail.login,
        email: detail.email,
        profile,
        preferences,
        ...(extra.outcome ? { outcome: extra.outcome } : {}),
        ...(extra.newEmail ? { newEmail: extra.newEmail } : {}),
      }),
    );
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

  // ---- sign in and out -------------------------------------------------------------------------------------

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
      if (await sessionUser(ctx)) return pages.seeOther(ctx, actionFor('/account/settings', localeOf(ctx)));
      show(ctx, 200, signInPage({ frame: frameOf(ctx), csrf: pages.browserCsrf(ctx) }));
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
      const params = ctx.state.params as Params;
      if (!pages.browserCsrfMatches(ctx, params.csrf_token)) return expiredForm(ctx);
      const t = stringsOf(ctx);
      const login = text(params, 'login').trim();
      const password = text(params, 'password');
      const again = (status: number, error: string, unverified = false) =>
        show(ctx, status, signInPage({ frame: frameOf(ctx), csrf: pages.browserCsrf(ctx), login, error, unverified }));
      let signedIn: Awaited<ReturnType<typeof app.signIn.execute>>;
      try {
        signedIn = login && password ? await app.signIn.execute({ username: login, password, address: ctx.ip }) : null;
      } catch (error) {
        if (error instanceof AccountNotActive) {
          const refusal =
            error.state === 'unverified'
              ? t.notConfirmed
              : error.state === 'pending'
                ? t.awaitingApproval
                : t.suspended(error.until!.toISOString());
          return again(200, refusal, error.state === 'unverified');
        }
        if (!(error instanceof TooManyRequests)) throw error;
        ctx.set('Retry-After', String(error.retryAfterSeconds));
        return again(429, t.tooMany(error.retryAfterSeconds));
      }
      if (!signedIn) return again(200, t.wrongLogin);
      pages.setSession(ctx, signedIn.session);
      pages.seeOther(ctx, actionFor('/account/settings', localeOf(ctx)));
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
      const params = ctx.state.params as Params;
      const signedIn = await sessionUser(ctx);
      if (signedIn) {
        if (!secretsMatch(sessionCsrf(signedIn.session), params.csrf_token)) return expiredForm(ctx);
        await app.signOut.execute(signedIn.session);
      }
      pages.setSession(ctx, null);
      show(ctx, 200, farewellPage({ frame: frameOf(ctx), deleted: false }));
    },
  );

  // ---- settings --------------------------------------------------------------------------------------------

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/settings/export',
      summary: 'Download your data',
      description:
        'For a signed-in person: the document GET /api/v3/users/me/export gives, as a file. Not signed in: 303 to the ' +
        'sign-in page.',
      tag: 'Accounts',
      access: 'browser',
      response: {
        schema: z.record(z.string(), z.unknown()),
        example: { exported_at: '2026-11-26T12:00:00.000Z', profile: { login: 'alice' } },
        description: 'The export, as an attachment',
      },
      otherResponses: { 303: { description: 'Not signed in: to /account/sign-in' } },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await sessionUser(ctx);
      if (!signedIn) return toSignIn(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.set('Content-Disposition', `attachment; filename="forum-${signedIn.user.login}.json"`);
      ctx.body = await app.exportAccount.execute(signedIn.user);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/settings',
      summary: 'The settings page',
      description:
        'An HTML page for a signed-in person, of separate forms: the profile, the e-mail address, the password, the ' +
        'notification mail preferences, and deleting the account. Not signed in: 303 to the sign-in page.',
      tag: 'Accounts',
      access: 'browser',
      query: LangQuery,
      response: htmlPage('The settings page'),
      otherResponses: { 303: { description: 'Not signed in: to /account/sign-in' } },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await sessionUser(ctx);
      if (!signedIn) return toSignIn(ctx);
      await showSettings(ctx, signedIn);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/settings',
      summary: 'Send one of the settings forms',
      description:
        '`form` says which, each as its API counterpart does it: `profile` (as `PUT /api/v3/users/me`; an unchecked ' +
        '`email_public` is false); `email` (`email`, `current_password`: a link goes to the new address, and nothing ' +
        'changes until it is followed); `password` (`current_password`, `password` twice: every token and other ' +
        'session of the account ends, and this browser is signed in anew); `preferences` (as `PUT ' +
        '/api/v3/users/me/preferences`); `delete` (`password` and `confirm=yes`: the account is anonymized, the ' +
        'browser signed out, and a goodbye page shown). The page comes back with the outcome beside the form; a ' +
        'refusal shows it with the reason (and what was typed, never a password). Not signed in: 303 to the sign-in ' +
        'page. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: SettingsFormBody, media: ['form'] },
      response: htmlPage('The settings page, saying the form was done (or, after delete, the goodbye page)'),
      otherResponses: {
        303: { description: 'Not signed in: to /account/sign-in' },
        400: page('A field was refused, or a password is not correct: the page again, saying why'),
        403: page('The CSRF token is missing or wrong'),
        429: page('Too many wrong passwords for this account from this address: the page again, saying when to try'),
      },
      errors: [],
    },
    async (ctx) => {
      const params = ctx.state.params as Params;
      const signedIn = await sessionUser(ctx);
      if (!signedIn) return toSignIn(ctx);
      if (!secretsMatch(sessionCsrf(signedIn.session), params.csrf_token)) return expiredForm(ctx);
      const t = stringsOf(ctx);
      const form = text(params, 'form') as SettingsForm;
      if (!SETTINGS_FORMS.includes(form)) return expiredForm(ctx);
      const { user } = signedIn;
      const done = (notice: string) => showSettings(ctx, signedIn, 200, { outcome: { form, notice } });
      const refused = (error: unknown, extra: { profile?: ProfileValues; newEmail?: string } = {}) => {
        const { status, message } = refusal(ctx, error);
        return showSettings(ctx, signedIn, status, { outcome: { form, error: message }, ...extra });
      };

      switch (form) {
        case 'profile': {
          const typed = Object.fromEntries(PROFILE_FIELDS.map((name) => [name, text(params, name).trim()])) as Record<
            (typeof PROFILE_FIELDS)[number],
            string
          >;
          const emailPublic = text(params, 'email_public') === 'true';
          try {
            await app.updateProfile.execute(user, { ...typed, email_public: emailPublic });
          } catch (error) {
            return refused(error, { profile: { ...typed, emailPublic } });
          }
          return done(t.profileSaved);
        }
        case 'email': {
          const email = text(params, 'email').trim();
          try {
            await app.requestEmailChange.execute(
              user,
              { email, current_password: text(params, 'current_password') },
              { address: ctx.ip },
            );
          } catch (error) {
            return refused(error, { newEmail: email });
          }
          return done(t.emailChangeSent(email));
        }
        case 'password': {
          const password = text(params, 'password');
          if (password !== text(params, 'password_confirmation')) return refused(new RuleViolated(t.passwordsDiffer));
          try {
            await app.changePassword.execute(
              user,
              { current_password: text(params, 'current_password'), password },
              { keepToken: null, address: ctx.ip },
            );
          } catch (error) {
            return refused(error);
          }
          // Every session of the account ended, this one too: the person who changed it stays signed in here.
          const opened = await app.openWebSession.execute(user.id);
          if (!opened) {
            pages.setSession(ctx, null);
            return toSignIn(ctx);
          }
          pages.setSession(ctx, opened.session);
          return showSettings(ctx, opened, 200, { outcome: { form, notice: t.passwordChanged } });
        }
        case 'preferences': {
          const chosen = Object.fromEntries(
            ['email_notifications', 'email_digest', 'locale'].flatMap((name) =>
              text(params, name) ? [[name, text(params, name)]] : [],
            ),
          );
          try {
            await app.mailPreferences.change(user, chosen);
          } catch (error) {
            return refused(error);
          }
          return done(t.preferencesSaved);
        }
        case 'delete': {
          if (text(params, 'confirm') !== 'yes') return refused(new RuleViolated(t.deleteUnconfirmed));
          try {
            await app.deleteOwnAccount.execute(user, { password: text(params, 'password') }, { address: ctx.ip });
          } catch (error) {
            return refused(error);
          }
          pages.setSession(ctx, null);
          return show(ctx, 200, farewellPage({ frame: frameOf(ctx), deleted: true }));
        }
      }
    },
  );

  return router;
}

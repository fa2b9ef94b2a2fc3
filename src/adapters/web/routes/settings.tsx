import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { DeleteAccountParams } from '../../../application/accounts/leaving.js';
import { PreferencesParams } from '../../../application/accounts/preferences.js';
import { ChangeEmailParams, ChangePasswordParams, UpdateProfileParams } from '../../../application/accounts/profile.js';
import { CreatePersonalTokenParams } from '../../../application/tokens/personal-tokens.js';
import { Id } from '../../../application/inputs.js';
import { NotFound } from '../../../domain/shared/errors.js';
import { localeOf } from '../../presentation/locale.js';
import { wordsOf } from '../../presentation/words/index.js';
import { browserPages, sessionCsrf } from '../browser.js';
import { Csrf, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { readForm, refuse, type Typed } from '../forms.js';
import { frameOf } from '../frame.js';
import { openSession, type SignedIn, signedInUser } from '../sign-in.js';
import { providerOutcome } from './providers.js';
import { FarewellPage, type ProfileValues, SETTINGS_FORMS, type SettingsForm, SettingsPage } from '../views/settings.js';
import { type AccountPageUseCases, accountForm, accountWords, signedInForm, toSignIn as signInFirst } from './account.js';

/**
 * The settings page of a signed-in person (contract §16b, §16c, §17, §25: profile, e-mail, password, mail
 * preferences, tokens for scripts, leaving) and the download of their data. The rules are the API's own use cases; the person is the browser
 * session's. Every form carries a token derived from the session; a form from elsewhere is refused (403) before
 * anything is read. Each form is read with its use case's parameters.
 */

const LangQuery = z.object({ lang: Lang });

const CheckedBox = z.enum(['true']).optional().meta({ description: 'profile: the checkbox (absent: unchecked)' });
const Confirmed = z.enum(['yes']).optional().meta({ description: 'delete: the confirmation checkbox' });

/** Each of the page's forms: its use case's parameters and the page's own fields. */
const FORMS = {
  profile: UpdateProfileParams.extend({ email_public: CheckedBox }),
  email: ChangeEmailParams,
  password: ChangePasswordParams.extend({ password_confirmation: z.string() }),
  // An account without a password: the forgot-password mail to its own address; nothing to read but the form's name.
  set_password: z.object({}),
  preferences: PreferencesParams,
  // `token_name`: the profile form has its own `name`, and the document describes the page's fields as one body.
  token: z.object({
    token_name: CreatePersonalTokenParams.shape.name,
    scope: CreatePersonalTokenParams.shape.scope,
    expires_in_days: CreatePersonalTokenParams.shape.expires_in_days,
  }),
  revoke_token: z.object({ token_id: Id.meta({ description: 'revoke_token: which token' }) }),
  delete: DeleteAccountParams.extend({ confirm: Confirmed }),
} satisfies Record<SettingsForm, z.ZodObject>;

/** What the page posts: one of its forms, as the document describes it. */
const SettingsFormBody = z.object({
  form: z.enum(SETTINGS_FORMS).meta({ description: 'Which of the page’s forms was sent' }),
  csrf_token: Csrf,
  ...UpdateProfileParams.partial().shape,
  email_public: CheckedBox,
  email: ChangeEmailParams.shape.email.optional(),
  current_password: z.string().optional().meta({ description: 'email, password: the password now' }),
  password: z.string().optional().meta({ description: 'password: the new one; delete: the password, to confirm' }),
  password_confirmation: z.string().optional().meta({ description: 'password: the new one again' }),
  login: z
    .string()
    .optional()
    .meta({ description: 'delete, for an account without a password: its own login, to confirm (never instead of a password)' }),
  ...PreferencesParams.partial().shape,
  token_name: FORMS.token.shape.token_name.optional().meta({ description: 'token: what the new token is for' }),
  scope: FORMS.token.shape.scope.optional().meta({ description: 'token: `read` or `all`' }),
  expires_in_days: FORMS.token.shape.expires_in_days,
  token_id: FORMS.revoke_token.shape.token_id.optional(),
  confirm: Confirmed,
});

const PROFILE_FIELDS = ['name', 'location', 'company', 'twitter', 'github', 'website', 'tagline', 'bio'] as const;

/** The profile form as typed (what a refused form shows again). */
function typedProfile(typed: Typed): ProfileValues {
  const fields = Object.fromEntries(PROFILE_FIELDS.map((name) => [name, typed[name] ?? ''])) as Record<
    (typeof PROFILE_FIELDS)[number],
    string
  >;
  return { ...fields, emailPublic: typed.email_public === 'true' };
}

export function settingsRoutes(app: AccountPageUseCases, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const browser = browserPages(options);
  const toSignIn = (ctx: Context) => signInFirst(ctx, browser);

  /** The settings page as saved now, with what became of the form just sent (and what was typed, if refused). */
  async function showSettings(
    ctx: Context,
    signedIn: SignedIn,
    status = 200,
    extra: {
      outcome?: { form: SettingsForm; error?: string; notice?: string };
      profile?: ProfileValues;
      newEmail?: string;
      newToken?: { name: string; token: string };
      tokenName?: string;
    } = {},
  ): Promise<void> {
    // `links` says whether a password opens the account (the one notion of it, User#hasPassword).
    const [detail, preferences, links, tokens, secondFactor] = await Promise.all([
      app.users.byId(signedIn.user.id),
      app.mailPreferences.show(signedIn.user),
      app.providerLinks.execute(signedIn.user),
      app.listPersonalTokens.execute(signedIn.user),
      app.showSecondFactor.execute(signedIn.user),
    ]);
    const said = providerOutcome(ctx);
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
    browser.show(
      ctx,
      status,
      <SettingsPage
        frame={frameOf(ctx)}
        csrf={sessionCsrf(signedIn.session)}
        login={detail.login}
        email={detail.email}
        profile={profile}
        preferences={preferences}
        {...(extra.outcome ? { outcome: extra.outcome } : {})}
        newEmail={extra.newEmail}
        providerLinks={{ values: links, ...said }}
        tokens={tokens}
        newToken={extra.newToken}
        tokenName={extra.tokenName}
        twoFactorOn={secondFactor.on}
        hasPassword={links.hasPassword}
      />,
    );
  }

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
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
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
        'notification mail preferences, and deleting the account. An account without a password (made by another ' +
        'provider) is offered a link mailed to its address to set one instead of the password and e-mail forms, and ' +
        'leaves by typing its login. Not signed in: 303 to the sign-in page.',
      tag: 'Accounts',
      access: 'browser',
      query: LangQuery,
      response: htmlPage('The settings page'),
      otherResponses: { 303: { description: 'Not signed in: to /account/sign-in' } },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
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
        'session of the account ends, and this browser is signed in anew); `set_password` (an account without a ' +
        'password, made by another provider: the forgot-password mail goes to its address, whose link sets one); ' +
        '`preferences` (as `PUT /api/v3/users/me/preferences`); `delete` (`password`, or for an account without ' +
        'one its `login`, and `confirm=yes`: the account is anonymized, the browser signed out, and a goodbye page ' +
        'shown). The page comes back with the outcome beside the form; a ' +
        'refusal shows it with the reason (and what was typed, never a password). Not signed in: 303 to the sign-in ' +
        'page. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: SettingsFormBody, media: ['form'] },
      response: htmlPage('The settings page, saying the form was done (or, after delete, the goodbye page)'),
      otherResponses: {
        303: { description: 'Not signed in: to /account/sign-in' },
        400: page('A field was refused, or a password (or a login, to leave) is not correct: the page again, saying why'),
        403: page('The CSRF token is missing or wrong'),
        429: page(
          'Too many wrong passwords (or logins, to leave) for this account from this address, or too many reset mails: ' +
            'the page again, saying when to try',
        ),
      },
      errors: [],
    },
    async (ctx) => {
      const sent = await signedInForm(ctx, browser, app.resolveWebSession, SettingsFormBody.shape.form);
      if (!sent) return;
      const { signedIn, which } = sent;
      const t = accountWords(ctx);
      const { user } = signedIn;
      const done = (form: SettingsForm, notice: string, session = signedIn) =>
        showSettings(ctx, session, 200, { outcome: { form, notice } });
      const read = <F extends SettingsForm>(form: F) =>
        readForm(
          ctx,
          FORMS[form],
          accountForm(ctx, (refusal, typed) =>
            showSettings(ctx, signedIn, refusal.status, {
              outcome: { form, error: refusal.message },
              ...(form === 'profile' ? { profile: typedProfile(typed) } : {}),
              ...(form === 'email' ? { newEmail: typed.email ?? '' } : {}),
              ...(form === 'token' ? { tokenName: typed.token_name ?? '' } : {}),
            }),
          ),
        ) as z.output<(typeof FORMS)[F]>;

      switch (which) {
        case 'profile': {
          const { email_public: checked, ...fields } = read('profile');
          await app.updateProfile.execute(user, { ...fields, email_public: checked === 'true' });
          return done('profile', t.profileSaved);
        }
        case 'email': {
          const form = read('email');
          await app.requestEmailChange.execute(user, form, { address: ctx.ip });
          return done('email', t.emailChangeSent(form.email));
        }
        case 'password': {
          const form = read('password');
          if (form.password !== form.password_confirmation) refuse(t.passwordsDiffer);
          await app.changePassword.execute(user, form, { keepToken: null, address: ctx.ip });
          // Every session of the account ended, this one too: the person who changed it stays signed in here.
          const reopened = await openSession(ctx, browser, app.openWebSession, user.id, true);
          if (!reopened) {
            browser.setSession(ctx, null);
            return toSignIn(ctx);
          }
          return done('password', t.passwordChanged, reopened);
        }
        case 'set_password': {
          read('set_password');
          // The forgot-password use case and its mail, for this account's own (confirmed) address: its link sets the
          // first password, as it resets one (contract §16b). Throttled as forgot-password is.
          await app.requestPasswordReset.execute({ login: user.login }, { address: ctx.ip });
          return done('set_password', t.setPasswordSent);
        }
        case 'preferences': {
          await app.mailPreferences.change(user, read('preferences'));
          return done('preferences', t.preferencesSaved);
        }
        case 'token': {
          const form = read('token');
          const made = await app.createPersonalToken.execute(
            user,
            { name: form.token_name, scope: form.scope, expires_in_days: form.expires_in_days },
            { callerToken: null },
          );
          const { name } = made.personalToken;
          const notice = wordsOf(localeOf(ctx)).personalTokens.created(name);
          return showSettings(ctx, signedIn, 200, { outcome: { form: 'token', notice }, newToken: { name, token: made.token } });
        }
        case 'revoke_token': {
          const words = wordsOf(localeOf(ctx)).personalTokens;
          // A token revoked meanwhile (the page was old, or another tab did it) is the form's refusal, in words.
          await app.revokePersonalToken.execute(user, read('revoke_token').token_id).catch((error: unknown) => {
            if (error instanceof NotFound) refuse(words.gone);
            throw error;
          });
          return done('revoke_token', words.revoked);
        }
        case 'delete': {
          const form = read('delete');
          if (form.confirm !== 'yes') refuse(t.deleteUnconfirmed);
          await app.deleteOwnAccount.execute(user, { password: form.password, login: form.login }, { address: ctx.ip });
          browser.setSession(ctx, null);
          return browser.show(ctx, 200, <FarewellPage frame={frameOf(ctx)} deleted />);
        }
      }
    },
  );

  return router;
}

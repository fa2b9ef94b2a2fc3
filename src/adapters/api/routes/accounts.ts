import Router from '@koa/router';
import { z } from 'zod';
import { ForgotPasswordParams, type RequestPasswordReset } from '../../../application/accounts/password-reset.js';
import { type SignUp, SignUpParams } from '../../../application/accounts/sign-up.js';
import { type ResendVerification, ResendVerificationParams } from '../../../application/accounts/verification.js';
import { localeOf } from '../../presentation/locale.js';
import { type MailPreferencesOf, PreferencesParams } from '../../../application/accounts/preferences.js';
import { EMAIL_DIGESTS, EMAIL_MESSAGES, EMAIL_NOTIFICATIONS, LOCALES, type MailPreferences } from '../../../domain/users/user.js';
import { actorOf, bearerToken } from '../auth.js';
import {
  type ChangePassword,
  ChangePasswordParams,
  type UpdateProfile,
  UpdateProfileParams,
} from '../../../application/accounts/profile.js';
import type { UserReadModel } from '../../../application/read-models.js';
import { type DeleteOwnAccount, DeleteAccountParams, type ExportAccount } from '../../../application/accounts/leaving.js';
import { NotFound } from '../../../domain/shared/errors.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';
import { OK, type Wire } from '../../presentation/wire.js';
import { OkSchema, UserDetailSchema } from '../../presentation/schemas.js';

/** What the account routes call. */
export interface AccountRouteUseCases {
  users: UserReadModel;
  updateProfile: UpdateProfile;
  changePassword: ChangePassword;
  mailPreferences: MailPreferencesOf;
  exportAccount: ExportAccount;
  deleteOwnAccount: DeleteOwnAccount;
  signUp: SignUp;
  requestPasswordReset: RequestPasswordReset;
  resendVerification: ResendVerification;
}
export const AccountRouteUseCases = Symbol.for('AccountRouteUseCases');

const Ok = { schema: OkSchema, example: examples.ok, description: 'Done (whether or not there is such an account)' };

/** Joining, for mobile clients (contract §16b); the mail links open the /account pages. */
export function accountRoutes(app: AccountRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/users',
      summary: 'Sign up',
      description:
        'Makes an unverified account and mails a verification link (in the language of Accept-Language). An e-mail ' +
        'address that is already registered gets the same answer, as fast, and its owner a mail saying someone ' +
        'tried: the answer never tells whether an address is known. REGISTRATION=closed, or =invite without a ' +
        'valid invite: 403.',
      tag: 'Accounts',
      access: 'public',
      body: { schema: SignUpParams, media: ['json', 'form', 'multipart'] },
      response: {
        schema: z.strictObject({ user: UserDetailSchema, meta: z.strictObject({ state: z.literal('unverified') }) }),
        example: { user: examples.userDetail, meta: { state: 'unverified' } },
        description: 'The new account, waiting for its address to be confirmed',
      },
      errors: [400, 403, 429],
    },
    async (ctx) => {
      const { user } = await app.signUp.execute(ctx.state.params, { address: ctx.ip, locale: localeOf(ctx) });
      ctx.body = { user: wire.userDetail(user, { id: user.id, role: 'member' }), meta: { state: 'unverified' } };
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/users/password/forgot',
      summary: 'Mail a password reset link',
      description: 'Always `{"ok":1}`, as fast whether or not the login or address is an account’s.',
      tag: 'Accounts',
      access: 'public',
      body: { schema: ForgotPasswordParams, media: ['json', 'form', 'multipart'] },
      response: Ok,
      errors: [400, 429],
    },
    async (ctx) => {
      await app.requestPasswordReset.execute(ctx.state.params, { address: ctx.ip });
      ctx.body = OK;
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'post',
      path: '/users/verification',
      summary: 'Mail the verification link again',
      description: 'Always `{"ok":1}`; a mail goes only to an unverified account, and not within a minute of the last one.',
      tag: 'Accounts',
      access: 'public',
      body: { schema: ResendVerificationParams, media: ['json', 'form', 'multipart'] },
      response: Ok,
      errors: [400, 429],
    },
    async (ctx) => {
      await app.resendVerification.execute(ctx.state.params, { address: ctx.ip });
      ctx.body = OK;
    },
  );

  for (const method of ['put', 'patch'] as const) {
    docs.route(
      router,
      prefix,
      {
        method,
        path: '/users/me',
        summary: 'Edit your profile',
        description:
          'Each field given is set (blank clears it); those not given stay. `email_public` shows your address to everyone.',
        tag: 'Accounts',
        access: 'user',
        body: { schema: UpdateProfileParams, media: ['json', 'form', 'multipart'] },
        response: {
          schema: z.strictObject({ user: UserDetailSchema }),
          example: { user: examples.userDetail },
          description: 'Your profile as it now is',
        },
        errors: [400],
      },
      async (ctx) => {
        const actor = await actorOf(ctx);
        const id = await app.updateProfile.execute(actor, ctx.state.params);
        const user = await app.users.byId(id);
        if (!user) throw new NotFound('user');
        ctx.body = { user: wire.userDetail(user, actor) };
      },
    );
  }

  docs.route(
    router,
    prefix,
    {
      method: 'put',
      path: '/users/me/password',
      summary: 'Change your password',
      description:
        'With the current one. Every other token and browser session of yours ends; the token of this request keeps ' +
        'working; a notice goes to your address.',
      tag: 'Accounts',
      access: 'user',
      body: { schema: ChangePasswordParams, media: ['json', 'form', 'multipart'] },
      response: { schema: OkSchema, example: examples.ok, description: 'Changed' },
      errors: [400, 429],
    },
    async (ctx) => {
      await app.changePassword.execute(await actorOf(ctx), ctx.state.params, {
        keepToken: bearerToken(ctx) ?? null,
        address: ctx.ip,
      });
      ctx.body = OK;
    },
  );

  const Preferences = z
    .strictObject({
      email_notifications: z.enum(EMAIL_NOTIFICATIONS),
      email_digest: z.enum(EMAIL_DIGESTS),
      email_messages: z.enum(EMAIL_MESSAGES),
      locale: z.enum(LOCALES),
    })
    .meta({ id: 'MailPreferences', description: 'Which notifications are mailed, how often a digest comes, in which language' });
  const preferences = (p: MailPreferences) => ({
    preferences: {
      email_notifications: p.emailNotifications,
      email_digest: p.emailDigest,
      email_messages: p.emailMessages,
      locale: p.locale,
    },
  });
  const preferencesResponse = {
    schema: z.strictObject({ preferences: Preferences }),
    example: {
      preferences: {
        email_notifications: 'mentions_and_replies',
        email_digest: 'weekly',
        email_messages: 'always',
        locale: 'en',
      },
    },
    description: 'Your mail preferences',
  };
  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/me/preferences',
      summary: 'Your mail preferences',
      tag: 'Accounts',
      access: 'user',
      response: preferencesResponse,
      errors: [],
    },
    async (ctx) => {
      ctx.body = preferences(await app.mailPreferences.show(await actorOf(ctx)));
    },
  );
  docs.route(
    router,
    prefix,
    {
      method: 'put',
      path: '/users/me/preferences',
      summary: 'Change your mail preferences',
      description: 'Each field given is set; those not given stay.',
      tag: 'Accounts',
      access: 'user',
      body: { schema: PreferencesParams, media: ['json', 'form', 'multipart'] },
      response: preferencesResponse,
      errors: [400],
    },
    async (ctx) => {
      ctx.body = preferences(await app.mailPreferences.change(await actorOf(ctx), ctx.state.params));
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/users/me/export',
      summary: 'Everything the service holds about you',
      description:
        'One JSON document: profile, topics, replies, likes, follows, favorites, blocks, notifications, devices, ' +
        'tokens and sessions (when, which application; never a secret), and audit entries about you or your posts.',
      tag: 'Accounts',
      access: 'user',
      response: {
        schema: z.record(z.string(), z.unknown()),
        example: { exported_at: '2026-11-26T12:00:00.000Z', profile: { login: 'alice' }, topics: [] },
        description: 'The export',
      },
      errors: [],
    },
    async (ctx) => {
      ctx.body = await app.exportAccount.execute(await actorOf(ctx));
      ctx.set('Content-Disposition', 'attachment; filename="forum-export.json"');
    },
  );

  docs.route(
    router,
    prefix,
    {
      method: 'delete',
      path: '/users/me',
      summary: 'Leave: anonymize your account',
      description:
        'With your `password`. An account without a password (made by signing in with GitHub or an OpenID Connect ' +
        'provider) has none to give: it confirms with its own `login` instead (in any case). An account with a ' +
        'password must give it: its login is not taken in its place. A wrong or missing confirmation is 400 ' +
        'RecordInvalid and counts with the account’s failed sign-ins from your address (429 once they are too ' +
        'many). Your login becomes `deleted_<id>`; name, e-mail, profile, devices, tokens, sessions and links to ' +
        'sign-in providers are gone and nothing opens the account; your topics and replies stay, shown as that login.',
      tag: 'Accounts',
      access: 'user',
      body: { schema: DeleteAccountParams, media: ['json', 'form', 'multipart'] },
      response: { schema: OkSchema, example: examples.ok, description: 'Gone' },
      errors: [400, 429],
    },
    async (ctx) => {
      await app.deleteOwnAccount.execute(await actorOf(ctx), ctx.state.params, { address: ctx.ip });
      ctx.body = OK;
    },
  );

  return router;
}

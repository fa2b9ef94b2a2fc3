import Router from '@koa/router';
import type { Context } from 'koa';
import QRCode from 'qrcode';
import { z } from 'zod';
import { ConfirmTotpParams, SecondFactorProofParams } from '../../../application/second-factors/enrolment.js';
import { AddPasskeyParams, RemovePasskeyParams } from '../../../application/second-factors/passkeys.js';
import { browserPages, PASSKEY_PAGE_POLICY, sessionCsrf } from '../browser.js';
import { Csrf, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { paramsOf, readForm } from '../forms.js';
import { frameOf, wordsIn } from '../frame.js';
import { type SignedIn, signedInUser } from '../sign-in.js';
import {
  PASSKEY_REGISTRATION_OPTIONS_PATH,
  TWO_FACTOR_FORMS,
  TWO_FACTOR_PATH,
  TwoFactorPage,
  type TwoFactorView,
} from '../views/two-factor.js';
import { type AccountPageUseCases, accountForm, accountWords, signedInForm, toSignIn as signInFirst } from './account.js';
import { passkeyOptionsResponses, sendPasskeyOptions } from './passkey-options.js';

/**
 * Two-factor sign-in in a signed-in person's settings (contract §25): set up an authenticator (the QR code of a new
 * secret, and the secret as text; it is on once the app's first code is typed), add passkeys (the passkey script
 * asks for the registration options, runs the ceremony, and sends the form with the authenticator's answer) and
 * remove them, the ten recovery codes shown once, new ones, and turning it all off (with the password or a code).
 * The rules are the second factors' use cases; the person is the browser session's, whose session holds a passkey
 * ceremony's challenge; every form and the options' request carry the session's token.
 */

const TwoFactorQuery = z.object({
  lang: Lang,
  required: z.enum(['admins']).optional().meta({ description: 'REQUIRE_2FA sent an administrator here: the page says so' }),
});

const FORMS = {
  start: z.object({}),
  confirm: ConfirmTotpParams,
  regenerate: SecondFactorProofParams,
  off: SecondFactorProofParams,
  'add-passkey': AddPasskeyParams,
  'remove-passkey': RemovePasskeyParams,
};

const TwoFactorBody = z.object({
  form: z.enum(TWO_FACTOR_FORMS).meta({ description: 'Which of the page’s forms was sent' }),
  csrf_token: Csrf,
  code: z.string().optional().meta({ description: 'confirm: the app’s code now; off: instead of the password, a code' }),
  password: z.string().optional().meta({ description: 'regenerate, off, remove-passkey: the account’s password' }),
  name: z.string().optional().meta({ description: 'add-passkey: the new passkey’s name' }),
  credential: z
    .string()
    .optional()
    .meta({ description: 'add-passkey: the authenticator’s answer to the registration options, as JSON (the script)' }),
  passkey: z.string().optional().meta({ description: 'remove-passkey: which passkey (its id)' }),
});

/** The QR code of an otpauth URI, as SVG (dark on white, whatever the page's colours). */
const qrSvgOf = (uri: string): Promise<string> =>
  QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2, width: 224 });

export function twoFactorRoutes(app: AccountPageUseCases, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const browser = browserPages(options);
  const toSignIn = (ctx: Context) => signInFirst(ctx, browser);

  /** The page as things stand, or with the codes just made, or the enrolment under way. */
  async function showPage(
    ctx: Context,
    signedIn: SignedIn,
    status = 200,
    extra: { newCodes?: string[]; error?: string; notice?: string; required?: boolean } = {},
  ): Promise<void> {
    const state = await app.showSecondFactor.execute(signedIn.user);
    let totp: TwoFactorView['totp'] = { state: state.totp === 'on' ? 'on' : 'off' };
    if (state.totp === 'waiting') {
      const waiting = await app.startTotpEnrolment.waiting(signedIn.user);
      if (waiting) totp = { state: 'enrolling', secret: waiting.secret, qrSvg: await qrSvgOf(waiting.uri) };
    }
    const { passkeys, on, recoveryCodesLeft } = state;
    const view: TwoFactorView = { totp, passkeys, on, recoveryCodesLeft, newCodes: extra.newCodes };
    browser.show(
      ctx,
      status,
      <TwoFactorPage
        frame={frameOf(ctx)}
        csrf={sessionCsrf(signedIn.session)}
        view={view}
        error={extra.error}
        notice={extra.notice}
        required={extra.required ?? false}
      />,
      { policy: PASSKEY_PAGE_POLICY },
    );
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: TWO_FACTOR_PATH,
      summary: 'Two-factor sign-in settings',
      description:
        'An HTML page for a signed-in person: whether two-factor sign-in is on; while an authenticator is being set ' +
        'up, the QR code of its key (and the key as text) with a field for the app’s first code; the passkeys, with ' +
        'forms to add one (the passkey script) and remove one; once on, how many recovery codes are left, new ones, ' +
        'and turning it off. Not signed in: 303 to the sign-in page.',
      tag: 'Accounts',
      access: 'browser',
      query: TwoFactorQuery,
      response: htmlPage('The two-factor settings'),
      otherResponses: { 303: { description: 'Not signed in: to /account/sign-in' } },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      if (!signedIn) return toSignIn(ctx);
      await showPage(ctx, signedIn, 200, { required: paramsOf(ctx).required === 'admins' });
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: TWO_FACTOR_PATH,
      summary: 'Send one of the two-factor forms',
      description:
        '`form` says which: `start` (a new authenticator key, shown as a QR code and as text, waiting for its first ' +
        'code); `confirm` (`code`: the app’s code now; two-factor sign-in is on, and the page shows the ten recovery ' +
        'codes, this once, unless a passkey brought them already); `add-passkey` (`name`, and `credential`: the ' +
        'authenticator’s answer to the options of POST ' +
        PASSKEY_REGISTRATION_OPTIONS_PATH +
        ', within five minutes, once; the first second factor brings the recovery codes); `remove-passkey` ' +
        '(`passkey`, and `password` or `code`; the last second factor takes the recovery codes along); `regenerate` ' +
        '(`password` or `code`: ten new recovery codes, shown this once; the old ones stop working); `off` (`password`, or ' +
        '`code`: the authenticator, the passkeys and the recovery codes are removed). Wrong ' +
        'passwords and codes count with the account’s failed sign-ins (429). Not signed in: 303 to the sign-in ' +
        'page. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      body: { schema: TwoFactorBody, media: ['form'] },
      response: htmlPage('The two-factor settings, with what became of the form'),
      otherResponses: {
        303: { description: 'Not signed in: to /account/sign-in' },
        400: page('A code or password is not right, or the form does not fit the state: the page again, saying why'),
        403: page('The CSRF token is missing or wrong'),
        429: page('Too many wrong passwords or codes for this account from this address'),
      },
      errors: [],
    },
    async (ctx) => {
      const sent = await signedInForm(ctx, browser, app.resolveWebSession, TwoFactorBody.shape.form);
      if (!sent) return;
      const { signedIn, which } = sent;
      const form = readForm(
        ctx,
        FORMS[which],
        accountForm(ctx, (refusal) => showPage(ctx, signedIn, refusal.status, { error: refusal.message })),
      );
      const { user } = signedIn;
      const address = { address: ctx.ip };
      switch (which) {
        case 'start':
          await app.startTotpEnrolment.execute(user);
          return showPage(ctx, signedIn);
        case 'confirm': {
          const { recoveryCodes } = await app.confirmTotpEnrolment.execute(user, form);
          return showPage(ctx, signedIn, 200, recoveryCodes ? { newCodes: recoveryCodes } : {});
        }
        case 'regenerate': {
          const { recoveryCodes } = await app.regenerateRecoveryCodes.execute(user, form, address);
          return showPage(ctx, signedIn, 200, { newCodes: recoveryCodes });
        }
        case 'off':
          await app.turnOffSecondFactor.execute(user, form, address);
          return showPage(ctx, signedIn, 200, { notice: wordsIn(ctx).twoFactor.turnedOff });
        case 'add-passkey': {
          const { recoveryCodes } = await app.addPasskey.execute(user, signedIn.session, form);
          const notice = wordsIn(ctx).twoFactor.passkeyAdded;
          return showPage(ctx, signedIn, 200, { notice, ...(recoveryCodes ? { newCodes: recoveryCodes } : {}) });
        }
        case 'remove-passkey':
          await app.removePasskey.execute(user, form, address);
          return showPage(ctx, signedIn, 200, { notice: wordsIn(ctx).twoFactor.passkeyRemoved });
      }
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: PASSKEY_REGISTRATION_OPTIONS_PATH,
      summary: 'The options of a passkey’s registration (the settings’ passkey script)',
      description:
        'For a signed-in browser: the options `navigator.credentials.create` takes (WebAuthn, as JSON: this ' +
        'service as relying party, the person’s passkeys excluded), with a new challenge the session holds for ' +
        'five minutes, which the `add-passkey` form’s answer uses up. The form’s `csrf_token` is the session’s.',
      tag: 'Accounts',
      access: 'browser',
      query: z.object({ lang: Lang }),
      body: { schema: z.object({ csrf_token: Csrf }), media: ['form'] },
      ...passkeyOptionsResponses({
        400: 'The account keeps as many passkeys as it may',
        403: 'Not signed in, or the CSRF token is not this session’s',
      }),
      errors: [],
    },
    async (ctx) => {
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      const refused = { status: 403, error: accountWords(ctx).expired } as const;
      await sendPasskeyOptions(ctx, async () => {
        if (!signedIn || !browser.sessionCsrfMatches(signedIn.session, paramsOf(ctx).csrf_token)) return refused;
        return { options: await app.startPasskeyRegistration.execute(signedIn.user, signedIn.session) };
      });
    },
  );

  return router;
}

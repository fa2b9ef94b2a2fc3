import type {
  CreatePersonalToken,
  ListPersonalTokens,
  RevokePersonalToken,
} from '../../../application/tokens/personal-tokens.js';
import type { Context } from 'koa';
import type { Registration, SignUp } from '../../../application/accounts/sign-up.js';
import type { ConfirmAddress, DescribeMailLink, ResendVerification } from '../../../application/accounts/verification.js';
import type { RequestPasswordReset, ResetPassword } from '../../../application/accounts/password-reset.js';
import type { MailPreferencesOf } from '../../../application/accounts/preferences.js';
import type { ChangePassword, RequestEmailChange, UpdateProfile } from '../../../application/accounts/profile.js';
import type { DeleteOwnAccount, ExportAccount } from '../../../application/accounts/leaving.js';
import type { PasswordLogin } from '../../../application/oauth/password-login.js';
import type { OpenWebSession, ResolveWebSession, SignOut } from '../../../application/oauth/web-sessions.js';
import type {
  ConfirmTotpEnrolment,
  RegenerateRecoveryCodes,
  ShowSecondFactor,
  StartTotpEnrolment,
  TurnOffSecondFactor,
} from '../../../application/second-factors/enrolment.js';
import type { AddPasskey, RemovePasskey, StartPasskeyRegistration } from '../../../application/second-factors/passkeys.js';
import type { BeginSignIn, FinishSignIn } from '../../../application/second-factors/sign-in-step.js';
import type { UserReadModel } from '../../../application/read-models.js';
import type { Unsubscribe } from '../../../application/mail/unsubscribe.js';
import type { ListProviderLinks } from '../../../application/providers/links.js';
import type { ListProviders } from '../../../application/providers/providers.js';
import type { AccountWords } from '../../presentation/words/index.js';
import type { BrowserPages } from '../browser.js';
import { type FormPage, paramsOf } from '../forms.js';
import { frameOf, wordsIn } from '../frame.js';
import { MessagePage } from '../views/joining.js';
import { actionFor } from '../views/layout.js';
import { localeOf } from '../../presentation/locale.js';
import { type SignedIn, signedInUser } from '../sign-in.js';

/**
 * What the /account pages share (contract §16b, §16c, §17): the use cases they call, and the pages and words
 * every one of them may answer with. The rules live in the account use cases (the same the API calls).
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
  // signing in and the settings page
  resolveWebSession: ResolveWebSession;
  passwordLogin: PasswordLogin;
  beginSignIn: BeginSignIn;
  finishSignIn: FinishSignIn;
  signOut: SignOut;
  users: UserReadModel;
  updateProfile: UpdateProfile;
  requestEmailChange: RequestEmailChange;
  changePassword: ChangePassword;
  mailPreferences: MailPreferencesOf;
  deleteOwnAccount: DeleteOwnAccount;
  exportAccount: ExportAccount;
  createPersonalToken: CreatePersonalToken;
  listPersonalTokens: ListPersonalTokens;
  revokePersonalToken: RevokePersonalToken;
  // two-factor sign-in (contract §25)
  showSecondFactor: ShowSecondFactor;
  startTotpEnrolment: StartTotpEnrolment;
  confirmTotpEnrolment: ConfirmTotpEnrolment;
  turnOffSecondFactor: TurnOffSecondFactor;
  regenerateRecoveryCodes: RegenerateRecoveryCodes;
  startPasskeyRegistration: StartPasskeyRegistration;
  addPasskey: AddPasskey;
  removePasskey: RemovePasskey;
  // the unsubscribe link of notification mail and digests
  unsubscribe: Unsubscribe;
  // signing in with other providers (contract §25): their buttons, and the settings' links
  listProviders: ListProviders;
  providerLinks: ListProviderLinks;
}
export const AccountPageUseCases = Symbol.for('AccountPageUseCases');

/** The /account pages' words in the reader's language. */
export const accountWords = (ctx: Context): AccountWords => wordsIn(ctx).account;

/** A form refused before it is read: not sent from our page, or too old (its CSRF token does not match). */
export function expiredForm(ctx: Context, browser: BrowserPages): void {
  const t = accountWords(ctx);
  browser.show(ctx, 403, <MessagePage frame={frameOf(ctx)} title={(t) => t.expiredTitle} message={t.expired} />);
}

/** Sends a browser that is not signed in to the sign-in page (303), in the reader's language. */
export const toSignIn = (ctx: Context, browser: BrowserPages): void =>
  browser.seeOther(ctx, actionFor('/account/sign-in', localeOf(ctx)));

/**
 * A signed-in page's form that names which of the page's forms it is (`form`): its session, its CSRF token checked,
 * and the form named. Else the answer is given here (to sign in; the expired-form page) and null returned.
 */
export async function signedInForm<F>(
  ctx: Context,
  browser: BrowserPages,
  resolve: ResolveWebSession,
  forms: { safeParse(value: unknown): { success: true; data: F } | { success: false } },
): Promise<{ signedIn: SignedIn; which: F } | null> {
  const params = paramsOf(ctx);
  const signedIn = await signedInUser(ctx, resolve);
  if (!signedIn) return (toSignIn(ctx, browser), null);
  const which = browser.sessionCsrfMatches(signedIn.session, params.csrf_token) ? forms.safeParse(params.form) : null;
  if (!which?.success) return (expiredForm(ctx, browser), null);
  return { signedIn, which: which.data };
}

/** A form that carried more than a form may (post-image.ts): refused before it is read, with nothing kept. */
export function tooLargeForm(ctx: Context, browser: BrowserPages): void {
  const t = accountWords(ctx);
  browser.show(ctx, 413, <MessagePage frame={frameOf(ctx)} title={(t) => t.tooLargeTitle} message={t.tooLarge} />);
}

/** An /account page's form: refused in the reader's language, shown again by `again`. */
export function accountForm(ctx: Context, again: FormPage['again'], extra: Omit<FormPage, 'words' | 'again'> = {}): FormPage {
  return { words: accountWords(ctx), again, ...extra };
}

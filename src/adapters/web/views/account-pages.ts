import type { Registration } from '../../../application/accounts/sign-up.js';
import type { Locale } from '../../../domain/users/user.js';
import { ACCOUNT_STRINGS, type AccountStrings } from './account-strings.js';
import { html, type SafeHtml } from './html.js';
import { page, loginField } from './page.js';

/**
 * The pages of joining (contract §16b): sign up, confirm an address, forgot and reset a password. Plain HTML
 * forms that work with JavaScript off, in the service's page chrome, in the reader's language.
 */

/** The language a page is written in, and where it is (for the links to the same page in another language). */
export interface Frame {
  locale: Locale;
  /**
   * The page's path and query, without `lang`, for the link to it in the other language; none for the answer to
   * a form (following a link would not send the form again).
   */
  here?: string;
}

const LOCALES: Locale[] = ['en', 'zh-CN'];

/** A form's target: the language goes along, so that the answer is in the language of the page that sent it. */
export function actionFor(path: string, locale: Locale): string {
  return `${path}?lang=${encodeURIComponent(locale)}`;
}

export function withLang(here: string, locale: Locale): string {
  return `${here}${here.includes('?') ? '&' : '?'}lang=${encodeURIComponent(locale)}`;
}

export function accountPage(frame: Frame, title: (t: AccountStrings) => string, body: (t: AccountStrings) => SafeHtml): string {
  const t = ACCOUNT_STRINGS[frame.locale];
  const others = LOCALES.filter((locale) => locale !== frame.locale);
  const here = frame.here;
  return page(
    title(t),
    html`${body(t)}
    ${
      here
        ? html`<nav class="languages muted">
            ${others.map(
              (locale) => html`<a href="${withLang(here, locale)}" lang="${locale}">${ACCOUNT_STRINGS[locale].languageName}</a>`,
            )}
          </nav>`
        : ''
    }`,
    frame.locale,
  );
}

export const alert = (message: string | undefined) => (message ? html`<p class="alert" role="alert">${message}</p>` : '');
export const csrfField = (csrf: string) => html`<input type="hidden" name="csrf_token" value="${csrf}" />`;

/** What a person typed into the sign-up form (never the password), shown again with an error. */
export interface SignUpValues {
  login?: string;
  email?: string;
  name?: string;
  invite?: string;
}

export function signUpPage(input: {
  frame: Frame;
  csrf: string;
  registration: Registration;
  values: SignUpValues;
  /** The authorization request the person came from (its query), to return to once verified. */
  authorize?: string;
  error?: string;
}): string {
  const { values } = input;
  return accountPage(
    input.frame,
    (t) => t.signUpTitle,
    (t) =>
      html`<h1>${t.signUpTitle}</h1>
        ${alert(input.error)}
        <p>${t.signUpIntro}</p>
        <form method="post" action="${actionFor('/account/sign-up', input.frame.locale)}">
          ${csrfField(input.csrf)}
          ${input.authorize ? html`<input type="hidden" name="authorize" value="${input.authorize}" />` : ''}
          ${loginField(t.login, values.login, html`maxlength="20" aria-describedby="login-hint"`)}
          <p class="hint" id="login-hint">${t.loginHint}</p>
          <label for="email">${t.email}</label>
          <input
            type="email"
            id="email"
            name="email"
            value="${values.email ?? ''}"
            autocomplete="email"
            aria-describedby="email-hint"
            required
          />
          <p class="hint" id="email-hint">${t.emailHint}</p>
          <label for="password">${t.password}</label>
          <input
            type="password"
            id="password"
            name="password"
            autocomplete="new-password"
            minlength="8"
            maxlength="128"
            aria-describedby="password-hint"
            required
          />
          <p class="hint" id="password-hint">${t.passwordHint}</p>
          <label for="name">${t.name} <small>${t.optional}</small></label>
          <input type="text" id="name" name="name" value="${values.name ?? ''}" autocomplete="name" maxlength="50" />
          ${
            input.registration === 'invite'
              ? html`<label for="invite">${t.invite}</label>
                  <input
                    type="text"
                    id="invite"
                    name="invite"
                    value="${values.invite ?? ''}"
                    autocapitalize="none"
                    spellcheck="false"
                    aria-describedby="invite-hint"
                    required
                  />
                  <p class="hint" id="invite-hint">${t.inviteHint}</p>`
              : ''
          }
          <div class="trap" aria-hidden="true">
            <label for="website">${t.trapLabel}</label>
            <input type="text" id="website" name="website" value="" tabindex="-1" autocomplete="off" />
          </div>
          <button type="submit">${t.signUpButton}</button>
        </form>
        ${
          input.authorize
            ? html`<p class="muted">${t.haveAccount} <a href="/oauth/authorize?${input.authorize}">${t.signInLink}</a></p>`
            : ''
        }`,
  );
}

/** The form that has the verification mail sent again (to the account of this login or address). */
function resendForm(frame: Frame, t: AccountStrings, csrf: string, login?: string): SafeHtml {
  return html`<form method="post" action="${actionFor('/account/verification', frame.locale)}">
    ${csrfField(csrf)}
    ${
      login
        ? html`<input type="hidden" name="login" value="${login}" />
            <button type="submit" class="secondary">${t.resendButton}</button>`
        : html`<label for="resend-login">${t.resendLogin}</label>
            <input
              type="text"
              id="resend-login"
              name="login"
              autocomplete="username"
              autocapitalize="none"
              spellcheck="false"
              required
            />
            <button type="submit" class="secondary">${t.resendButton}</button>`
    }
  </form>`;
}

export function checkMailPage(input: { frame: Frame; csrf: string; email: string }): string {
  return accountPage(
    input.frame,
    (t) => t.checkMailTitle,
    (t) =>
      html`<h1>${t.checkMailTitle}</h1>
        <p class="notice" role="status">${t.checkMail(input.email)}</p>
        <p class="muted">${t.checkMailHint}</p>
        ${resendForm(input.frame, t, input.csrf, input.email)}`,
  );
}

export function resentPage(input: { frame: Frame }): string {
  return accountPage(
    input.frame,
    (t) => t.resentTitle,
    (t) =>
      html`<h1>${t.resentTitle}</h1>
        <p class="notice" role="status">${t.resent}</p>
        <p class="muted">${t.checkMailHint}</p>`,
  );
}

export function confirmPage(input: { frame: Frame; csrf: string; token: string; login: string }): string {
  return accountPage(
    input.frame,
    (t) => t.confirmTitle,
    (t) =>
      html`<h1>${t.confirmTitle}</h1>
        <p>${t.confirmFor(input.login)}</p>
        <form method="post" action="${actionFor('/account/verify', input.frame.locale)}">
          ${csrfField(input.csrf)}<input type="hidden" name="token" value="${input.token}" />
          <button type="submit">${t.confirmButton}</button>
        </form>`,
  );
}

export function confirmedPage(input: {
  frame: Frame;
  login: string;
  state: 'active' | 'pending' | 'unverified';
  /** An address change: the address now in use. */
  email: string | null;
  continueTo?: string;
}): string {
  return accountPage(
    input.frame,
    (t) => (input.email ? t.emailChangedTitle : t.confirmedTitle),
    (t) =>
      html`<h1>${input.email ? t.emailChangedTitle : t.confirmedTitle}</h1>
        <p class="notice" role="status">
          ${
            input.email
              ? t.emailChanged(input.email)
              : input.state === 'active'
                ? t.confirmedActive(input.login)
                : t.confirmedPending(input.login)
          }
        </p>
        ${
          input.continueTo
            ? html`<p><a href="${input.continueTo}">${t.continueToApp}</a></p>`
            : input.state === 'active'
              ? html`<p><a href="${withLang('/account/settings', input.frame.locale)}">${t.settingsLink}</a></p>
                  <p class="muted">${t.closePage}</p>`
              : ''
        }`,
  );
}

export function badLinkPage(input: { frame: Frame; csrf: string; error?: string }): string {
  return accountPage(
    input.frame,
    (t) => t.badLinkTitle,
    (t) =>
      html`<h1>${t.badLinkTitle}</h1>
        <p class="alert" role="alert">${input.error ?? t.badLink}</p>
        <p>${t.badLinkResend}</p>
        ${resendForm(input.frame, t, input.csrf)}`,
  );
}

export function forgotPage(input: { frame: Frame; csrf: string; login?: string; authorize?: string; error?: string }): string {
  return accountPage(
    input.frame,
    (t) => t.forgotTitle,
    (t) =>
      html`<h1>${t.forgotTitle}</h1>
        ${alert(input.error)}
        <p>${t.forgotIntro}</p>
        <form method="post" action="${actionFor('/account/password/forgot', input.frame.locale)}">
          ${csrfField(input.csrf)}
          ${input.authorize ? html`<input type="hidden" name="authorize" value="${input.authorize}" />` : ''}
          ${loginField(t.loginOrEmail, input.login)}
          <button type="submit">${t.forgotButton}</button>
        </form>`,
  );
}

export function forgotSentPage(input: { frame: Frame }): string {
  return accountPage(
    input.frame,
    (t) => t.forgotSentTitle,
    (t) =>
      html`<h1>${t.forgotSentTitle}</h1>
        <p class="notice" role="status">${t.forgotSent}</p>`,
  );
}

export function resetPage(input: { frame: Frame; csrf: string; token: string; login: string; error?: string }): string {
  return accountPage(
    input.frame,
    (t) => t.resetTitle,
    (t) =>
      html`<h1>${t.resetTitle}</h1>
        ${alert(input.error)}
        <p>${t.resetFor(input.login)}</p>
        <form method="post" action="${actionFor('/account/password/reset', input.frame.locale)}">
          ${csrfField(input.csrf)}<input type="hidden" name="token" value="${input.token}" />
          <input type="hidden" name="login" value="${input.login}" autocomplete="username" />
          <label for="password">${t.newPassword}</label>
          <input
            type="password"
            id="password"
            name="password"
            autocomplete="new-password"
            minlength="8"
            maxlength="128"
            aria-describedby="password-hint"
            required
            autofocus
          />
          <p class="hint" id="password-hint">${t.passwordHint}</p>
          <label for="password_confirmation">${t.repeatPassword}</label>
          <input
            type="password"
            id="password_confirmation"
            name="password_confirmation"
            autocomplete="new-password"
            maxlength="128"
            required
          />
          <button type="submit">${t.resetButton}</button>
        </form>`,
  );
}

export function resetDonePage(input: { frame: Frame; login: string | null; continueTo?: string }): string {
  return accountPage(
    input.frame,
    (t) => t.resetDoneTitle,
    (t) =>
      html`<h1>${t.resetDoneTitle}</h1>
        <p class="notice" role="status">${input.login ? t.resetDone(input.login) : t.resetDonePending}</p>
        ${
          input.continueTo
            ? html`<p><a href="${input.continueTo}">${t.continueToApp}</a></p>`
            : input.login
              ? html`<p><a href="${withLang('/account/settings', input.frame.locale)}">${t.settingsLink}</a></p>
                  <p class="muted">${t.closePage}</p>`
              : ''
        }`,
  );
}

export function badResetLinkPage(input: { frame: Frame }): string {
  return accountPage(
    input.frame,
    (t) => t.badLinkTitle,
    (t) =>
      html`<h1>${t.badLinkTitle}</h1>
        <p class="alert" role="alert">${t.badResetLink}</p>
        <p><a href="${withLang('/account/password/forgot', input.frame.locale)}">${t.newResetLink}</a></p>`,
  );
}

/** A page that only says something: sign-up closed, a form expired, too many attempts. */
export function messagePage(input: {
  frame: Frame;
  title: (t: AccountStrings) => string;
  message: (t: AccountStrings) => string;
}): string {
  return accountPage(
    input.frame,
    input.title,
    (t) =>
      html`<h1>${input.title(t)}</h1>
        <p class="alert" role="alert">${input.message(t)}</p>`,
  );
}

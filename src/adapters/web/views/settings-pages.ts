import { EMAIL_DIGESTS, EMAIL_NOTIFICATIONS, LOCALES, type MailPreferences } from '../../../domain/users/user.js';
import { ACCOUNT_STRINGS } from './account-strings.js';
import { type Frame, accountPage, actionFor, alert, csrfField, withLang } from './account-pages.js';
import { loginField } from './page.js';
import { html } from './html.js';

/**
 * The settings page of a signed-in person (contract §16b, §16c, §17), and the account pages' own sign-in: one
 * page of separate forms, each posting on its own (a hidden `form` says which), each answered by the page again
 * with that form's outcome beside it.
 */

export const SETTINGS_FORMS = ['profile', 'email', 'password', 'preferences', 'delete'] as const;
export type SettingsForm = (typeof SETTINGS_FORMS)[number];

/** The profile as the form shows it (what is saved, or what was typed when it was refused). */
export interface ProfileValues {
  name: string;
  location: string;
  company: string;
  twitter: string;
  github: string;
  website: string;
  tagline: string;
  bio: string;
  emailPublic: boolean;
}

export interface SettingsInput {
  frame: Frame;
  csrf: string;
  login: string;
  email: string;
  profile: ProfileValues;
  preferences: MailPreferences;
  /** The form just sent: what became of it. */
  outcome?: { form: SettingsForm; error?: string; notice?: string };
  /** The new address typed into the e-mail form, when it was refused. */
  newEmail?: string;
}

const notice = (message: string | undefined) => (message ? html`<p class="notice" role="status">${message}</p>` : '');

export function settingsPage(input: SettingsInput): string {
  const { frame, profile, preferences } = input;
  const action = actionFor('/account/settings', frame.locale);
  const said = (form: SettingsForm) =>
    input.outcome?.form === form ? html`${alert(input.outcome.error)}${notice(input.outcome.notice)}` : '';
  const which = (form: SettingsForm) => html`${csrfField(input.csrf)}<input type="hidden" name="form" value="${form}" />`;
  const text = (id: keyof ProfileValues & string, label: string, value: string, max: number, type = 'text') =>
    html`<label for="${id}">${label}</label>
      <input type="${type}" id="${id}" name="${id}" value="${value}" maxlength="${max}" />`;
  const choices = <V extends string>(id: string, label: string, values: readonly V[], chosen: V, names: (v: V) => string) =>
    html`<label for="${id}">${label}</label>
      <select id="${id}" name="${id}">
        ${values.map((value) => html`<option value="${value}" ${value === chosen ? html`selected` : ''}>${names(value)}</option>`)}
      </select>`;
  return accountPage(
    frame,
    (t) => t.settingsTitle,
    (t) =>
      html`<h1>${t.settingsTitle}</h1>
        <form method="post" action="${actionFor('/account/sign-out', frame.locale)}">
          ${csrfField(input.csrf)}
          <p class="muted">${t.signedInAs(input.login)} <button type="submit" class="link">${t.signOutButton}</button></p>
        </form>

        <h2 id="profile">${t.profileTitle}</h2>
        ${said('profile')}
        <form method="post" action="${action}#profile">
          ${which('profile')} ${text('name', t.name, profile.name, 50)} ${text('location', t.location, profile.location, 100)}
          ${text('company', t.company, profile.company, 100)} ${text('twitter', t.twitter, profile.twitter, 100)}
          ${text('github', t.github, profile.github, 100)} ${text('website', t.website, profile.website, 255, 'url')}
          ${text('tagline', t.tagline, profile.tagline, 100)}
          <label for="bio">${t.bio}</label>
          <textarea id="bio" name="bio" maxlength="2000" rows="4">${profile.bio}</textarea>
          <label class="check">
            <input type="checkbox" name="email_public" value="true" ${profile.emailPublic ? html`checked` : ''} />
            <span>${t.emailPublic}</span>
          </label>
          <button type="submit">${t.saveProfile}</button>
        </form>

        <h2 id="email">${t.emailTitle}</h2>
        <p class="muted">${t.emailNow(input.email)}</p>
        ${said('email')}
        <form method="post" action="${action}#email">
          ${which('email')}
          <label for="new-email">${t.newEmail}</label>
          <input type="email" id="new-email" name="email" value="${input.newEmail ?? ''}" autocomplete="email" required />
          <label for="email-password">${t.currentPassword}</label>
          <input type="password" id="email-password" name="current_password" autocomplete="current-password" required />
          <button type="submit">${t.changeEmailButton}</button>
        </form>

        <h2 id="password">${t.passwordTitle}</h2>
        ${said('password')}
        <form method="post" action="${action}#password">
          ${which('password')}
          <input type="hidden" name="login" value="${input.login}" autocomplete="username" />
          <label for="current-password">${t.currentPassword}</label>
          <input type="password" id="current-password" name="current_password" autocomplete="current-password" required />
          <label for="new-password">${t.newPassword}</label>
          <input
            type="password"
            id="new-password"
            name="password"
            autocomplete="new-password"
            minlength="8"
            maxlength="128"
            aria-describedby="new-password-hint"
            required
          />
          <p class="hint" id="new-password-hint">${t.passwordHint}</p>
          <label for="password-again">${t.repeatPassword}</label>
          <input
            type="password"
            id="password-again"
            name="password_confirmation"
            autocomplete="new-password"
            maxlength="128"
            required
          />
          <button type="submit">${t.changePasswordButton}</button>
        </form>

        <h2 id="preferences">${t.preferencesTitle}</h2>
        ${said('preferences')}
        <form method="post" action="${action}#preferences">
          ${which('preferences')}
          ${choices(
            'email_notifications',
            t.notificationsLabel,
            EMAIL_NOTIFICATIONS,
            preferences.emailNotifications,
            (v) => t.notificationChoices[v],
          )}
          ${choices('email_digest', t.digestLabel, EMAIL_DIGESTS, preferences.emailDigest, (v) => t.digestChoices[v])}
          ${choices('locale', t.mailLanguage, LOCALES, preferences.locale, (v) => ACCOUNT_STRINGS[v].languageName)}
          <button type="submit">${t.savePreferences}</button>
        </form>

        <h2 id="export">${t.exportTitle}</h2>
        <p class="muted">${t.exportIntro}</p>
        <p><a href="/account/settings/export">${t.exportLink}</a></p>

        <h2 id="delete">${t.deleteTitle}</h2>
        <p class="muted">${t.deleteIntro}</p>
        ${said('delete')}
        <form method="post" action="${action}#delete">
          ${which('delete')}
          <label for="delete-password">${t.password}</label>
          <input type="password" id="delete-password" name="password" autocomplete="current-password" required />
          <label class="check">
            <input type="checkbox" name="confirm" value="yes" required />
            <span>${t.deleteConfirm}</span>
          </label>
          <button type="submit" class="danger">${t.deleteButton}</button>
        </form>`,
  );
}

/** The account pages' sign-in: for the settings page (it returns there). */
export function signInPage(input: {
  frame: Frame;
  csrf: string;
  login?: string;
  error?: string;
  /** The right password for an account whose address is not confirmed: offer to send the mail again. */
  unverified?: boolean;
}): string {
  const { frame } = input;
  return accountPage(
    frame,
    (t) => t.signInTitle,
    (t) =>
      html`<h1>${t.signInTitle}</h1>
        ${alert(input.error)}
        <p>${t.signInIntro}</p>
        <form method="post" action="${actionFor('/account/sign-in', frame.locale)}">
          ${csrfField(input.csrf)} ${loginField(t.loginOrEmail, input.login)}
          <label for="password">${t.password}</label>
          <input type="password" id="password" name="password" autocomplete="current-password" required />
          <button type="submit">${t.signInButton}</button>
        </form>
        ${
          input.unverified
            ? html`<form method="post" action="${actionFor('/account/verification', frame.locale)}">
                ${csrfField(input.csrf)}<input type="hidden" name="login" value="${input.login ?? ''}" />
                <button type="submit" class="secondary">${t.resendButton}</button>
              </form>`
            : ''
        }
        <p class="muted">
          <a href="${withLang('/account/password/forgot', frame.locale)}">${t.forgotLink}</a> ·
          <a href="${withLang('/account/sign-up', frame.locale)}">${t.signUpLink}</a>
        </p>`,
  );
}

/** After the account is deleted, or the browser signed out: no form, a way to sign in again. */
export function farewellPage(input: { frame: Frame; deleted: boolean }): string {
  return accountPage(
    input.frame,
    (t) => (input.deleted ? t.goodbyeTitle : t.signedOutTitle),
    (t) =>
      html`<h1>${input.deleted ? t.goodbyeTitle : t.signedOutTitle}</h1>
        <p class="notice" role="status">${input.deleted ? t.goodbye : t.signedOut}</p>
        ${input.deleted ? '' : html`<p><a href="${withLang('/account/sign-in', input.frame.locale)}">${t.signInTitle}</a></p>`}`,
  );
}

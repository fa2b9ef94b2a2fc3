import { EMAIL_DIGESTS, EMAIL_MESSAGES, EMAIL_NOTIFICATIONS, LOCALES, type MailPreferences } from '../../../domain/users/user.js';
import type { PersonalToken } from '../../../application/tokens/personal-tokens.js';
import { WORDS, wordsOf } from '../../presentation/words/index.js';
import { ResendForm } from './joining.js';
import { type ProviderButton, ProviderButtons, ProviderLinksSection, type ProviderLinksValues } from './providers.js';
import { TWO_FACTOR_PATH } from './two-factor.js';
import {
  Alert,
  CsrfField,
  type Frame,
  LocalizedPage,
  LoginField,
  NewPasswordFields,
  Notice,
  actionFor,
  withLang,
} from './layout.js';

/**
 * The settings page of a signed-in person (contract §16b, §16c, §17), and the account pages' own sign-in: one
 * page of separate forms, each posting on its own (a hidden `form` says which), each answered by the page again
 * with that form's outcome beside it.
 */

export const SETTINGS_FORMS = [
  'profile',
  'email',
  'password',
  'set_password',
  'preferences',
  'token',
  'revoke_token',
  'delete',
] as const;
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
  newEmail?: string | undefined;
  /** The account's links to sign-in providers (contract §25), and what became of the last change to them. */
  providerLinks?: { values: ProviderLinksValues; error?: string | undefined; notice?: string | undefined } | undefined;
  /** The person's live tokens for scripts (contract §25). */
  tokens: PersonalToken[];
  /** The token just made: shown this once. */
  newToken?: { name: string; token: string } | undefined;
  /** The name typed into the token form, when it was refused. */
  tokenName?: string | undefined;
  /** Whether two-factor sign-in is on (its own page manages it). */
  twoFactorOn: boolean;
  /**
   * Whether a password opens the account (`User#hasPassword`). One made by another provider (contract §25) has none:
   * its password section mails a link that sets one, its e-mail section waits for that, and it leaves by its login.
   */
  hasPassword: boolean;
}

/** The lifetimes the token form offers, in days; null: never. */
const TOKEN_LIFETIMES = [7, 30, 90, 365, null] as const;

/** The settings page's tokens for scripts: the new one (this once), the live ones with their revoke buttons, the form. */
function PersonalTokens(
  props: SettingsInput & { said: (form: SettingsForm) => unknown; which: (form: SettingsForm) => unknown },
) {
  const { frame } = props;
  const t = wordsOf(frame.locale).personalTokens;
  const at = (when: Date | null) => (when === null ? null : wordsOf(frame.locale).forum.at(when));
  const action = actionFor('/account/settings', frame.locale);
  return (
    <>
      <h2 id="tokens">{t.title}</h2>
      <p class="muted">{t.intro}</p>
      {/* The new token first, where the page opens (#tokens): it is not shown again. */}
      {props.said('token')}
      {props.newToken ? (
        <div class="scope">
          {/* Named as the token rows below are (a label's top margin would pad the box's top twice). */}
          <strong id="new-token-name">{t.newToken}</strong>
          <input
            type="text"
            id="new-token"
            value={props.newToken.token}
            readonly
            aria-labelledby="new-token-name"
            aria-describedby="new-token-note"
          />
          <p class="hint" id="new-token-note">
            {t.copyNow}
          </p>
        </div>
      ) : null}
      {props.said('revoke_token')}
      {props.tokens.length === 0 ? <p class="muted">{t.none}</p> : null}
      {props.tokens.map((token) => (
        <form method="post" action={`${action}#tokens`} class="scope">
          {props.which('revoke_token')}
          <input type="hidden" name="token_id" value={String(token.id)} />
          <strong>{token.name}</strong>
          <span class="muted">
            {t.scopeChoices[token.scope]} · {t.madeAt(at(token.createdAt)!)} · {t.lastUsedAt(at(token.lastUsedAt))} ·{' '}
            {t.expiresAt(at(token.expiresAt))}
          </span>
          <button type="submit" class="secondary">
            {t.revokeButton(token.name)}
          </button>
        </form>
      ))}
      <form method="post" action={`${action}#tokens`}>
        {props.which('token')}
        <label for="token-name">{t.name}</label>
        <input
          type="text"
          id="token-name"
          name="token_name"
          value={props.tokenName ?? ''}
          maxlength={100}
          required
          aria-describedby="token-name-hint"
        />
        <p class="hint" id="token-name-hint">
          {t.nameHint}
        </p>
        <label for="token-scope">{t.scope}</label>
        <select id="token-scope" name="scope">
          <option value="read" selected>
            {t.scopeChoices.read}
          </option>
          <option value="all">{t.scopeChoices.all}</option>
        </select>
        <label for="token-expires">{t.expires}</label>
        <select id="token-expires" name="expires_in_days">
          {TOKEN_LIFETIMES.map((days) => (
            <option value={days === null ? 'none' : String(days)} selected={days === 90}>
              {t.expiryChoice(days)}
            </option>
          ))}
        </select>
        <button type="submit">{t.createButton}</button>
      </form>
    </>
  );
}

/** A one-line field of the profile form. */
function TextField(props: { id: keyof ProfileValues & string; label: string; value: string; max: number; url?: boolean }) {
  const { id, value, max } = props;
  return (
    <>
      <label for={id}>{props.label}</label>
      {props.url ? (
        <input type="url" id={id} name={id} value={value} maxlength={max} />
      ) : (
        <input type="text" id={id} name={id} value={value} maxlength={max} />
      )}
    </>
  );
}

/** A choice among a few values, by their names. */
function Choices<V extends string>(props: {
  id: string;
  label: string;
  values: readonly V[];
  chosen: V;
  names: (value: V) => string;
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <select id={props.id} name={props.id}>
        {props.values.map((value) => (
          <option value={value} selected={value === props.chosen}>
            {props.names(value)}
          </option>
        ))}
      </select>
    </>
  );
}

export function SettingsPage(props: SettingsInput) {
  const { frame, profile, preferences } = props;
  const t = wordsOf(frame.locale).account;
  const tf = wordsOf(frame.locale).twoFactor;
  const action = actionFor('/account/settings', frame.locale);
  const Said = ({ form }: { form: SettingsForm }) =>
    props.outcome?.form === form ? (
      <>
        <Alert message={props.outcome.error} />
        <Notice message={props.outcome.notice} />
      </>
    ) : null;
  const Which = ({ form }: { form: SettingsForm }) => (
    <>
      <CsrfField csrf={props.csrf} />
      <input type="hidden" name="form" value={form} />
    </>
  );
  return (
    <LocalizedPage frame={frame} title={t.settingsTitle}>
      <h1>{t.settingsTitle}</h1>
      <form method="post" action={actionFor('/account/sign-out', frame.locale)}>
        <CsrfField csrf={props.csrf} />
        <p class="muted">
          {t.signedInAs(props.login)}{' '}
          <button type="submit" class="link">
            {t.signOutButton}
          </button>
        </p>
      </form>

      <h2 id="profile">{t.profileTitle}</h2>
      <Said form="profile" />
      <form method="post" action={`${action}#profile`}>
        <Which form="profile" />
        <TextField id="name" label={t.name} value={profile.name} max={50} />
        <TextField id="location" label={t.location} value={profile.location} max={100} />
        <TextField id="company" label={t.company} value={profile.company} max={100} />
        <TextField id="twitter" label={t.twitter} value={profile.twitter} max={100} />
        <TextField id="github" label={t.github} value={profile.github} max={100} />
        <TextField id="website" label={t.website} value={profile.website} max={255} url />
        <TextField id="tagline" label={t.tagline} value={profile.tagline} max={100} />
        <label for="bio">{t.bio}</label>
        <textarea id="bio" name="bio" maxlength={2000} rows={4}>
          {profile.bio}
        </textarea>
        <label class="check">
          <input type="checkbox" name="email_public" value="true" checked={profile.emailPublic} />
          <span>{t.emailPublic}</span>
        </label>
        <button type="submit">{t.saveProfile}</button>
      </form>

      <h2 id="email">{t.emailTitle}</h2>
      <p class="muted">{t.emailNow(props.email)}</p>
      <Said form="email" />
      {props.hasPassword ? (
        <form method="post" action={`${action}#email`}>
          <Which form="email" />
          <label for="new-email">{t.newEmail}</label>
          <input type="email" id="new-email" name="email" value={props.newEmail ?? ''} autocomplete="email" required />
          <label for="email-password">{t.currentPassword}</label>
          <input type="password" id="email-password" name="current_password" autocomplete="current-password" required />
          <button type="submit">{t.changeEmailButton}</button>
        </form>
      ) : (
        // A new address is confirmed with the password, which this account has yet to set.
        <p>
          {t.emailNeedsPassword} <a href="#password">{t.setPasswordFirst}</a>
        </p>
      )}

      <h2 id="password">{t.passwordTitle}</h2>
      <Said form="password" />
      <Said form="set_password" />
      {props.hasPassword ? (
        <form method="post" action={`${action}#password`}>
          <Which form="password" />
          <input type="hidden" name="login" value={props.login} autocomplete="username" />
          <label for="current-password">{t.currentPassword}</label>
          <input type="password" id="current-password" name="current_password" autocomplete="current-password" required />
          <NewPasswordFields
            label={t.newPassword}
            hint={t.passwordHint}
            ids={{ password: 'new-password', repeat: 'password-again' }}
            repeat={t.repeatPassword}
          />
          <button type="submit">{t.changePasswordButton}</button>
        </form>
      ) : (
        // No current password to give: the forgot-password mail's link to the confirmed address sets the first one.
        <form method="post" action={`${action}#password`}>
          <Which form="set_password" />
          <p class="muted">{t.noPasswordIntro(props.email)}</p>
          <button type="submit">{t.setPasswordButton}</button>
        </form>
      )}

      {/* How one signs in and what acts for one, together after the password: a second factor, other providers,
          tokens for scripts. */}
      <h2 id="two-factor">{tf.title}</h2>
      <p class="muted">{props.twoFactorOn ? tf.statusOn : tf.statusOff}</p>
      <p>
        <a href={withLang(TWO_FACTOR_PATH, frame.locale)}>{tf.manageLink}</a>
      </p>

      {props.providerLinks ? (
        <ProviderLinksSection
          frame={frame}
          csrf={props.csrf}
          values={props.providerLinks.values}
          error={props.providerLinks.error}
          notice={props.providerLinks.notice}
        />
      ) : null}
      <PersonalTokens {...props} said={(form) => <Said form={form} />} which={(form) => <Which form={form} />} />

      <h2 id="preferences">{t.preferencesTitle}</h2>
      <Said form="preferences" />
      <form method="post" action={`${action}#preferences`}>
        <Which form="preferences" />
        <Choices
          id="email_notifications"
          label={t.notificationsLabel}
          values={EMAIL_NOTIFICATIONS}
          chosen={preferences.emailNotifications}
          names={(value) => t.notificationChoices[value]}
        />
        <Choices
          id="email_digest"
          label={t.digestLabel}
          values={EMAIL_DIGESTS}
          chosen={preferences.emailDigest}
          names={(value) => t.digestChoices[value]}
        />
        <Choices
          id="email_messages"
          label={t.messagesLabel}
          values={EMAIL_MESSAGES}
          chosen={preferences.emailMessages}
          names={(value) => t.messagesChoices[value]}
        />
        <Choices
          id="locale"
          label={t.mailLanguage}
          values={LOCALES}
          chosen={preferences.locale}
          names={(value) => WORDS[value].languageName}
        />
        <button type="submit">{t.savePreferences}</button>
      </form>

      <h2 id="export">{t.exportTitle}</h2>
      <p class="muted">{t.exportIntro}</p>
      <p>
        <a href="/account/settings/export">{t.exportLink}</a>
      </p>

      <h2 id="delete">{t.deleteTitle}</h2>
      <p class="muted">{t.deleteIntro}</p>
      <Said form="delete" />
      <form method="post" action={`${action}#delete`}>
        <Which form="delete" />
        {props.hasPassword ? (
          <>
            <label for="delete-password">{t.password}</label>
            <input type="password" id="delete-password" name="password" autocomplete="current-password" required />
          </>
        ) : (
          // No password to give: the login, typed out, as GitHub asks for the name of what is deleted.
          <>
            <label for="delete-login">{t.deleteLoginLabel(props.login)}</label>
            <input
              type="text"
              id="delete-login"
              name="login"
              autocomplete="off"
              autocapitalize="none"
              spellcheck={false}
              aria-describedby="delete-login-hint"
              required
            />
            <p class="hint" id="delete-login-hint">
              {t.deleteLoginHint}
            </p>
          </>
        )}
        <label class="check">
          <input type="checkbox" name="confirm" value="yes" required />
          <span>{t.deleteConfirm}</span>
        </label>
        <button type="submit" class="danger">
          {t.deleteButton}
        </button>
      </form>
    </LocalizedPage>
  );
}

/** The account pages' sign-in: for the settings page (it returns there). */
export function SignInPage(props: {
  frame: Frame;
  csrf: string;
  login?: string | undefined;
  error?: string | undefined;
  /** The right password for an account whose address is not confirmed: offer to send the mail again. */
  unverified?: boolean | undefined;
  /** The sign-in providers configured (contract §25): their buttons. */
  providers?: readonly ProviderButton[] | undefined;
}) {
  const { frame } = props;
  const t = wordsOf(frame.locale).account;
  return (
    <LocalizedPage frame={frame} title={t.signInTitle}>
      <h1>{t.signInTitle}</h1>
      <Alert message={props.error} />
      <p>{t.signInIntro}</p>
      <form method="post" action={actionFor('/account/sign-in', frame.locale)}>
        <CsrfField csrf={props.csrf} />
        <LoginField label={t.loginOrEmail} value={props.login} />
        <label for="password">{t.password}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <button type="submit">{t.signInButton}</button>
      </form>
      {props.unverified ? <ResendForm frame={frame} csrf={props.csrf} login={props.login ?? ''} /> : null}
      <ProviderButtons locale={frame.locale} providers={props.providers ?? []} />
      <p class="muted">
        <a href={withLang('/account/password/forgot', frame.locale)}>{t.forgotLink}</a> ·{' '}
        <a href={withLang('/account/sign-up', frame.locale)}>{t.signUpLink}</a>
      </p>
    </LocalizedPage>
  );
}

/** After the account is deleted, or the browser signed out: no form, a way to sign in again. */
export function FarewellPage(props: { frame: Frame; deleted: boolean }) {
  const t = wordsOf(props.frame.locale).account;
  const title = props.deleted ? t.goodbyeTitle : t.signedOutTitle;
  return (
    <LocalizedPage frame={props.frame} title={title}>
      <h1>{title}</h1>
      <Notice message={props.deleted ? t.goodbye : t.signedOut} />
      {props.deleted ? null : (
        <p>
          <a href={withLang('/account/sign-in', props.frame.locale)}>{t.signInTitle}</a>
        </p>
      )}
    </LocalizedPage>
  );
}

import type { ComponentChildren, VNode } from 'preact';
import type { PasskeySummary } from '../../../domain/users/passkey.js';
import { wordsOf } from '../../presentation/words/index.js';
import { Alert, CsrfField, type Frame, LocalizedPage, Notice, actionFor, withLang } from './layout.js';
import { PasskeyScripts } from './passkey-script.js';

/**
 * Two-factor sign-in's pages (contract §25): the sign-in step that asks for the code or a passkey (after the
 * password, on both sign-in pages), and the settings of a signed-in person: set up an authenticator (a QR code, and
 * its key as text), add and remove passkeys, the recovery codes shown once, new ones, turning it all off. Passkeys
 * need the passkey script (its forms stay hidden without it); everything else is plain forms.
 */

export const TWO_FACTOR_PATH = '/account/settings/two-factor';
/** Where the settings' passkey form gets its registration options, and the sign-in step's its sign-in options. */
export const PASSKEY_REGISTRATION_OPTIONS_PATH = '/account/settings/two-factor/passkey-options';
export const PASSKEY_SIGN_IN_OPTIONS_PATH = '/account/sign-in/passkey-options';
export const TWO_FACTOR_FORMS = ['start', 'confirm', 'regenerate', 'off', 'add-passkey', 'remove-passkey'] as const;
export type TwoFactorForm = (typeof TWO_FACTOR_FORMS)[number];

/** The code field: one-time-code for phones' autofill, no spelling or capitals. */
function CodeField(props: { id: string; label: string; hint?: string; autofocus?: boolean; required?: boolean }) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      {props.hint ? (
        <p class="muted" id={`${props.id}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <input
        type="text"
        id={props.id}
        name="code"
        autocomplete="one-time-code"
        autocapitalize="none"
        spellcheck={false}
        maxlength={64}
        aria-describedby={props.hint ? `${props.id}-hint` : undefined}
        required={props.required ?? true}
        autofocus={props.autofocus}
      />
    </>
  );
}

/**
 * A form that runs a passkey ceremony (the passkey script): hidden until the script finds WebAuthn, it fetches its
 * options, puts the authenticator's answer into `credential` and sends itself; `[role=status]` says when it failed.
 */
function PasskeyForm(props: {
  frame: Frame;
  action: string;
  ceremony: 'register' | 'sign-in';
  optionsPath: string;
  children: ComponentChildren;
}) {
  const t = wordsOf(props.frame.locale).twoFactor;
  return (
    <form
      method="post"
      action={props.action}
      hidden
      data-passkey={props.ceremony}
      data-passkey-options={actionFor(props.optionsPath, props.frame.locale)}
      data-failed={t.passkeyFailed}
    >
      {props.children}
      <input type="hidden" name="credential" value="" />
      <p role="status" class="hint" />
    </form>
  );
}

/** What a browser without scripts or WebAuthn sees instead of a passkey form (the script hides it). */
const PasskeysNeedScript = (props: { frame: Frame }) => (
  <p class="muted" data-passkey-off>
    {wordsOf(props.frame.locale).twoFactor.passkeysNeedScript}
  </p>
);

/** The sign-in step: the password was right; the code now, or (an account with passkeys) a passkey. */
export function CodeStepPage(props: { frame: Frame; csrf: string; passkeys: boolean; error?: string | undefined }) {
  const t = wordsOf(props.frame.locale).twoFactor;
  const action = actionFor('/account/sign-in/code', props.frame.locale);
  return (
    <LocalizedPage frame={props.frame} title={t.codeTitle}>
      <h1>{t.codeTitle}</h1>
      <Alert message={props.error} />
      <p>{t.codeIntro}</p>
      <form method="post" action={action}>
        <CsrfField csrf={props.csrf} />
        <CodeField id="code" label={t.codeLabel} hint={t.codeHint} autofocus />
        <button type="submit">{t.verifyButton}</button>
      </form>
      {props.passkeys ? (
        <>
          <p>{t.usePasskeyIntro}</p>
          <PasskeyForm frame={props.frame} action={action} ceremony="sign-in" optionsPath={PASSKEY_SIGN_IN_OPTIONS_PATH}>
            <CsrfField csrf={props.csrf} />
            <button type="submit" class="secondary">
              {t.usePasskeyButton}
            </button>
          </PasskeyForm>
          <PasskeysNeedScript frame={props.frame} />
          <PasskeyScripts />
        </>
      ) : null}
    </LocalizedPage>
  );
}

/** Signed in with a recovery code: how many are left, and on. */
export function RecoveryUsedPage(props: { frame: Frame; left: number; continueTo: string }) {
  const t = wordsOf(props.frame.locale).twoFactor;
  return (
    <LocalizedPage frame={props.frame} title={t.recoveryUsedTitle}>
      <h1>{t.recoveryUsedTitle}</h1>
      <Notice message={t.recoveryLeft(props.left)} />
      <p>
        <a href={props.continueTo}>{t.continueLink}</a>
      </p>
    </LocalizedPage>
  );
}

/** The recovery codes, shown once: a list that prints well. */
function RecoveryCodes(props: { frame: Frame; codes: string[] }) {
  const t = wordsOf(props.frame.locale).twoFactor;
  return (
    <>
      <h2 id="recovery-codes">{t.codesTitle}</h2>
      <p>{t.codesIntro}</p>
      <ol class="recovery-codes">
        {props.codes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ol>
    </>
  );
}

/** Where the person's second factors stand, for the settings page. */
export interface TwoFactorView {
  /** The authenticator app: none, being set up (its QR code and key), or on. */
  totp: { state: 'off' } | { state: 'enrolling'; secret: string; qrSvg: string } | { state: 'on' };
  passkeys: PasskeySummary[];
  /** Whether sign-in asks for a second factor (an authenticator, or a passkey). */
  on: boolean;
  recoveryCodesLeft: number;
  /** Recovery codes just made: shown this once. */
  newCodes?: string[] | undefined;
}

/** The passkeys: the list, the form that adds one (the passkey script), the form that removes one. */
function Passkeys(props: { frame: Frame; view: TwoFactorView; which: (form: TwoFactorForm) => VNode }) {
  const { frame, view } = props;
  const t = wordsOf(frame.locale).twoFactor;
  const at = (when: Date | null) => (when === null ? null : wordsOf(frame.locale).forum.at(when));
  const action = actionFor(TWO_FACTOR_PATH, frame.locale);
  return (
    <>
      <h2 id="passkeys">{t.passkeysTitle}</h2>
      <p class="muted">{t.passkeysIntro}</p>
      {view.passkeys.length === 0 ? (
        <p>{t.noPasskeys}</p>
      ) : (
        <ul class="passkeys">
          {view.passkeys.map((passkey) => (
            <li>{t.passkeyMade(passkey.name, at(passkey.createdAt)!, at(passkey.lastUsedAt))}</li>
          ))}
        </ul>
      )}
      <PasskeyForm
        frame={frame}
        action={`${action}#passkeys`}
        ceremony="register"
        optionsPath={PASSKEY_REGISTRATION_OPTIONS_PATH}
      >
        {props.which('add-passkey')}
        <label for="passkey-name">{t.passkeyNameLabel}</label>
        <input type="text" id="passkey-name" name="name" maxlength={60} required />
        <button type="submit">{t.addPasskeyButton}</button>
      </PasskeyForm>
      <PasskeysNeedScript frame={frame} />
      {view.passkeys.length > 0 ? (
        <>
          <h3 id="remove-passkey">{t.removePasskeyTitle}</h3>
          <form method="post" action={`${action}#passkeys`}>
            {props.which('remove-passkey')}
            <label for="remove-passkey-which">{t.removePasskeyLabel}</label>
            <select id="remove-passkey-which" name="passkey">
              {view.passkeys.map((passkey) => (
                <option value={String(passkey.id)}>{passkey.name}</option>
              ))}
            </select>
            <label for="remove-passkey-password">{t.passwordOrCode}</label>
            <input type="password" id="remove-passkey-password" name="password" autocomplete="current-password" />
            <CodeField id="remove-passkey-code" label={t.codeInstead} required={false} />
            <button type="submit" class="danger">
              {t.removePasskeyButton}
            </button>
          </form>
        </>
      ) : null}
    </>
  );
}

/** The two-factor settings, in whichever state the person's second factor is. */
export function TwoFactorPage(props: {
  frame: Frame;
  csrf: string;
  view: TwoFactorView;
  error?: string | undefined;
  notice?: string | undefined;
  /** REQUIRE_2FA=admins sent an administrator here. */
  required?: boolean;
}) {
  const { frame, view } = props;
  const t = wordsOf(frame.locale).twoFactor;
  const action = actionFor(TWO_FACTOR_PATH, frame.locale);
  const Which = ({ form }: { form: TwoFactorForm }) => (
    <>
      <CsrfField csrf={props.csrf} />
      <input type="hidden" name="form" value={form} />
    </>
  );
  return (
    <LocalizedPage frame={frame} title={t.title}>
      <h1>{t.title}</h1>
      {props.required ? <Alert message={t.requiredForAdmins} /> : null}
      <Alert message={props.error} />
      <Notice message={props.notice} />
      <p>{t.intro}</p>
      <p class="muted">{view.on ? t.statusOn : t.statusOff}</p>
      <h2 id="app">{t.appTitle}</h2>
      {view.totp.state === 'off' ? (
        <form method="post" action={action}>
          <Which form="start" />
          <button type="submit">{t.setUpButton}</button>
        </form>
      ) : null}
      {view.totp.state === 'enrolling' ? (
        <>
          <h3 id="scan">{t.scanTitle}</h3>
          <p>{t.scanIntro}</p>
          {/* The QR code is our own SVG of the otpauth URI (qrcode), nothing a person wrote. */}
          <div class="qr" role="img" aria-label={t.qrLabel} dangerouslySetInnerHTML={{ __html: view.totp.qrSvg }} />
          <p>
            {t.secretLabel}: <code id="totp-secret">{view.totp.secret}</code>
          </p>
          <form method="post" action={action}>
            <Which form="confirm" />
            <CodeField id="confirm-code" label={t.confirmLabel} autofocus />
            <button type="submit">{t.confirmButton}</button>
          </form>
        </>
      ) : null}
      {view.totp.state === 'on' ? <p>{t.appOn}</p> : null}
      <Passkeys frame={frame} view={view} which={(form) => <Which form={form} />} />
      {view.on ? (
        <>
          {view.newCodes ? (
            <RecoveryCodes frame={frame} codes={view.newCodes} />
          ) : (
            <p id="recovery-codes">{t.codesLeft(view.recoveryCodesLeft)}</p>
          )}
          <h2 id="regenerate">{t.regenerateTitle}</h2>
          <p class="muted">{t.regenerateIntro}</p>
          <form method="post" action={`${action}#recovery-codes`}>
            <Which form="regenerate" />
            <label for="regenerate-password">{t.passwordOrCode}</label>
            <input type="password" id="regenerate-password" name="password" autocomplete="current-password" />
            <CodeField id="regenerate-code" label={t.codeInstead} required={false} />
            <button type="submit">{t.regenerateButton}</button>
          </form>
          <h2 id="off">{t.turnOffTitle}</h2>
          <p class="muted">{t.turnOffIntro}</p>
          <form method="post" action={`${action}#off`}>
            <Which form="off" />
            <label for="off-password">{t.passwordOrCode}</label>
            <input type="password" id="off-password" name="password" autocomplete="current-password" />
            <CodeField id="off-code" label={t.codeInstead} required={false} />
            <button type="submit" class="danger">
              {t.turnOffButton}
            </button>
          </form>
        </>
      ) : null}
      <p>
        <a href={withLang('/account/settings', frame.locale)}>{t.backToSettings}</a>
      </p>
      <PasskeyScripts />
    </LocalizedPage>
  );
}

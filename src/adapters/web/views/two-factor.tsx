import { wordsOf } from '../../presentation/words/index.js';
import { Alert, CsrfField, type Frame, LocalizedPage, Notice, actionFor, withLang } from './layout.js';

/**
 * Two-factor sign-in's pages (contract §25): the sign-in step that asks for the code (after the password, on both
 * sign-in pages), and the settings of a signed-in person: set up an authenticator (a QR code, and its key as text),
 * the recovery codes shown once, new ones, turning it off.
 */

export const TWO_FACTOR_PATH = '/account/settings/two-factor';
export const TWO_FACTOR_FORMS = ['start', 'confirm', 'regenerate', 'off'] as const;
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

/** The sign-in step: the password was right; the code now. */
export function CodeStepPage(props: { frame: Frame; csrf: string; error?: string | undefined }) {
  const t = wordsOf(props.frame.locale).twoFactor;
  return (
    <LocalizedPage frame={props.frame} title={t.codeTitle}>
      <h1>{t.codeTitle}</h1>
      <Alert message={props.error} />
      <p>{t.codeIntro}</p>
      <form method="post" action={actionFor('/account/sign-in/code', props.frame.locale)}>
        <CsrfField csrf={props.csrf} />
        <CodeField id="code" label={t.codeLabel} hint={t.codeHint} autofocus />
        <button type="submit">{t.verifyButton}</button>
      </form>
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

export type TwoFactorView =
  | { state: 'off' }
  | { state: 'enrolling'; secret: string; qrSvg: string }
  | { state: 'on'; recoveryCodesLeft: number; newCodes?: string[] | undefined };

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
      {view.state === 'off' ? (
        <>
          <p class="muted">{t.statusOff}</p>
          <form method="post" action={action}>
            <Which form="start" />
            <button type="submit">{t.setUpButton}</button>
          </form>
        </>
      ) : null}
      {view.state === 'enrolling' ? (
        <>
          <h2 id="scan">{t.scanTitle}</h2>
          <p>{t.scanIntro}</p>
          {/* The QR code is our own SVG of the otpauth URI (qrcode), nothing a person wrote. */}
          <div class="qr" role="img" aria-label={t.qrLabel} dangerouslySetInnerHTML={{ __html: view.qrSvg }} />
          <p>
            {t.secretLabel}: <code id="totp-secret">{view.secret}</code>
          </p>
          <form method="post" action={action}>
            <Which form="confirm" />
            <CodeField id="confirm-code" label={t.confirmLabel} autofocus />
            <button type="submit">{t.confirmButton}</button>
          </form>
        </>
      ) : null}
      {view.state === 'on' ? (
        <>
          <p class="muted">{t.statusOn}</p>
          {view.newCodes ? <RecoveryCodes frame={frame} codes={view.newCodes} /> : <p>{t.codesLeft(view.recoveryCodesLeft)}</p>}
          <h2 id="regenerate">{t.regenerateTitle}</h2>
          <p class="muted">{t.regenerateIntro}</p>
          <form method="post" action={`${action}#recovery-codes`}>
            <Which form="regenerate" />
            <label for="regenerate-password">{t.passwordOrCode}</label>
            <input type="password" id="regenerate-password" name="password" autocomplete="current-password" required />
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
    </LocalizedPage>
  );
}

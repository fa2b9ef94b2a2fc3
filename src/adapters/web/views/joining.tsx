import type { Registration } from '../../../application/accounts/sign-up.js';
import { type AccountWords, wordsOf } from '../../presentation/words/index.js';
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
import { type ProviderButton, ProviderButtons } from './providers.js';

/**
 * The pages of joining (contract §16b): sign up, confirm an address, forgot and reset a password. Plain HTML
 * forms that work with JavaScript off, in the reader's language.
 */

const wordsFor = (frame: Frame): AccountWords => wordsOf(frame.locale).account;

/** What a person typed into the sign-up form (never the password), shown again with an error. */
export interface SignUpValues {
  login?: string;
  email?: string;
  name?: string;
  invite?: string;
}

export function SignUpPage(props: {
  frame: Frame;
  csrf: string;
  registration: Registration;
  values: SignUpValues;
  /** The authorization request the person came from (its query), to return to once verified. */
  authorize?: string | undefined;
  error?: string;
  /** The sign-in providers configured (contract §25): their buttons, carrying the invite code and the way back. */
  providers?: readonly ProviderButton[] | undefined;
}) {
  const { frame, values } = props;
  const t = wordsFor(frame);
  return (
    <LocalizedPage frame={frame} title={t.signUpTitle}>
      <h1>{t.signUpTitle}</h1>
      <Alert message={props.error} />
      <p>{t.signUpIntro}</p>
      <form method="post" action={actionFor('/account/sign-up', frame.locale)}>
        <CsrfField csrf={props.csrf} />
        {props.authorize ? <input type="hidden" name="authorize" value={props.authorize} /> : null}
        <LoginField label={t.login} value={values.login} maxlength={20} describedBy="login-hint" />
        <p class="hint" id="login-hint">
          {t.loginHint}
        </p>
        <label for="email">{t.email}</label>
        <input
          type="email"
          id="email"
          name="email"
          value={values.email ?? ''}
          autocomplete="email"
          aria-describedby="email-hint"
          required
        />
        <p class="hint" id="email-hint">
          {t.emailHint}
        </p>
        <NewPasswordFields label={t.password} hint={t.passwordHint} ids={{ password: 'password' }} />
        <label for="name">
          {t.name} <small>{t.optional}</small>
        </label>
        <input type="text" id="name" name="name" value={values.name ?? ''} autocomplete="name" maxlength={50} />
        {props.registration === 'invite' ? (
          <>
            <label for="invite">{t.invite}</label>
            <input
              type="text"
              id="invite"
              name="invite"
              value={values.invite ?? ''}
              autocapitalize="none"
              spellcheck={false}
              aria-describedby="invite-hint"
              required
            />
            <p class="hint" id="invite-hint">
              {t.inviteHint}
            </p>
          </>
        ) : null}
        <div class="trap" aria-hidden="true">
          <label for="website">{t.trapLabel}</label>
          <input type="text" id="website" name="website" value="" tabindex={-1} autocomplete="off" />
        </div>
        <button type="submit">{t.signUpButton}</button>
      </form>
      <ProviderButtons
        locale={frame.locale}
        providers={props.providers ?? []}
        query={{
          ...(values.invite ? { invite: values.invite } : {}),
          ...(props.authorize ? { authorize: props.authorize } : {}),
        }}
      />
      <p class="muted">
        {t.haveAccount}{' '}
        <a href={props.authorize ? `/oauth/authorize?${props.authorize}` : withLang('/account/sign-in', frame.locale)}>
          {t.signInLink}
        </a>
      </p>
    </LocalizedPage>
  );
}

/** The form that has the verification mail sent again: to the account of this login or address, or of one typed. */
export function ResendForm(props: { frame: Frame; csrf: string; login?: string | undefined }) {
  const t = wordsFor(props.frame);
  return (
    <form method="post" action={actionFor('/account/verification', props.frame.locale)}>
      <CsrfField csrf={props.csrf} />
      {props.login !== undefined ? (
        <input type="hidden" name="login" value={props.login} />
      ) : (
        <>
          <label for="resend-login">{t.resendLogin}</label>
          <input
            type="text"
            id="resend-login"
            name="login"
            autocomplete="username"
            autocapitalize="none"
            spellcheck={false}
            required
          />
        </>
      )}
      <button type="submit" class="secondary">
        {t.resendButton}
      </button>
    </form>
  );
}

/** After signing up: where the mail went (if this browser still knows), and the way to have it sent again. */
export function CheckMailPage(props: { frame: Frame; csrf: string; email: string | null }) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.checkMailTitle}>
      <h1>{t.checkMailTitle}</h1>
      <Notice message={props.email ? t.checkMail(props.email) : t.checkMailNoAddress} />
      <p class="muted">{t.checkMailHint}</p>
      <ResendForm frame={props.frame} csrf={props.csrf} login={props.email ?? undefined} />
    </LocalizedPage>
  );
}

export function ResentPage(props: { frame: Frame }) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.resentTitle}>
      <h1>{t.resentTitle}</h1>
      <Notice message={t.resent} />
      <p class="muted">{t.checkMailHint}</p>
    </LocalizedPage>
  );
}

export function ConfirmPage(props: { frame: Frame; csrf: string; token: string; login: string }) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.confirmTitle}>
      <h1>{t.confirmTitle}</h1>
      <p>{t.confirmFor(props.login)}</p>
      <form method="post" action={actionFor('/account/verify', props.frame.locale)}>
        <CsrfField csrf={props.csrf} />
        <input type="hidden" name="token" value={props.token} />
        <button type="submit">{t.confirmButton}</button>
      </form>
    </LocalizedPage>
  );
}

/** The way on after a mailed link signed the browser in: back to the application, or to the settings. */
function Onward(props: { frame: Frame; signedIn: boolean; continueTo?: string | undefined }) {
  const t = wordsFor(props.frame);
  if (props.continueTo) {
    return (
      <p>
        <a href={props.continueTo}>{t.continueToApp}</a>
      </p>
    );
  }
  return (
    <>
      <p>
        <a href={withLang('/', props.frame.locale)}>{t.toForum}</a>
      </p>
      {props.signedIn ? (
        <p>
          <a href={withLang('/account/settings', props.frame.locale)}>{t.settingsLink}</a>
        </p>
      ) : null}
    </>
  );
}

export function ConfirmedPage(props: {
  frame: Frame;
  login: string;
  state: 'active' | 'pending' | 'unverified';
  /** An address change: the address now in use. */
  email: string | null;
  continueTo?: string | undefined;
}) {
  const t = wordsFor(props.frame);
  const title = props.email ? t.emailChangedTitle : t.confirmedTitle;
  const said = props.email
    ? t.emailChanged(props.email)
    : props.state === 'active'
      ? t.confirmedActive(props.login)
      : t.confirmedPending(props.login);
  return (
    <LocalizedPage frame={props.frame} title={title}>
      <h1>{title}</h1>
      <Notice message={said} />
      <Onward frame={props.frame} signedIn={props.state === 'active'} continueTo={props.continueTo} />
    </LocalizedPage>
  );
}

/** A verification link opened again once it confirmed the address: no error, and the way on. */
export function AlreadyConfirmedPage(props: { frame: Frame; login: string; signedIn: boolean }) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.alreadyConfirmedTitle}>
      <h1>{t.alreadyConfirmedTitle}</h1>
      <Notice message={t.alreadyConfirmed(props.login)} />
      <p>
        {props.signedIn ? (
          <a href={withLang('/account/settings', props.frame.locale)}>{t.settingsLink}</a>
        ) : (
          <a href={withLang('/account/sign-in', props.frame.locale)}>{t.signInLink}</a>
        )}
      </p>
    </LocalizedPage>
  );
}

export function BadLinkPage(props: { frame: Frame; csrf: string; error?: string | undefined }) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.badLinkTitle}>
      <h1>{t.badLinkTitle}</h1>
      <Alert message={props.error ?? t.badLink} />
      <p>{t.badLinkResend}</p>
      <ResendForm frame={props.frame} csrf={props.csrf} />
    </LocalizedPage>
  );
}

export function ForgotPage(props: {
  frame: Frame;
  csrf: string;
  login?: string | undefined;
  authorize?: string | undefined;
  error?: string | undefined;
}) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.forgotTitle}>
      <h1>{t.forgotTitle}</h1>
      <Alert message={props.error} />
      <p>{t.forgotIntro}</p>
      <form method="post" action={actionFor('/account/password/forgot', props.frame.locale)}>
        <CsrfField csrf={props.csrf} />
        {props.authorize ? <input type="hidden" name="authorize" value={props.authorize} /> : null}
        <LoginField label={t.loginOrEmail} value={props.login} />
        <button type="submit">{t.forgotButton}</button>
      </form>
    </LocalizedPage>
  );
}

export function ForgotSentPage(props: { frame: Frame }) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.forgotSentTitle}>
      <h1>{t.forgotSentTitle}</h1>
      <Notice message={t.forgotSent} />
    </LocalizedPage>
  );
}

/** A reset link's page; `first` for an account without a password, whose first it sets (contract §25). */
export function ResetPage(props: {
  frame: Frame;
  csrf: string;
  token: string;
  login: string;
  first: boolean;
  error?: string | undefined;
}) {
  const t = wordsFor(props.frame);
  const said = props.first
    ? { title: t.firstPasswordTitle, label: t.password, repeat: t.firstPasswordRepeat, button: t.firstPasswordButton }
    : { title: t.resetTitle, label: t.newPassword, repeat: t.repeatPassword, button: t.resetButton };
  return (
    <LocalizedPage frame={props.frame} title={said.title}>
      <h1>{said.title}</h1>
      <Alert message={props.error} />
      <p>{t.resetFor(props.login)}</p>
      <form method="post" action={actionFor('/account/password/reset', props.frame.locale)}>
        <CsrfField csrf={props.csrf} />
        <input type="hidden" name="token" value={props.token} />
        <input type="hidden" name="login" value={props.login} autocomplete="username" />
        <NewPasswordFields
          label={said.label}
          hint={t.passwordHint}
          ids={{ password: 'password', repeat: 'password_confirmation' }}
          repeat={said.repeat}
          autofocus
        />
        <button type="submit">{said.button}</button>
      </form>
    </LocalizedPage>
  );
}

export function ResetDonePage(props: { frame: Frame; login: string | null; first: boolean; continueTo?: string | undefined }) {
  const t = wordsFor(props.frame);
  const said = props.first
    ? { title: t.firstPasswordDoneTitle, done: t.firstPasswordDone, pending: t.firstPasswordDonePending }
    : { title: t.resetDoneTitle, done: t.resetDone, pending: t.resetDonePending };
  return (
    <LocalizedPage frame={props.frame} title={said.title}>
      <h1>{said.title}</h1>
      <Notice message={props.login ? said.done(props.login) : said.pending} />
      <Onward frame={props.frame} signedIn={props.login !== null} continueTo={props.continueTo} />
    </LocalizedPage>
  );
}

export function BadResetLinkPage(props: { frame: Frame }) {
  const t = wordsFor(props.frame);
  return (
    <LocalizedPage frame={props.frame} title={t.badLinkTitle}>
      <h1>{t.badLinkTitle}</h1>
      <Alert message={t.badResetLink} />
      <p>
        <a href={withLang('/account/password/forgot', props.frame.locale)}>{t.newResetLink}</a>
      </p>
    </LocalizedPage>
  );
}

/** A page that only says something: sign-up closed, a form expired, too many attempts. */
export function MessagePage(props: { frame: Frame; title: (t: AccountWords) => string; message: string }) {
  const title = props.title(wordsFor(props.frame));
  return (
    <LocalizedPage frame={props.frame} title={title}>
      <h1>{title}</h1>
      <Alert message={props.message} />
    </LocalizedPage>
  );
}

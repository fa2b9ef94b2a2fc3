import type { Locale } from '../../../domain/users/user.js';
import { wordsOf } from '../../presentation/words/index.js';
import { Alert, CsrfField, type Frame, LocalizedPage, LoginField, Notice, actionFor, withLang } from './layout.js';

/**
 * Signing in with another provider (contract §25): the providers' buttons (plain links: no script), the login form
 * of a new account, and the settings' section of links.
 */

/** A provider as a button shows it. */
export interface ProviderButton {
  name: string;
  displayName: string;
}

/**
 * The buttons of the providers, each a link that starts its flow; `query` goes along (the authorization request to
 * return to, an invite code).
 */
export function ProviderButtons(props: { locale: Locale; providers: readonly ProviderButton[]; query?: Record<string, string> }) {
  if (props.providers.length === 0) return null;
  const t = wordsOf(props.locale).providers;
  const query = new URLSearchParams(props.query ?? {}).toString();
  return (
    <nav class="providers" aria-label={t.orWith}>
      <p class="muted">{t.orWith}</p>
      <ul>
        {props.providers.map((provider) => (
          <li>
            <a class="button" href={withLang(`/account/auth/${provider.name}${query ? `?${query}` : ''}`, props.locale)}>
              {t.signInWith(provider.displayName)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The provider vouched for a new account, but its login is taken (or unusable): the person chooses one. */
export function ChooseLoginPage(props: {
  frame: Frame;
  csrf: string;
  provider: string;
  displayName: string;
  pending: string;
  login: string;
  error?: string | undefined;
}) {
  const { frame } = props;
  const t = wordsOf(frame.locale).providers;
  const account = wordsOf(frame.locale).account;
  return (
    <LocalizedPage frame={frame} title={t.chooseLoginTitle}>
      <h1>{t.chooseLoginTitle}</h1>
      <Alert message={props.error} />
      <p>{t.chooseLoginIntro(props.displayName)}</p>
      <form method="post" action={actionFor(`/account/auth/${props.provider}/login`, frame.locale)}>
        <CsrfField csrf={props.csrf} />
        <input type="hidden" name="pending" value={props.pending} />
        <LoginField label={account.login} value={props.login} maxlength={20} />
        <button type="submit">{t.createAccountButton}</button>
      </form>
    </LocalizedPage>
  );
}

/** What a provider sign-in came to, when it is not a signed-in browser: refused, or waiting for approval. */
export function ProviderMessagePage(props: { frame: Frame; title: string; message: string; notice?: boolean }) {
  const { frame } = props;
  const account = wordsOf(frame.locale).account;
  return (
    <LocalizedPage frame={frame} title={props.title}>
      <h1>{props.title}</h1>
      {props.notice ? <Notice message={props.message} /> : <Alert message={props.message} />}
      <p>
        <a href={withLang('/account/sign-in', frame.locale)}>{account.signInTitle}</a>
      </p>
    </LocalizedPage>
  );
}

/** The settings' links to providers: each with its Remove button (never the last way in), and the providers to link. */
export interface ProviderLinksValues {
  links: { provider: string; displayName: string }[];
  linkable: ProviderButton[];
  hasPassword: boolean;
}

export function ProviderLinksSection(props: {
  frame: Frame;
  csrf: string;
  values: ProviderLinksValues;
  error?: string | undefined;
  notice?: string | undefined;
}) {
  const { frame, values } = props;
  const t = wordsOf(frame.locale).providers;
  const lastWayIn = !values.hasPassword && values.links.length === 1;
  if (values.links.length === 0 && values.linkable.length === 0) return null;
  return (
    <>
      <h2 id="providers">{t.linksTitle}</h2>
      <p class="muted">{t.linksIntro}</p>
      <Alert message={props.error} />
      <Notice message={props.notice} />
      {values.links.length === 0 ? <p>{t.noLinks}</p> : null}
      <ul class="links">
        {values.links.map((link) => (
          <li>
            <form method="post" action={actionFor(`/account/auth/${link.provider}/unlink`, frame.locale)}>
              <CsrfField csrf={props.csrf} />
              <span>{t.linkedWith(link.displayName)}</span>{' '}
              {lastWayIn ? null : (
                <button type="submit" class="link">
                  {t.removeButton}
                </button>
              )}
            </form>
          </li>
        ))}
      </ul>
      {lastWayIn ? <p class="hint">{t.onlyWayIn}</p> : null}
      {values.linkable.map((provider) => (
        <form method="post" action={actionFor(`/account/auth/${provider.name}/link`, frame.locale)}>
          <CsrfField csrf={props.csrf} />
          <button type="submit">{t.linkButton(provider.displayName)}</button>
        </form>
      ))}
    </>
  );
}

import type { AuthorizationRequest } from '../../../application/oauth/authorization.js';
import type { Locale } from '../../../domain/users/user.js';
import { type AuthorizeWords, wordsOf } from '../../presentation/words/index.js';
import { Alert, CsrfField, Document, LoginField } from './layout.js';
import { type ProviderButton, ProviderButtons } from './providers.js';

/**
 * The pages of the authorization endpoint (contract §10): sign in, consent, and the error a person sees when a
 * request cannot be trusted. Plain HTML forms that work with JavaScript off. In English, as they have always been
 * (their words have every language; the page picks one here).
 */
const LOCALE: Locale = 'en';
const words = (): AuthorizeWords => wordsOf(LOCALE).authorize;

/** The parameters of an authorization request, as they are sent again (normalized: the scope as granted). */
export function authorizationQuery(request: AuthorizationRequest): Record<string, string> {
  return {
    response_type: 'code',
    client_id: request.client.clientId,
    redirect_uri: request.redirectUri,
    state: request.state,
    scope: request.scope,
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
  };
}

/** The authorization request, carried from page to page in hidden fields (it is checked again each time). */
function RequestFields(props: { request: AuthorizationRequest }) {
  return (
    <>
      {Object.entries(authorizationQuery(props.request)).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

export function AuthorizeSignInPage(props: {
  request: AuthorizationRequest;
  csrf: string;
  login?: string | undefined;
  error?: string | undefined;
  /** The right password for an account whose address is not confirmed: offer to send the mail again. */
  unverified?: boolean | undefined;
  /** The sign-in providers configured (contract §25): their buttons come back here once signed in. */
  providers?: readonly ProviderButton[] | undefined;
}) {
  const { request } = props;
  const w = words();
  const app = request.client.name;
  // The way back here after signing up or resetting a password.
  const back = new URLSearchParams({ authorize: new URLSearchParams(authorizationQuery(request)).toString() }).toString();
  return (
    <Document title={w.signInTitle} lang={LOCALE}>
      <h1>{w.signInHeading(app)}</h1>
      <Alert message={props.error} />
      <form method="post" action="/oauth/authorize">
        <RequestFields request={request} />
        <CsrfField csrf={props.csrf} />
        <input type="hidden" name="step" value="sign-in" />
        <LoginField label={w.loginOrEmail} value={props.login} />
        <label for="password">{w.password}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <button type="submit">{w.signInButton}</button>
      </form>
      {props.unverified ? (
        <form method="post" action="/account/verification">
          <CsrfField csrf={props.csrf} />
          <input type="hidden" name="login" value={props.login ?? ''} />
          <button type="submit" class="secondary">
            {w.resendButton}
          </button>
        </form>
      ) : null}
      <ProviderButtons
        locale={LOCALE}
        providers={props.providers ?? []}
        query={{ authorize: new URLSearchParams(authorizationQuery(request)).toString() }}
      />
      <p class="muted">{w.noPassword(app)}</p>
      <p class="muted">
        <a href={`/account/password/forgot?${back}`}>{w.forgotLink}</a> · <a href={`/account/sign-up?${back}`}>{w.signUpLink}</a>
      </p>
    </Document>
  );
}

export function ConsentPage(props: { request: AuthorizationRequest; csrf: string; login: string }) {
  const { request } = props;
  const w = words();
  const app = request.client.name;
  const scope = w.scopes[request.scope];
  const destination = new URL(request.redirectUri);
  const where = destination.protocol === 'http:' || destination.protocol === 'https:' ? destination.host : destination.protocol;
  return (
    <Document title={w.consentTitle(app)} lang={LOCALE}>
      <h1>{w.consentHeading(app)}</h1>
      <p>{w.signedInAs(<strong>{props.login}</strong>)}</p>
      <div class="scope">
        <strong>{scope.title}</strong>
        {scope.detail}
      </div>
      <p class="muted">{w.sendsBackTo(<code>{where}</code>)}</p>
      <form method="post" action="/oauth/authorize">
        <RequestFields request={request} />
        <CsrfField csrf={props.csrf} />
        <div class="row">
          <button type="submit" name="step" value="deny" class="secondary">
            {w.deny}
          </button>
          <button type="submit" name="step" value="approve">
            {w.approve}
          </button>
        </div>
      </form>
      <form method="post" action="/oauth/sign-out">
        <RequestFields request={request} />
        <CsrfField csrf={props.csrf} />
        <p class="muted">
          {w.notYou(props.login)}{' '}
          <button type="submit" class="link">
            {w.signOutButton}
          </button>
        </p>
      </form>
    </Document>
  );
}

/** A page that only says why not: a request that cannot be trusted, a form that expired. */
export function AuthorizeErrorPage(props: {
  title: (w: AuthorizeWords) => string;
  message: string;
  hint?: (w: AuthorizeWords) => string;
}) {
  const w = words();
  const title = props.title(w);
  return (
    <Document title={title} lang={LOCALE}>
      <h1>{title}</h1>
      <Alert message={props.message} />
      <p>{(props.hint ?? ((w) => w.startAgain))(w)}</p>
    </Document>
  );
}

export function SignedOutPage() {
  const w = words();
  return (
    <Document title={w.signedOutTitle} lang={LOCALE}>
      <h1>{w.signedOutHeading}</h1>
      <p>{w.closePage}</p>
    </Document>
  );
}

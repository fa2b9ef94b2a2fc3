import type { AuthorizationRequest } from '../../../application/oauth/authorization.js';
import type { Scope } from '../../../application/tokens/scopes.js';
import { html, type SafeHtml } from './html.js';
import { page, loginField } from './page.js';

/**
 * The pages of the authorization endpoint (contract §10): sign in, consent, and the error a person sees when a
 * request cannot be trusted. Plain HTML forms that work with JavaScript off, in the service's page chrome
 * (page.ts).
 */

/** The authorization request, carried from page to page in hidden fields (it is checked again each time). */
function requestFields(request: AuthorizationRequest): SafeHtml {
  return html`${Object.entries(authorizationQuery(request)).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" /> `,
  )}`;
}

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

const SCOPES: Record<Scope, { title: string; detail: string }> = {
  all: {
    title: 'Read and write as you',
    detail:
      'Read what you can read, and act as you: post topics and replies, like, follow, block, and manage your notifications.',
  },
  read: {
    title: 'Read only',
    detail: 'Read what you can read, including your notifications. It cannot post, change or delete anything.',
  },
};

export function signInPage(input: {
  request: AuthorizationRequest;
  csrf: string;
  login?: string;
  error?: string;
  /** The right password for an account whose address is not confirmed: offer to send the mail again. */
  unverified?: boolean;
}): string {
  const { request } = input;
  // The way back here after signing up or resetting a password.
  const back = new URLSearchParams({ authorize: new URLSearchParams(authorizationQuery(request)).toString() }).toString();
  return page(
    'Sign in',
    html`<h1>Sign in to continue to ${request.client.name}</h1>
      ${input.error ? html`<p class="alert" role="alert">${input.error}</p>` : ''}
      <form method="post" action="/oauth/authorize">
        ${requestFields(request)}<input type="hidden" name="csrf_token" value="${input.csrf}" />
        <input type="hidden" name="step" value="sign-in" />
        ${loginField('Login or e-mail', input.login)}
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      ${
        input.unverified
          ? html`<form method="post" action="/account/verification">
              <input type="hidden" name="csrf_token" value="${input.csrf}" />
              <input type="hidden" name="login" value="${input.login ?? ''}" />
              <button type="submit" class="secondary">Send the verification mail again</button>
            </form>`
          : ''
      }
      <p class="muted">${request.client.name} will not see your password.</p>
      <p class="muted">
        <a href="/account/password/forgot?${back}">Forgot your password?</a> ·
        <a href="/account/sign-up?${back}">Create an account</a>
      </p>`,
  );
}

export function consentPage(input: { request: AuthorizationRequest; csrf: string; login: string }): string {
  const { request } = input;
  const scope = SCOPES[request.scope];
  const destination = new URL(request.redirectUri);
  const where = destination.protocol === 'http:' || destination.protocol === 'https:' ? destination.host : destination.protocol;
  return page(
    `Authorize ${request.client.name}`,
    html`<h1>${request.client.name} wants to use your account</h1>
      <p>Signed in as <strong>${input.login}</strong>.</p>
      <div class="scope"><strong>${scope.title}</strong>${scope.detail}</div>
      <p class="muted">Approving sends you back to <code>${where}</code>.</p>
      <form method="post" action="/oauth/authorize">
        ${requestFields(request)}<input type="hidden" name="csrf_token" value="${input.csrf}" />
        <div class="row">
          <button type="submit" name="step" value="deny" class="secondary">Deny</button>
          <button type="submit" name="step" value="approve">Approve</button>
        </div>
      </form>
      <form method="post" action="/oauth/sign-out">
        ${requestFields(request)}<input type="hidden" name="csrf_token" value="${input.csrf}" />
        <p class="muted">Not ${input.login}? <button type="submit" class="link">Sign out</button></p>
      </form>`,
  );
}

export function errorPage(input: { title: string; message: string; hint?: string }): string {
  return page(
    input.title,
    html`<h1>${input.title}</h1>
      <p class="alert" role="alert">${input.message}</p>
      <p>${input.hint ?? 'Go back to the application and start again.'}</p>`,
  );
}

export function signedOutPage(): string {
  return page(
    'Signed out',
    html`<h1>You are signed out</h1>
      <p>You can close this page.</p>`,
  );
}

import { createHash } from 'node:crypto';
import type { AuthorizationRequest } from '../../../application/oauth/authorization.js';
import type { Scope } from '../../../application/tokens/scopes.js';
import { html, SafeHtml } from './html.js';

/**
 * The pages of the authorization endpoint (contract §10): sign in, consent, and the error a person sees when a
 * request cannot be trusted. Plain HTML forms that work with JavaScript off; one small inline style sheet
 * (allowed by its hash in the Content-Security-Policy), laid out for a phone first.
 */

const STYLE = `
:root { color-scheme: light dark; --accent: #2563eb; --line: #d4d4d8; --muted: #71717a; }
* { box-sizing: border-box; }
body { margin: 0; font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 26rem; margin: 0 auto; padding: 2rem 1.25rem; }
h1 { font-size: 1.375rem; line-height: 1.3; margin: 0 0 .75rem; }
p { margin: 0 0 1rem; }
.site { color: var(--muted); font-size: .875rem; margin-bottom: 1.5rem; }
label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
input[type=text], input[type=password] { width: 100%; font: inherit; padding: .625rem .75rem; border: 1px solid var(--line);
  border-radius: .5rem; background: transparent; color: inherit; }
button { font: inherit; font-weight: 600; width: 100%; padding: .75rem; margin-top: 1rem; border-radius: .5rem; cursor: pointer;
  border: 1px solid var(--accent); background: var(--accent); color: #fff; }
button.secondary { background: transparent; color: inherit; border-color: var(--line); }
button.link { width: auto; padding: 0; margin: 0; border: 0; background: none; color: var(--accent); font-weight: 400;
  text-decoration: underline; }
.alert { border: 1px solid #dc2626; border-radius: .5rem; padding: .75rem; margin: 0 0 1rem; }
.scope { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: 0 0 1rem; }
.scope strong { display: block; }
.muted { color: var(--muted); font-size: .875rem; }
form + .muted, form + form > .muted { margin-top: 1rem; }
.row { display: flex; gap: .75rem; }
.row button { flex: 1; }
code { font-size: .875em; overflow-wrap: anywhere; }
`;

/**
 * The style element goes in whole, as it is: it is ours, and its text must be exactly what was hashed (a
 * formatter that re-indents the page template must not be able to add a byte inside it).
 */
const STYLE_ELEMENT = new SafeHtml(`<style>${STYLE}</style>`);

/** For the Content-Security-Policy: the one inline style sheet, by its digest. */
export const STYLE_SOURCE = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${title}</title>
        ${STYLE_ELEMENT}
      </head>
      <body>
        <main>
          <div class="site">forum</div>
          ${body}
        </main>
      </body>
    </html> `.markup;
}

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

export function signInPage(input: { request: AuthorizationRequest; csrf: string; login?: string; error?: string }): string {
  const { request } = input;
  return page(
    'Sign in',
    html`<h1>Sign in to continue to ${request.client.name}</h1>
      ${input.error ? html`<p class="alert" role="alert">${input.error}</p>` : ''}
      <form method="post" action="/oauth/authorize">
        ${requestFields(request)}<input type="hidden" name="csrf_token" value="${input.csrf}" />
        <input type="hidden" name="step" value="sign-in" />
        <label for="login">Login or e-mail</label>
        <input
          type="text"
          id="login"
          name="login"
          value="${input.login ?? ''}"
          autocomplete="username"
          autocapitalize="none"
          spellcheck="false"
          required
          autofocus
        />
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <button type="submit">Sign in</button>
      </form>
      <p class="muted">${request.client.name} will not see your password.</p>`,
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

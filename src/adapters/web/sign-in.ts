import type { Context } from 'koa';
import type { ActingUser } from '../../application/actor.js';
import type { PasswordLogin } from '../../application/oauth/password-login.js';
import type { OpenWebSession, ResolveWebSession } from '../../application/oauth/web-sessions.js';
import { type BeginSignIn, PENDING_SIGN_IN_SECONDS } from '../../application/second-factors/sign-in-step.js';
import { type BrowserPages, SESSION_COOKIE } from './browser.js';
import { refuse } from './forms.js';

/**
 * Signing a browser in, and where it goes next. A first factor proves who the person is (a login and password, on
 * the account pages' sign-in and the authorization page's; later another provider), then `completeSignIn` ends
 * every sign-in the same way: the second factor's step for an account that has one, else the session; then on to
 * where the person was headed. A mailed link the person followed (an address confirmed, a password reset) signs in
 * an account without a second factor, and then goes back to the authorization request they left, when there is one.
 */

/** A signed-in browser: its session's secret (the cookie) and its user. */
export interface SignedIn {
  session: string;
  user: ActingUser;
}

/** The browser's session and its user; null when it is not signed in (or the session ended). */
export async function signedInUser(ctx: Context, resolve: ResolveWebSession): Promise<SignedIn | null> {
  const session = ctx.cookies.get(SESSION_COOKIE);
  const user = await resolve.execute(session);
  return session && user ? { session, user } : null;
}

// ---- the one way every sign-in ends --------------------------------------------------------------------------

/** The page that asks for the second factor (routes/sign-in.tsx), for both sign-in pages. */
export const CODE_STEP_PATH = '/account/sign-in/code';
/** The browser's pending sign-in (BeginSignIn): only the page that asks for the code reads it. */
export const PENDING_COOKIE = 'forum_pending_sign_in';
const PENDING_PATH = '/account/sign-in';

/**
 * THE end of every sign-in, whatever the first factor was (a password; another provider): given the user id that
 * factor proved, it opens the browser's session and sends it on to `next` (303); for an account with a second
 * factor (contract §25) it opens none, but keeps a pending sign-in in this browser (a cookie, ten minutes) and sends
 * it to the page that asks for the code, which goes on to `next` once the code is right. `codeStep`: that page's
 * URL in the reader's language. False (nothing sent): the account may not sign in.
 */
export async function completeSignIn(
  ctx: Context,
  browser: BrowserPages,
  begin: BeginSignIn,
  userId: number,
  then: { next: string; codeStep: string },
): Promise<boolean> {
  const begun = await begin.execute(userId, then.next);
  if (!begun) return false;
  if ('pending' in begun) {
    browser.setCookie(ctx, PENDING_COOKIE, begun.pending, { path: PENDING_PATH, maxAgeSeconds: PENDING_SIGN_IN_SECONDS });
    browser.seeOther(ctx, then.codeStep);
  } else {
    browser.setSession(ctx, begun.opened.session);
    browser.seeOther(ctx, then.next);
  }
  return true;
}

/** The browser's pending sign-in (completeSignIn), if it has one. */
export const pendingSignInOf = (ctx: Context): string | undefined => ctx.cookies.get(PENDING_COOKIE);

/** Forgets the browser's pending sign-in (it was used, or ended). */
export function dropPendingSignIn(ctx: Context, browser: BrowserPages): void {
  browser.setCookie(ctx, PENDING_COOKIE, null, { path: PENDING_PATH });
}

/** What signing in with a password calls. */
export interface PasswordSignIn {
  passwordLogin: PasswordLogin;
  beginSignIn: BeginSignIn;
}

/**
 * Signs the browser in with the form's login and password (the first factor), through completeSignIn. A wrong
 * login or password refuses the form (`wrongLogin`: the page asks again, 200); so do an account that may not sign
 * in yet and too many failed attempts (thrown by PasswordLogin), through the one refusal path.
 */
export async function signInWithPassword(
  ctx: Context,
  browser: BrowserPages,
  app: PasswordSignIn,
  form: { login?: string | undefined; password?: string | undefined },
  then: { wrongLogin: string; next: string; codeStep: string },
): Promise<void> {
  const { login, password } = form;
  const proved = login && password ? await app.passwordLogin.firstFactor({ username: login, password, address: ctx.ip }) : null;
  if (!proved || !(await completeSignIn(ctx, browser, app.beginSignIn, proved.user.id, then))) refuse(then.wrongLogin, 200);
}

/**
 * Opens a browser session for an account that proved who it is: a mailed link (an account with a second factor
 * gets none: `secondFactorShown` false), or a password just changed in a session that had shown it (true). Null
 * when it may not sign in.
 */
export async function openSession(
  ctx: Context,
  browser: BrowserPages,
  open: OpenWebSession,
  userId: number,
  secondFactorShown: boolean,
): Promise<SignedIn | null> {
  const opened = await open.execute(userId, secondFactorShown);
  if (!opened) return null;
  browser.setSession(ctx, opened.session);
  return opened;
}

/**
 * Signs in the account a mailed link proved, and takes the way back to the authorization request the person came
 * from: the login it is signed in as (null: it may not sign in yet), and where to continue (only when signed in).
 */
export async function signInFromLink(
  ctx: Context,
  browser: BrowserPages,
  open: OpenWebSession,
  userId: number | null,
): Promise<{ login: string | null; continueTo?: string }> {
  const opened = userId === null ? null : await openSession(ctx, browser, open, userId, false);
  const continueTo = takeReturn(ctx, browser);
  return { login: opened?.user.login ?? null, ...(opened && continueTo ? { continueTo } : {}) };
}

/** Where a sign-in goes on to: back to the authorization request the person came from (the cookie is spent), else `next`. */
export const afterSignIn = (ctx: Context, browser: BrowserPages, next: string): string => takeReturn(ctx, browser) ?? next;

// ---- the way back to an authorization request ----------------------------------------------------------------

/** The authorization request a person left to sign up (or reset a password), to go back to: as long as a mail link lives. */
const RETURN_COOKIE = 'forum_return';
const RETURN_PATH = '/account';
const RETURN_SECONDS = 24 * 3600;

/** The parameters of an authorization request (contract §10), as the way back to it keeps them. */
const AUTHORIZE_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
] as const;

/**
 * The query of an authorization request to return to (after signing up from its sign-in page), kept to its own
 * parameters; undefined when there is none. Only ever put after `/oauth/authorize?`, which checks it again: it
 * cannot send the browser anywhere else.
 */
export function authorizeReturn(raw: unknown): string | undefined {
  if (typeof raw !== 'string' || raw === '' || raw.length > 4000) return undefined;
  const given = new URLSearchParams(raw);
  const kept = new URLSearchParams();
  for (const name of AUTHORIZE_FIELDS) {
    const value = given.get(name);
    if (value !== null) kept.set(name, value);
  }
  return kept.has('client_id') ? kept.toString() : undefined;
}

/** Keeps the way back to the authorization request a form came from (its `authorize` field), across the mail. */
export function keepReturn(ctx: Context, browser: BrowserPages, raw: unknown): void {
  const query = authorizeReturn(raw);
  if (query) {
    browser.setCookie(ctx, RETURN_COOKIE, Buffer.from(query).toString('base64url'), {
      path: RETURN_PATH,
      maxAgeSeconds: RETURN_SECONDS,
    });
  }
}

/** Where to send the person back to, if they came from an authorization request; the cookie is spent. */
function takeReturn(ctx: Context, browser: BrowserPages): string | undefined {
  const kept = ctx.cookies.get(RETURN_COOKIE);
  if (kept === undefined) return undefined;
  browser.setCookie(ctx, RETURN_COOKIE, null, { path: RETURN_PATH });
  const query = authorizeReturn(Buffer.from(kept, 'base64url').toString());
  return query ? `/oauth/authorize?${query}` : undefined;
}

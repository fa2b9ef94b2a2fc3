import type { Context } from 'koa';
import type { ActingUser } from '../../application/actor.js';
import type { OpenWebSession, ResolveWebSession, SignIn } from '../../application/oauth/web-sessions.js';
import { type BrowserPages, SESSION_COOKIE } from './browser.js';
import { Forbidden } from '../../domain/shared/errors.js';
import { refuse } from './forms.js';

/**
 * Signing a browser in, and where it goes next. Two ways in: a login and password (the account pages' sign-in,
 * and the authorization page's), which then go on to where the person was headed; or a mailed link the person
 * followed (an address confirmed, a password reset), which proved who they are, and which then goes back to the
 * authorization request they left to sign up or reset their password, when there is one.
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

/**
 * Signs the browser in with the form's login and password and sends it on to `next` (303). A wrong login or
 * password refuses the form (`wrongLogin`: the page asks again, 200); so do an account that may not sign in yet
 * and too many failed attempts (thrown by SignIn), through the one refusal path.
 */
export async function signInWithPassword(
  ctx: Context,
  browser: BrowserPages,
  signIn: SignIn,
  form: { login?: string | undefined; password?: string | undefined },
  then: { wrongLogin: string; next: string },
): Promise<void> {
  const { login, password } = form;
  const signedIn = login && password ? await signIn.execute({ username: login, password, address: ctx.ip }) : null;
  if (!signedIn) refuse(then.wrongLogin, 200);
  browser.setSession(ctx, signedIn.session);
  browser.seeOther(ctx, then.next);
}

/** Opens a browser session for an account that proved who it is (a mailed link, a password just changed); null when it may not sign in. */
export async function openSession(
  ctx: Context,
  browser: BrowserPages,
  open: OpenWebSession,
  userId: number,
): Promise<SignedIn | null> {
  const opened = await open.execute(userId);
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
  const opened = userId === null ? null : await openSession(ctx, browser, open, userId);
  const continueTo = takeReturn(ctx, browser);
  return { login: opened?.user.login ?? null, ...(opened && continueTo ? { continueTo } : {}) };
}

/**
 * The one end of every sign-in with another provider (contract §25): the account the provider proved (and the
 * account's state allowed) gets a browser session, and the browser goes back to the authorization request it came
 * from, if any, else to `next`. A step that must come before a session (a second factor) goes in front of this.
 */
export async function completeSignIn(
  ctx: Context,
  browser: BrowserPages,
  open: OpenWebSession,
  userId: number,
  next: string,
): Promise<void> {
  // Checked by the use case a moment ago; an account suspended since is refused here as anywhere.
  if (!(await openSession(ctx, browser, open, userId))) throw new Forbidden();
  browser.seeOther(ctx, takeReturn(ctx, browser) ?? next);
}

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

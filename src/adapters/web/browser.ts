import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context } from 'koa';
import type { VNode } from 'preact';
import { WEB_SESSION_SECONDS } from '../../application/oauth/web-sessions.js';
import { renderDocument } from '../presentation/html.js';
import { STYLE_SOURCE } from './views/style.js';

/**
 * What every page of the service for a person in a browser shares (the /oauth and /account pages): the session
 * cookie, CSRF tokens, the response headers (a strict Content-Security-Policy, no caching) and redirects.
 *
 * CSRF: SameSite=Lax cookies already keep other sites' form posts from carrying the session; on top of that
 * every form carries a token. Before sign-in (no session yet) it is a random value also set as a cookie
 * (double submit: another site can neither read the cookie nor set it); after, it may be derived from the
 * session's secret, which only this browser has.
 */

/** The browser session (SignIn, OpenWebSession): seen by the /oauth and the /account pages alike. */
export { SESSION_COOKIE } from '../presentation/session-cookie.js';
import { SESSION_COOKIE } from '../presentation/session-cookie.js';
export const CSRF_COOKIE = 'forum_csrf';
const COOKIE_PATH = '/';
/**
 * Where the session cookie lived before the /account pages (issue 32). A browser that still holds one there
 * sends it on /oauth paths, ahead of the new one (a longer path comes first): it is expired when a session starts
 * or ends there. (Only there: elsewhere the browser does not send it, and a cookie jar that ignores paths would
 * take the expiry for the new cookie's.)
 */
const LEGACY_PATH = '/oauth';

function secretsMatch(expected: string, given: unknown): boolean {
  if (typeof given !== 'string' || given === '') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A form's token for a signed-in browser: only the holder of the session can know it. */
export function sessionCsrf(session: string): string {
  return createHash('sha256').update(`csrf:${session}`).digest('base64url');
}

/**
 * What a page may load: our style sheet (linked, on the forum's pages), images (ours, and others' over https); with `script`, the forum pages'
 * own script and the stream it reads. Where a form may send the browser: this service, and (the consent form) the
 * application's redirect URI.
 */
export function contentSecurityPolicy(redirectUri?: string, script = false): string {
  if (redirectUri === undefined) return script ? FORUM_POLICY : PAGE_POLICY;
  return policyFor(redirectUri, script);
}

/**
 * The policy of the account pages that run the passkey forms' scripts (ours, from this origin): their inline style
 * sheet by its hash, as on every account page, and `script-src 'self'` with the requests the script makes.
 */
export const PASSKEY_PAGE_POLICY = policyFor(undefined, false, true);

function policyFor(redirectUri: string | undefined, script: boolean, accountScript = false): string {
  let formTargets = "'self'";
  if (redirectUri) {
    const url = new URL(redirectUri);
    // Browsers check form-action against the redirect that follows a form post, too.
    formTargets += url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  return [
    "default-src 'none'",
    // The forum's pages link their style sheet; the account and OAuth pages carry theirs, allowed by its hash.
    `style-src ${script ? "'self'" : STYLE_SOURCE}`,
    // Avatars and uploads are ours; a post may show an image from elsewhere, over https only (as homeland's do).
    "img-src 'self' https:",
    // The forum pages' own script (signed-in pages only), and the stream it reads.
    ...(script || accountScript ? ["script-src 'self'", "connect-src 'self'"] : []),
    `form-action ${formTargets}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; ');
}

/** The policies of pages whose forms post only here, made once (the forum's, with its script; the others'). */
const PAGE_POLICY = policyFor(undefined, false);
const FORUM_POLICY = policyFor(undefined, true);

export interface BrowserPages {
  /** Sets (or, with null, clears) an HttpOnly, SameSite=Lax cookie; Secure when the service is reached by https. */
  setCookie(ctx: Context, name: string, value: string | null, options?: { maxAgeSeconds?: number; path?: string }): void;
  /** Sets the browser session's cookie (a session's secret), or clears it (null). */
  setSession(ctx: Context, session: string | null): void;
  /**
   * Answers with a page (or its bytes, rendered before and kept). Its Content-Security-Policy and Cache-Control are
   * the account pages' (no store) unless `headers` says otherwise: the consent page's policy also lets its form send
   * the browser to the application, the forum's pages load their script and may be revalidated.
   */
  show(ctx: Context, status: number, page: VNode | Buffer, headers?: { policy?: string; cacheControl?: string }): void;
  /** A 303 to a page of this service (after a form). */
  seeOther(ctx: Context, location: string): void;
  /** The double-submit CSRF token of this browser (its cookie, or a new one). */
  browserCsrf(ctx: Context): string;
  /** Whether a form carried this browser's double-submit CSRF token. */
  browserCsrfMatches(ctx: Context, given: unknown): boolean;
  /** Whether a form carried the token of this signed-in browser's session. */
  sessionCsrfMatches(session: string, given: unknown): boolean;
}

export function browserPages(options: { secureCookies: boolean }): BrowserPages {
  const pages: BrowserPages = {
    setCookie(ctx, name, value, { maxAgeSeconds, path } = {}) {
      if (options.secureCookies) ctx.cookies.secure = true;
      ctx.cookies.set(name, value, {
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secureCookies,
        path: path ?? COOKIE_PATH,
        overwrite: true,
        ...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds * 1000 }),
      });
    },

    setSession(ctx, session) {
      pages.setCookie(ctx, SESSION_COOKIE, session, session === null ? {} : { maxAgeSeconds: WEB_SESSION_SECONDS });
      if (!ctx.path.startsWith(`${LEGACY_PATH}/`) || ctx.cookies.get(SESSION_COOKIE) === undefined) return;
      // Beside the cookie just set, not instead of it (`overwrite` drops earlier headers of the same name).
      ctx.cookies.set(SESSION_COOKIE, null, {
        httpOnly: true,
        sameSite: 'lax',
        secure: options.secureCookies,
        path: LEGACY_PATH,
        overwrite: false,
      });
    },

    show(ctx, status, page, headers = {}) {
      ctx.status = status;
      ctx.type = 'text/html; charset=utf-8';
      ctx.set({
        'Cache-Control': headers.cacheControl ?? 'no-store',
        'Content-Security-Policy': headers.policy ?? PAGE_POLICY,
        'X-Frame-Options': 'DENY',
        'Referrer-Policy': 'no-referrer',
        'X-Content-Type-Options': 'nosniff',
      });
      // As bytes, encoded once: the ETag's digest and the response both take them as they are.
      ctx.body = Buffer.isBuffer(page) ? page : Buffer.from(renderDocument(page));
    },

    seeOther(ctx, location) {
      ctx.status = 303;
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(location);
    },

    browserCsrf(ctx) {
      const existing = ctx.cookies.get(CSRF_COOKIE);
      if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
      const fresh = randomBytes(32).toString('base64url');
      pages.setCookie(ctx, CSRF_COOKIE, fresh);
      return fresh;
    },

    browserCsrfMatches(ctx, given) {
      return secretsMatch(ctx.cookies.get(CSRF_COOKIE) ?? '', given);
    },

    sessionCsrfMatches(session, given) {
      return secretsMatch(sessionCsrf(session), given);
    },
  };
  return pages;
}

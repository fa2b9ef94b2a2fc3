import Router from '@koa/router';
import type { Context, Next } from 'koa';
import { z } from 'zod';
import {
  type ApproveAuthorization,
  type CheckAuthorizationRequest,
  AuthorizationRefused,
  type AuthorizationRequest,
  deniedRedirect,
} from '../../../application/oauth/authorization.js';
import type { PasswordLogin } from '../../../application/oauth/password-login.js';
import type { ResolveWebSession, SignOut } from '../../../application/oauth/web-sessions.js';
import type { BeginSignIn } from '../../../application/second-factors/sign-in-step.js';
import { type AuthorizeWords, wordsOf } from '../../presentation/words/index.js';
import { type BrowserPages, browserPages, contentSecurityPolicy, sessionCsrf } from '../browser.js';
import { Page, type RouteDeclarer } from '../docs.js';
import { paramsOf, readForm } from '../forms.js';
import { CODE_STEP_PATH, signedInUser, signInWithPassword } from '../sign-in.js';
import { AuthorizeErrorPage, AuthorizeSignInPage, authorizationQuery, ConsentPage, SignedOutPage } from '../views/authorize.js';
import type { ListProviders } from '../../../application/providers/providers.js';

/**
 * The authorization endpoint of the authorization code grant (contract §10), as a person meets it in a browser:
 * GET shows the sign-in form (no session yet) or the consent form; the forms post back here. The rules of the
 * request live in the application (CheckAuthorizationRequest); this module is the browser's side of them:
 * cookies, CSRF, pages, redirects (browser.ts). The sign-in form's token is the browser's double-submit token;
 * the consent and sign-out forms' is derived from the session. The pages are in English (views/authorize.tsx).
 */

const AuthorizeQuery = z.object({
  response_type: z.literal('code'),
  client_id: z.string().meta({ description: 'The application’s client_id (forumctl apps create)' }),
  redirect_uri: z.string().meta({ description: 'Exactly one of the redirect URIs the application registered' }),
  state: z.string().meta({ description: 'Opaque value sent back with the code (printable ASCII, at most 500 characters)' }),
  code_challenge: z.string().meta({ description: 'PKCE: BASE64URL(SHA256(code_verifier)), 43 characters' }),
  code_challenge_method: z.literal('S256'),
  scope: z.enum(['all', 'read', 'all read', 'read all']).optional().meta({ description: 'all (the default) or read' }),
});

const AuthorizeForm = AuthorizeQuery.extend({
  step: z.enum(['sign-in', 'approve', 'deny']).meta({ description: 'Which form was sent' }),
  csrf_token: z.string().meta({ description: 'The token the page put in the form' }),
  login: z.string().optional().meta({ description: 'sign-in: a login or an e-mail address' }),
  password: z.string().optional().meta({ description: 'sign-in' }),
});

/** The sign-in step's own fields. */
const SignInStep = AuthorizeForm.pick({ login: true, password: true });

const SignOutForm = AuthorizeQuery.partial().extend({ csrf_token: z.string() });

/** What the authorization pages call. */
export interface AuthorizeRouteUseCases {
  checkAuthorizationRequest: CheckAuthorizationRequest;
  resolveWebSession: ResolveWebSession;
  passwordLogin: PasswordLogin;
  beginSignIn: BeginSignIn;
  approveAuthorization: ApproveAuthorization;
  signOut: SignOut;
  /** The sign-in providers whose buttons the sign-in form shows (contract §25). */
  listProviders: ListProviders;
}
export const AuthorizeRouteUseCases = Symbol.for('AuthorizeRouteUseCases');

const words = (): AuthorizeWords => wordsOf('en').authorize;

/** Where an authorization request's pages are: GET /oauth/authorize with it. */
const authorizeUrl = (request: AuthorizationRequest) => `/oauth/authorize?${new URLSearchParams(authorizationQuery(request))}`;

/**
 * A request that cannot be used, however it was sent: the application is told by redirect when that is safe,
 * else the person sees why (a page, 400). In front of every route of this module.
 */
function refusedRequests(browser: BrowserPages) {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } catch (error) {
      if (!(error instanceof AuthorizationRefused)) throw error;
      if (error.redirectTo) {
        ctx.set('Cache-Control', 'no-store');
        ctx.redirect(error.redirectTo);
        return;
      }
      browser.show(ctx, 400, <AuthorizeErrorPage title={(w) => w.badRequestTitle} message={error.description} />);
    }
  };
}

export function authorizeRoutes(app: AuthorizeRouteUseCases, docs: RouteDeclarer, options: { secureCookies: boolean }): Router {
  const router = new Router();
  const browser = browserPages(options);
  const { show } = browser;
  router.use(refusedRequests(browser));

  async function showSignIn(
    ctx: Context,
    request: AuthorizationRequest,
    status = 200,
    extra: { login?: string | undefined; error?: string; unverified?: boolean } = {},
  ) {
    const providers = await app.listProviders.execute();
    show(ctx, status, <AuthorizeSignInPage request={request} csrf={browser.browserCsrf(ctx)} providers={providers} {...extra} />);
  }

  function expiredForm(ctx: Context): void {
    show(ctx, 403, <AuthorizeErrorPage title={(w) => w.expiredTitle} message={words().expired} hint={(w) => w.signInAgain} />);
  }

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/oauth/authorize',
      summary: 'Sign in and authorize an application (a page)',
      description:
        'The authorization code grant with PKCE (RFC 6749 §4.1, RFC 7636, S256 only). An HTML page for a person: the ' +
        'sign-in form without a session, else the consent form naming the application and the scope. Approving ' +
        'redirects (302) to `redirect_uri?code=…&state=…`; denying to `redirect_uri?error=access_denied&state=…`. A ' +
        'request with an unknown client_id or a redirect_uri the application did not register shows an error page and ' +
        'never redirects; other faults redirect with `error` (RFC 6749 §4.1.2.1).',
      tag: 'OAuth',
      access: 'browser',
      query: AuthorizeQuery,
      response: { schema: Page, example: '<!doctype html>…', description: 'The sign-in or consent page', media: 'text/html' },
      otherResponses: {
        302: { description: 'A refused request, sent back to the application with `error` and `state`' },
        400: {
          schema: Page,
          media: 'text/html',
          description: 'Unknown application or unregistered redirect_uri: a page, no redirect',
        },
      },
      errors: [],
    },
    async (ctx) => {
      const request = await app.checkAuthorizationRequest.execute(paramsOf(ctx));
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      if (!signedIn) return showSignIn(ctx, request);
      show(ctx, 200, <ConsentPage request={request} csrf={sessionCsrf(signedIn.session)} login={signedIn.user.login} />, {
        policy: contentSecurityPolicy(request.redirectUri),
      });
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/oauth/authorize',
      summary: 'Send the sign-in or consent form',
      description:
        'What the pages of GET /oauth/authorize post. `step=sign-in` with login and password: on success a session ' +
        'cookie (HttpOnly, SameSite=Lax) and 303 to the consent page; wrong credentials show the form again. ' +
        '`step=approve`: 302 to the redirect URI with `code` and `state` (the code works once, for 10 minutes). ' +
        '`step=deny`: 302 with `error=access_denied`. A missing or wrong `csrf_token` is 403.',
      tag: 'OAuth',
      access: 'browser',
      body: { schema: AuthorizeForm, media: ['form'] },
      response: {
        schema: Page,
        example: '<!doctype html>…',
        description: 'The sign-in form again (wrong login or password), or the sign-in form when the session ended',
        media: 'text/html',
      },
      otherResponses: {
        302: { description: 'To the application: `code` and `state`, or `error=access_denied`' },
        303: { description: 'Signed in: to the consent page' },
        400: { schema: Page, media: 'text/html', description: 'Unknown application or unregistered redirect_uri' },
        403: { schema: Page, media: 'text/html', description: 'The CSRF token is missing or wrong' },
        429: { schema: Page, media: 'text/html', description: 'Too many failed sign-ins (with Retry-After)' },
      },
      errors: [],
    },
    async (ctx) => {
      const params = paramsOf(ctx);
      const request = await app.checkAuthorizationRequest.execute(params);
      if (params.step === 'sign-in') {
        if (!browser.browserCsrfMatches(ctx, params.csrf_token)) return expiredForm(ctx);
        const form = readForm(ctx, SignInStep, {
          words: words(),
          again: (refusal, typed) =>
            showSignIn(ctx, request, refusal.status, {
              login: typed.login ?? '',
              error: refusal.message,
              unverified: refusal.unverified,
            }),
        });
        return signInWithPassword(ctx, browser, app, form, {
          wrongLogin: words().wrongLogin,
          next: authorizeUrl(request),
          codeStep: CODE_STEP_PATH,
        });
      }
      if (params.step !== 'approve' && params.step !== 'deny') {
        return show(ctx, 400, <AuthorizeErrorPage title={(w) => w.noStepTitle} message={words().noStep} />);
      }
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      if (!signedIn) return showSignIn(ctx, request, 200, { error: words().sessionEnded });
      if (!browser.sessionCsrfMatches(signedIn.session, params.csrf_token)) return expiredForm(ctx);
      ctx.set('Cache-Control', 'no-store');
      ctx.redirect(
        params.step === 'approve' ? await app.approveAuthorization.execute(request, signedIn.user) : deniedRedirect(request),
      );
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/oauth/sign-out',
      summary: 'Sign out of the sign-in page',
      description:
        'Ends the browser session of the authorization pages. With the authorization request in the form, 303 back ' +
        'to its sign-in page; without, a page saying so.',
      tag: 'OAuth',
      access: 'browser',
      body: { schema: SignOutForm, media: ['form'] },
      response: { schema: Page, example: '<!doctype html>…', description: 'Signed out', media: 'text/html' },
      otherResponses: {
        303: { description: 'Signed out: to the sign-in page of the same request' },
        403: { schema: Page, media: 'text/html', description: 'The CSRF token is missing or wrong' },
      },
      errors: [],
    },
    async (ctx) => {
      const params = paramsOf(ctx);
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      if (signedIn) {
        if (!browser.sessionCsrfMatches(signedIn.session, params.csrf_token)) return expiredForm(ctx);
        await app.signOut.execute(signedIn.session);
      }
      browser.setSession(ctx, null);
      if (typeof params.client_id === 'string') {
        // Back to the sign-in page of the same request, with its own parameters only.
        const query = new URLSearchParams(
          Object.entries(params).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string' && entry[0] in AuthorizeQuery.shape,
          ),
        );
        return browser.seeOther(ctx, `/oauth/authorize?${query}`);
      }
      show(ctx, 200, <SignedOutPage />);
    },
  );

  return router;
}

import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { UnlinkProvider } from '../../../application/providers/links.js';
import {
  type BeginProviderSignIn,
  type ChooseProviderLogin,
  type FinishProviderSignIn,
  type FlowChecks,
  ProviderAnswerRejected,
  type ProviderOutcome,
} from '../../../application/providers/provider-sign-in.js';
import type { ListProviders } from '../../../application/providers/providers.js';
import type { ResolveWebSession } from '../../../application/oauth/web-sessions.js';
import type { BeginSignIn } from '../../../application/second-factors/sign-in-step.js';
import { Forbidden, NotFound } from '../../../domain/shared/errors.js';
import { localeOf } from '../../presentation/locale.js';
import type { Wire } from '../../presentation/wire.js';
import { type BrowserPages, browserPages } from '../browser.js';
import { Csrf, htmlPage, Lang, page, type RouteDeclarer } from '../docs.js';
import { handleForm, paramsOf, readForm, typedIn } from '../forms.js';
import { frameOf, wordsIn } from '../frame.js';
import { CODE_STEP_PATH, afterSignIn, completeSignIn, keepReturn, signedInUser } from '../sign-in.js';
import { actionFor } from '../views/layout.js';
import { ChooseLoginPage, ProviderMessagePage } from '../views/providers.js';
import { accountWords, expiredForm } from './account.js';

/**
 * Signing in with another provider (contract §25), on the account pages' side: the button's link sends the browser
 * to the provider (GET /account/auth/:provider), which sends it back (…/callback); the settings page links one
 * (POST …/link) and removes one (POST …/unlink). The paths are homeland's (devise's omniauth under /account), so that
 * a GitHub OAuth app registered for homeland keeps its callback URL.
 *
 * The flow's checks (state, nonce, PKCE verifier) live in a short-lived HttpOnly, SameSite=Lax cookie of this browser
 * alone, spent by the callback: a callback in another browser, a second use, or one of another provider finds none.
 */

export interface ProviderPageUseCases {
  beginProviderSignIn: BeginProviderSignIn;
  finishProviderSignIn: FinishProviderSignIn;
  chooseProviderLogin: ChooseProviderLogin;
  unlinkProvider: UnlinkProvider;
  listProviders: ListProviders;
  beginSignIn: BeginSignIn;
  resolveWebSession: ResolveWebSession;
}
export const ProviderPageUseCases = Symbol.for('ProviderPageUseCases');

const FLOW_COOKIE = 'forum_provider_flow';
const FLOW_PATH = '/account/auth';
const FLOW_SECONDS = 10 * 60;

/** What the browser keeps between the redirect and the callback. */
interface Flow extends FlowChecks {
  provider: string;
  /** The signed-in person linking the provider (settings), by id; null: signing in. */
  linkTo: number | null;
  invite: string | null;
}

const ProviderParams = z.object({ provider: z.string().meta({ description: 'The provider’s short name', example: 'github' }) });
const StartQuery = z.object({
  lang: Lang,
  authorize: z.string().optional().meta({ description: 'The authorization request to return to (its query)' }),
  invite: z.string().optional().meta({ description: 'The invite code of the sign-up page (REGISTRATION=invite)' }),
});
const CallbackQuery = z.object({
  code: z.string().optional(),
  state: z.string().optional(),
  error: z.string().optional(),
});
const ChooseLoginForm = z.object({
  login: z.string().meta({ description: 'The login of the new account' }),
  pending: z.string().meta({ description: 'What the provider vouched for, sealed by the service' }),
  csrf_token: Csrf,
});
const SessionForm = z.object({ csrf_token: Csrf });

/** What the settings page says about the last change to links (the outcome travels in its query). */
export function providerOutcome(ctx: Context): { notice?: string; error?: string } {
  const t = wordsIn(ctx).providers;
  const query = typedIn(ctx);
  if (query.linked) return { notice: t.linked(query.linked) };
  if (query.unlinked) return { notice: t.removed(query.unlinked) };
  return {};
}

function readFlow(ctx: Context, browser: BrowserPages, provider: string): Flow | null {
  const kept = ctx.cookies.get(FLOW_COOKIE);
  // Spent whatever it holds: a callback is answered once.
  browser.setCookie(ctx, FLOW_COOKIE, null, { path: FLOW_PATH });
  if (!kept) return null;
  try {
    const flow = JSON.parse(Buffer.from(kept, 'base64url').toString()) as Flow;
    return flow.provider === provider && typeof flow.state === 'string' && typeof flow.codeVerifier === 'string' ? flow : null;
  } catch {
    return null;
  }
}

export function providerRoutes(
  app: ProviderPageUseCases,
  docs: RouteDeclarer,
  wire: Wire,
  options: { secureCookies: boolean },
): Router {
  const router = new Router();
  const browser = browserPages(options);
  const callbackUrl = (provider: string) => wire.url(`/account/auth/${provider}/callback`);
  const settings = (ctx: Context) => actionFor('/account/settings', localeOf(ctx));
  /** Where a provider's sign-in goes on to (the code step first, for an account with a second factor). */
  const continuing = (ctx: Context) => ({
    next: afterSignIn(ctx, browser, settings(ctx)),
    codeStep: actionFor(CODE_STEP_PATH, localeOf(ctx)),
  });

  /** A refusal of the flow (a rule of the core, an account that may not sign in): said on a page of its own. */
  const refusedHere = (ctx: Context) =>
    handleForm(ctx, {
      words: accountWords(ctx),
      again: (refusal) =>
        browser.show(
          ctx,
          refusal.status === 200 ? 400 : refusal.status,
          <ProviderMessagePage frame={frameOf(ctx)} title={wordsIn(ctx).providers.refusedTitle} message={refusal.message} />,
        ),
    });
  const rejected = (ctx: Context, message: string) =>
    browser.show(
      ctx,
      400,
      <ProviderMessagePage frame={frameOf(ctx)} title={wordsIn(ctx).providers.refusedTitle} message={message} />,
    );

  /** Sends the browser to the provider, keeping the checks (and the person linking, or the invite) in its cookie. */
  async function start(ctx: Context, provider: string, linkTo: number | null, invite: string | null): Promise<void> {
    refusedHere(ctx);
    let begun: Awaited<ReturnType<BeginProviderSignIn['execute']>>;
    try {
      begun = await app.beginProviderSignIn.execute(provider, callbackUrl(provider));
    } catch (error) {
      if (!(error instanceof NotFound)) throw error;
      return browser.show(
        ctx,
        404,
        <ProviderMessagePage
          frame={frameOf(ctx)}
          title={wordsIn(ctx).providers.refusedTitle}
          message={wordsIn(ctx).providers.notConfigured}
        />,
      );
    }
    const { url, checks } = begun;
    const flow: Flow = { ...checks, provider, linkTo, invite };
    browser.setCookie(ctx, FLOW_COOKIE, Buffer.from(JSON.stringify(flow)).toString('base64url'), {
      path: FLOW_PATH,
      maxAgeSeconds: FLOW_SECONDS,
    });
    ctx.status = 302;
    ctx.set('Cache-Control', 'no-store');
    ctx.redirect(url);
  }

  /** Where an outcome leads: a session (through the one end of every provider sign-in), settings, or a page. */
  async function answer(ctx: Context, provider: string, outcome: ProviderOutcome): Promise<void> {
    const frame = frameOf(ctx);
    const t = wordsIn(ctx).providers;
    switch (outcome.type) {
      case 'signed-in':
        if (!(await completeSignIn(ctx, browser, app.beginSignIn, outcome.userId, continuing(ctx)))) throw new Forbidden();
        return;
      case 'linked':
        return browser.seeOther(ctx, `${settings(ctx)}&linked=${encodeURIComponent(displayName(provider))}#providers`);
      case 'created-pending':
        return browser.show(
          ctx,
          200,
          <ProviderMessagePage frame={frame} title={t.waitingTitle} message={t.waiting(outcome.login)} notice />,
        );
      case 'choose-login':
        return browser.show(
          ctx,
          200,
          <ChooseLoginPage
            frame={frame}
            csrf={browser.browserCsrf(ctx)}
            provider={provider}
            displayName={displayName(provider)}
            pending={outcome.pending}
            login={outcome.suggested}
          />,
        );
    }
  }
  let names = new Map<string, string>();
  const displayName = (provider: string) => names.get(provider) ?? provider;
  const remember = async () => {
    names = new Map((await app.listProviders.execute()).map((p) => [p.name, p.displayName]));
  };

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/auth/:provider',
      summary: 'Sign in with another provider',
      description:
        'The link of a provider’s button: 302 to the provider’s authorization page (OpenID Connect: ' +
        'authorization code with PKCE S256, state and nonce; GitHub: its OAuth 2 web flow), keeping the checks in a ' +
        'short-lived HttpOnly cookie. `authorize` (from the /oauth/authorize sign-in page) is where to go back once ' +
        'signed in; `invite` the sign-up page’s invite code. An unknown provider is the not-found page.',
      tag: 'Accounts',
      access: 'browser',
      params: ProviderParams,
      query: StartQuery,
      response: { status: 303, description: 'Not used: the answer is a 302 to the provider' },
      otherResponses: { 302: { description: 'To the provider' }, 404: page('No such provider') },
      errors: [],
    },
    async (ctx) => {
      const query = typedIn(ctx);
      keepReturn(ctx, browser, query.authorize);
      await start(ctx, ctx.params.provider!, null, query.invite || null);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'get',
      path: '/account/auth/:provider/callback',
      summary: 'Where the provider sends the browser back',
      description:
        'The callback URL to register with the provider. Checks the answer against this browser’s cookie (spent: ' +
        'one use) through openid-client: state, the code exchanged with the PKCE verifier, the ID token’s signature, ' +
        'issuer, audience and nonce. Then: the linked account signs in (303 to the settings page, or back to the ' +
        'authorization request it came from); an account whose confirmed address the provider says is verified is ' +
        'linked and signs in; else an account is made under REGISTRATION’s rules, or a page asks for its login. An ' +
        'answer that does not check out, an address the provider does not vouch for, an account that may not sign ' +
        'in: a page saying so (400 or 403).',
      tag: 'Accounts',
      access: 'browser',
      params: ProviderParams,
      query: CallbackQuery,
      response: htmlPage('The login form of a new account, or the page of an account that waits for approval'),
      otherResponses: {
        303: { description: 'Signed in (or linked): to the settings page, or back to the authorization request' },
        400: page('The answer did not check out, or the provider does not vouch for the address'),
        403: page('The account may not sign in, or sign-up is closed'),
        404: page('No such provider'),
      },
      errors: [],
    },
    async (ctx) => {
      const provider = ctx.params.provider!;
      const t = wordsIn(ctx).providers;
      const flow = readFlow(ctx, browser, provider);
      if (!flow) return rejected(ctx, t.flowExpired);
      refusedHere(ctx);
      const signedIn = flow.linkTo === null ? null : await signedInUser(ctx, app.resolveWebSession);
      if (flow.linkTo !== null && signedIn?.user.id !== flow.linkTo) return rejected(ctx, t.flowExpired);
      await remember();
      let outcome: ProviderOutcome;
      try {
        outcome = await app.finishProviderSignIn.execute({
          provider,
          redirectUri: callbackUrl(provider),
          callback: new URL(ctx.originalUrl, callbackUrl(provider)),
          checks: flow,
          linkTo: signedIn?.user ?? null,
          context: { locale: localeOf(ctx), invite: flow.invite },
        });
      } catch (error) {
        if (error instanceof ProviderAnswerRejected) return rejected(ctx, t.answerRejected);
        throw error;
      }
      await answer(ctx, provider, outcome);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/auth/:provider/login',
      summary: 'Choose the login of a new account made with a provider',
      description:
        'The form the callback shows when the provider’s login is taken or cannot be one here: makes the account ' +
        'with this login (REGISTRATION’s rules) and signs it in (303), or shows the form again saying why.',
      tag: 'Accounts',
      access: 'browser',
      params: ProviderParams,
      body: { schema: ChooseLoginForm, media: ['form'] },
      response: htmlPage('The form again (the login is taken or invalid), or the page of an account waiting for approval'),
      otherResponses: {
        303: { description: 'Signed in' },
        400: page('The form again: the login is taken or invalid'),
        403: page('The CSRF token is missing or wrong, or sign-up is closed'),
      },
      errors: [],
    },
    async (ctx) => {
      if (!browser.browserCsrfMatches(ctx, paramsOf(ctx).csrf_token)) return expiredForm(ctx, browser);
      const provider = ctx.params.provider!;
      await remember();
      const again = (status: number, message: string, login: string, pending: string) =>
        browser.show(
          ctx,
          status,
          <ChooseLoginPage
            frame={frameOf(ctx)}
            csrf={browser.browserCsrf(ctx)}
            provider={provider}
            displayName={displayName(provider)}
            pending={pending}
            login={login}
            error={message}
          />,
        );
      const form = readForm(ctx, ChooseLoginForm, {
        words: accountWords(ctx),
        again: (refusal, typed) => again(refusal.status, refusal.message, typed.login ?? '', typed.pending ?? ''),
      });
      const outcome = await app.chooseProviderLogin.execute({
        pending: form.pending,
        login: form.login,
        context: { locale: localeOf(ctx), invite: null },
      });
      await answer(ctx, provider, outcome);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/auth/:provider/link',
      summary: 'Link a provider to your account (settings)',
      description:
        'For a signed-in person: 302 to the provider; its callback links the identity to this account and returns ' +
        'to the settings page. Not signed in: 303 to the sign-in page. A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      params: ProviderParams,
      body: { schema: SessionForm, media: ['form'] },
      response: { status: 303, description: 'Not signed in: to the sign-in page' },
      otherResponses: { 302: { description: 'To the provider' }, 403: page('The CSRF token is missing or wrong') },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      if (!signedIn) return browser.seeOther(ctx, actionFor('/account/sign-in', localeOf(ctx)));
      if (!browser.sessionCsrfMatches(signedIn.session, paramsOf(ctx).csrf_token)) return expiredForm(ctx, browser);
      await start(ctx, ctx.params.provider!, signedIn.user.id, null);
    },
  );

  docs.route(
    router,
    '',
    {
      method: 'post',
      path: '/account/auth/:provider/unlink',
      summary: 'Remove a provider’s link (settings)',
      description:
        'For a signed-in person: removes the link and 303 to the settings page. Never the last way in: an account ' +
        'without a password keeps its only link (400, a page saying so). A missing or wrong `csrf_token` is 403.',
      tag: 'Accounts',
      access: 'browser',
      params: ProviderParams,
      body: { schema: SessionForm, media: ['form'] },
      response: { status: 303, description: 'Removed (or not signed in: to the sign-in page)' },
      otherResponses: {
        400: page('The link is the only way to sign in'),
        403: page('The CSRF token is missing or wrong'),
        404: page('No such link'),
      },
      errors: [],
    },
    async (ctx) => {
      const signedIn = await signedInUser(ctx, app.resolveWebSession);
      if (!signedIn) return browser.seeOther(ctx, actionFor('/account/sign-in', localeOf(ctx)));
      if (!browser.sessionCsrfMatches(signedIn.session, paramsOf(ctx).csrf_token)) return expiredForm(ctx, browser);
      const provider = ctx.params.provider!;
      refusedHere(ctx);
      await remember();
      await app.unlinkProvider.execute(signedIn.user, provider);
      browser.seeOther(ctx, `${settings(ctx)}&unlinked=${encodeURIComponent(displayName(provider))}#providers`);
    },
  );

  return router;
}

import { expect } from 'chai';
import { mkdirSync } from 'node:fs';
import type Koa from 'koa';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { listen, type RunningServer } from '../../src/server/server.js';
import { axe, describeViolations } from './axe.js';
import { launchChromium } from './chromium.js';
import { PUBLIC_URL, testEnv } from './env.js';

/**
 * What every browser test of the pages sets up once per `describe`: the forum listening on a free port, Debian's
 * Chromium, phone-sized contexts closed after each test, and signing in through `/account/sign-in` as a person does.
 */

/** A phone's screen (the pages are phone first), and a desktop's. */
export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

export type ContextOptions = NonNullable<Parameters<Browser['newContext']>[0]>;

/** Where to sign in: the language of the sign-in page, and the server (another one than the suite's, with other settings). */
export interface SignInOptions {
  lang?: string;
  at?: string;
}

export interface BrowserSuite {
  /** The forum (testEnv()'s app) on 127.0.0.1, for the whole `describe`. */
  readonly server: RunningServer;
  readonly browser: Browser;
  /**
   * A browser context at phone width (unless `options` say otherwise), closed after the test. The API's absolute URLs
   * (PUBLIC_URL: the avatars') are reached at `at` (the suite's server by default).
   */
  newContext(options?: ContextOptions, at?: string): Promise<BrowserContext>;
  /** Signs in on `page` through the sign-in page (login, password, Enter); fails saying so if the page refuses. */
  signIn(page: Page, login: string, password: string, options?: SignInOptions): Promise<void>;
  /** A page of a new context (`newContext`'s), signed in as `login` through the sign-in page. */
  signedInPage(login: string, password: string, options?: ContextOptions, signIn?: SignInOptions): Promise<Page>;
  /** Another server of the forum (an app configured otherwise: `configuredWith`), stopped after the test. */
  listen(app: Koa): Promise<RunningServer>;
  /**
   * axe-core's serious and critical findings on the page as it is now (described, '' for none). The page's HTML is
   * checked in a context of its own where the CSP is bypassed (axe is a script the pages' CSP rightly refuses), so
   * that the page itself is neither reloaded nor changed: a page that was the answer to a form, or that marked
   * something read when it was shown, is checked as the person saw it.
   */
  axe(page: Page, where?: string): Promise<string>;
}

/**
 * Sets up a browser suite in the current `describe` (its hooks: before, afterEach, after), and gives what it made.
 * `shots`: a folder for the suite's screenshots, made if missing.
 */
export function browserSuite(options: { shots?: string } = {}): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const servers: RunningServer[] = [];

  before(async () => {
    server = await listen(testEnv().app, 0, '127.0.0.1');
    browser = await launchChromium();
    if (options.shots) mkdirSync(options.shots, { recursive: true });
  });

  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
    for (const other of servers.splice(0)) await other.stop();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  const suite: BrowserSuite = {
    get server() {
      if (!server) throw new Error('the browser suite has not started (its before hook did not run)');
      return server;
    },
    get browser() {
      if (!browser) throw new Error('the browser suite has not started (its before hook did not run)');
      return browser;
    },

    async newContext(contextOptions = {}, at = suite.server.url) {
      const context = await suite.browser.newContext({ viewport: PHONE, ...contextOptions });
      contexts.push(context);
      await context.route(`${PUBLIC_URL}/**`, async (route) => {
        const response = await route.fetch({ url: route.request().url().replace(PUBLIC_URL, at) });
        await route.fulfill({ response });
      });
      return context;
    },

    async signIn(page, login, password, { lang, at = suite.server.url } = {}) {
      await page.goto(`${at}/account/sign-in${lang ? `?lang=${encodeURIComponent(lang)}` : ''}`);
      await page.locator('#login').fill(login);
      await page.locator('input[name=password]').fill(password);
      const answered = page.waitForResponse(
        (response) => response.request().method() === 'POST' && new URL(response.url()).pathname === '/account/sign-in',
      );
      await page.press('input[name=password]', 'Enter');
      await answered;
      try {
        await page.waitForURL((url) => url.pathname !== '/account/sign-in', { timeout: 10_000 });
      } catch {
        const said = await page.getByRole('alert').allInnerTexts();
        throw new Error(`signing in as ${login} did not leave the sign-in page: ${said.join(' ') || 'nothing said'}`);
      }
    },

    async signedInPage(login, password, contextOptions = {}, signIn = {}) {
      const context = await suite.newContext(contextOptions, signIn.at);
      const page = await context.newPage();
      await suite.signIn(page, login, password, signIn);
      return page;
    },

    async listen(app) {
      const other = await listen(app, 0, '127.0.0.1');
      servers.push(other);
      return other;
    },

    async axe(page, where = new URL(page.url()).pathname) {
      const html = await page.content();
      const url = page.url().split('#')[0]!;
      const viewport = page.viewportSize() ?? PHONE;
      const context = await suite.newContext({ viewport, bypassCSP: true, javaScriptEnabled: true });
      // The page's own script (the live count) has no session here: it is not what is checked.
      await context.route('**/assets/*.js', (route) => route.fulfill({ contentType: 'text/javascript', body: '' }));
      await context.route(
        (target) => target.href.split('#')[0] === url,
        (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body: html }),
      );
      const checked = await context.newPage();
      await checked.goto(url);
      const found = describeViolations(where, await axe(checked));
      await context.close();
      contexts.splice(contexts.indexOf(context), 1);
      return found;
    },
  };
  return suite;
}

/**
 * One page template looked at as a person and a checker would (the pages' template tests): `page` (as served) opens
 * `url`, which must answer `status` in `lang`, not wider than the screen; its screenshot goes to `shot`; `axePage`
 * (its CSP bypassed, for axe's own script) opens it too and axe-core finds nothing serious. What fails is pushed to
 * `failures`, so that one run names every page that falls short.
 */
export async function lookAtTemplate(
  page: Page,
  axePage: Page,
  at: { url: string; where: string; status: number; lang: string; shot: string },
  failures: string[],
): Promise<void> {
  const response = await page.goto(at.url);
  expect(response?.status(), at.where).to.equal(at.status);
  expect(await page.getAttribute('html', 'lang'), at.where).to.equal(at.lang);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) failures.push(`${at.where}: the page is ${overflow}px wider than the screen`);
  await page.screenshot({ path: at.shot, fullPage: true });
  await axePage.goto(at.url);
  const violations = await axe(axePage);
  if (violations.length > 0) failures.push(describeViolations(at.where, violations));
}

/**
 * Whatever the page complains about (a style sheet the CSP refused, a script's error; with `requests`, a request
 * that failed), each as `<url>: <what>`, gathered while the test runs.
 */
export function watch(page: Page, options: { requests?: boolean } = {}): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(`${page.url()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  if (options.requests) page.on('requestfailed', (request) => problems.push(`${request.url()}: ${request.failure()?.errorText}`));
  return problems;
}

/**
 * Presses Tab until `selector` has the focus (at most `limit` times), as a person does; fails naming where the focus
 * went if it never gets there (a page with scripts on: it asks the page where the focus is).
 */
export async function tabTo(page: Page, selector: string, limit = 60): Promise<void> {
  const path: string[] = [];
  for (let i = 0; i < limit; i++) {
    await page.keyboard.press('Tab');
    if ((await page.locator(`${selector}:focus`).count()) === 1) return;
    path.push(
      await page.evaluate(() => {
        const active = document.activeElement;
        if (!active) return '(nothing)';
        const name = (active.getAttribute('aria-label') ?? active.textContent ?? '').trim().slice(0, 20);
        return `${active.tagName.toLowerCase()}${active.id ? `#${active.id}` : ''}${name ? ` "${name}"` : ''}`;
      }),
    );
  }
  throw new Error(`${limit} presses of Tab never reached ${selector}; the focus went: ${path.join(' → ')}`);
}

/** Whether the focused element draws a focus ring (an outline, the browser's own or ours). */
export function focusRingShown(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return false;
    const style = getComputedStyle(active);
    return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  });
}

import { expect } from 'chai';
import { browserSuite } from '../support/browser-session.js';

/**
 * /docs in a real browser: Debian's Chromium driven by playwright-core (never a downloaded browser). The page
 * must load, list the operations, and ask nothing of any other host. A screenshot goes to test-output/ for a
 * person to look at. Run by `npm run test:browser` (CI installs Chromium first).
 */
describe('GET /docs in a browser', function () {
  this.timeout(90_000);
  const suite = browserSuite({ shots: 'test-output' });

  it('loads, lists every operation, and requests nothing from another host', async () => {
    const page = await (await suite.newContext({ viewport: { width: 1280, height: 2000 } })).newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    const response = await page.goto(`${suite.server.url}/docs`, { waitUntil: 'networkidle' });
    expect(response?.status()).to.equal(200);
    await page.waitForSelector('.opblock', { timeout: 30_000 });

    const spec = (await (await fetch(`${suite.server.url}/api/v3/openapi.json`)).json()) as { paths: Record<string, object> };
    const documented = Object.values(spec.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
    // Swagger UI (5.x) draws the operations near the viewport only: scroll through the page, collecting each one
    // drawn on the way.
    const seen = new Set<string>();
    for (let y = 0, height = 1; y < height; y += 1500) {
      await page.evaluate((top) => window.scrollTo(0, top), y);
      await page.waitForTimeout(100);
      for (const id of await page.$$eval('.opblock', (blocks) => blocks.map((block) => block.id))) seen.add(id);
      height = await page.evaluate(() => document.body.scrollHeight);
    }
    const operations = seen.size;
    expect(operations, 'operations shown').to.equal(documented);
    expect(await page.locator('.info .title').innerText()).to.include('forum API');
    expect(await page.locator('h1').first().innerText()).to.equal('forum API reference');
    expect(await page.locator('.topbar').count(), 'Swagger’s top bar').to.equal(0);
    expect(await page.locator('body').innerText()).not.to.match(/contract\s*§/i);

    await page.screenshot({ path: 'test-output/docs.png' });

    const origin = new URL(suite.server.url).origin;
    const elsewhere = requested.filter((url) => !url.startsWith(origin) && !url.startsWith('data:'));
    expect(elsewhere, 'requests to other hosts').to.deep.equal([]);
    expect(errors, 'errors in the page').to.deep.equal([]);
  });
});

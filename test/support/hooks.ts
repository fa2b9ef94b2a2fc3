import { startTestEnv, stopTestEnv, testEnv } from './env.js';
import { loadDocument } from './openapi.js';

/**
 * Mocha root hooks: one database per run, emptied before every test. The service's OpenAPI document is loaded
 * first: every HTTP response a test receives is checked against it (see openapi.ts).
 */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await startTestEnv();
    await loadDocument(testEnv().app);
  },
  async beforeEach() {
    await testEnv().reset();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopTestEnv();
  },
};

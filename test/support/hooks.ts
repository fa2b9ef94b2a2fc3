import { startTestEnv, stopTestEnv, testEnv } from './env.js';

/** Mocha root hooks: one database per run, emptied before every test. */
export const mochaHooks = {
  async beforeAll(this: Mocha.Context) {
    this.timeout(120_000);
    await startTestEnv();
  },
  async beforeEach() {
    await testEnv().reset();
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(60_000);
    await stopTestEnv();
  },
};

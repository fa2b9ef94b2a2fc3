import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { expect } from 'chai';
import { makeNode } from '../support/builders.js';
import { testEnv } from '../support/env.js';

/**
 * What a forumctl process loads for a command, and what it prints: by default against no database (a command that
 * needs none must not try).
 */
function loadedBy(
  args: string[],
  databaseUrl = 'postgres://nobody@127.0.0.1:1/none',
): { code: number | null; stdout: string; loaded: string[] } {
  const run = spawnSync(
    process.execPath,
    ['--import', path.resolve('test/support/loaded-modules.mjs'), 'bin/forumctl.js', ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: databaseUrl },
    },
  );
  const loaded = run.stderr.split('\n').flatMap((line) => (line.startsWith('loaded: ') ? [line.slice('loaded: '.length)] : []));
  return { code: run.status, stdout: run.stdout, loaded };
}

/** Issue 44: every forumctl call took two seconds, loading everything a command against the database needs. */
describe('forumctl starts with what the command needs', () => {
  for (const args of [['--help'], ['--version'], ['users', '--help'], ['completion', 'bash']]) {
    it(`answers ${args.join(' ')} without loading the database's driver, the ORM or the service`, () => {
      const { code, stdout, loaded } = loadedBy(args);
      expect(code).to.equal(0);
      expect(stdout.length).to.be.greaterThan(0);
      expect(loaded.length, 'the hook saw the modules load').to.be.greaterThan(10);
      const heavy = loaded.filter((url) =>
        /node_modules\/(pg|@mikro-orm|knex|graphile-worker|koa|sharp|@aws-sdk)\/|dist\/src\/container\.js/.test(url),
      );
      expect(heavy).to.deep.equal([]);
    });
  }

  it('runs a command against the database without loading the API, the pages or the HTTP app', async function () {
    this.timeout(30_000);
    await makeNode('Ruby');
    const { code, stdout, loaded } = loadedBy(['nodes', 'list'], testEnv().config.databaseUrl!);
    expect(code).to.equal(0);
    expect(stdout, 'the command read the database').to.contain('Ruby');
    const delivery = loaded.filter((url) =>
      /dist\/src\/(adapters\/(api|web)|server)\/|dist\/src\/container\.js|node_modules\/(koa|@koa\/[^/]+|prom-client)\//.test(
        url,
      ),
    );
    expect(delivery).to.deep.equal([]);
  });
});

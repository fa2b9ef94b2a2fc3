import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

describe('in production (NODE_ENV=production)', () => {
  it('refuses to start without DATABASE_URL, with a clear message, rather than make an embedded database', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'forum-production-'));
    for (const entry of [['dist/src/main.js'], ['bin/forumctl.js', 'users', 'list']]) {
      const run = spawnSync(process.execPath, entry, {
        env: { PATH: process.env.PATH, NODE_ENV: 'production', FORUM_DATA_DIR: dataDir, PORT: '0' },
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(run.status, entry.join(' ')).to.equal(1);
      expect(run.stderr).to.contain('DATABASE_URL is not set').and.contain('will not start an embedded one');
      expect(readdirSync(dataDir), 'nothing was created').to.deep.equal([]);
    }
  });
});

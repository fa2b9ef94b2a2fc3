import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';

const CONFIG = path.resolve('.dependency-cruiser.cjs');
const DEPCRUISE = path.resolve('node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

/**
 * Runs the check of `npm run lint:deps` (the same CLI, the same configuration) on a copy of src and cli with
 * `planted` files added (path: source), and removes the copy whatever happens. The copy reaches the project's
 * node_modules through a link, which --preserve-symlinks keeps as `node_modules/…` in the paths the rules match.
 */
function checkCopy(planted: Record<string, string> = {}): { status: number | null; output: string } {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'forum-dependency-rule-'));
  try {
    cpSync('src', path.join(folder, 'src'), { recursive: true });
    cpSync('cli', path.join(folder, 'cli'), { recursive: true });
    symlinkSync(path.resolve('node_modules'), path.join(folder, 'node_modules'), 'dir');
    for (const [file, source] of Object.entries(planted)) writeFileSync(path.join(folder, file), source);
    const run = spawnSync(process.execPath, [DEPCRUISE, 'src', 'cli', '--config', CONFIG, '--preserve-symlinks'], {
      cwd: folder,
      encoding: 'utf8',
    });
    return { status: run.status, output: run.stdout + run.stderr };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function typeScriptFiles(folder: string): number {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts')).length;
}

/** The dependency rule is checked on the TypeScript sources, where type-only imports still are. */
describe('the dependency rule (dependency-cruiser on the sources)', () => {
  it('passes the sources as they are, every one of them read', () => {
    const { status, output } = checkCopy();
    expect(status, output).to.equal(0);
    expect(output).to.contain('no dependency violations found');
    const modules = Number(/\((\d+) modules, \d+ dependencies cruised\)/.exec(output)?.[1]);
    expect(modules, output).to.be.at.least(typeScriptFiles('src') + typeScriptFiles('cli'));
  });

  it('fails on a type-only import of a package in src/domain', () => {
    const { status, output } = checkCopy({
      'src/domain/planted.ts': "import type { Context } from 'koa';\n\nexport type Planted = Context;\n",
    });
    expect(status, output).to.not.equal(0);
    expect(output).to.match(/error domain-is-pure: src\/domain\/planted\.ts → node_modules\/koa\//);
    expect(output).to.contain('1 dependency violations (1 errors, 0 warnings)');
  });

  it('reads the views (TSX) too, and keeps the pages and the API apart', () => {
    const { status, output } = checkCopy({
      'src/adapters/web/planted.tsx':
        "import type { ApiUseCases } from '../api/app.js';\n\nexport const Planted = (props: { api: ApiUseCases }) => <p>{String(props.api)}</p>;\n",
    });
    expect(status, output).to.not.equal(0);
    expect(output).to.match(/error api-and-web-stay-apart: src\/adapters\/web\/planted\.tsx → src\/adapters\/api\/app\.ts/);
  });

  it('fails on a circle made of type-only imports', () => {
    const { status, output } = checkCopy({
      'src/domain/planted-a.ts': "import type { B } from './planted-b.js';\n\nexport interface A {\n  b: B;\n}\n",
      'src/domain/planted-b.ts': "import type { A } from './planted-a.js';\n\nexport interface B {\n  a: A;\n}\n",
    });
    expect(status, output).to.not.equal(0);
    expect(output).to.match(
      /error no-circular: src\/domain\/planted-a\.ts →\s+src\/domain\/planted-b\.ts →\s+src\/domain\/planted-a\.ts/,
    );
    expect(output).to.not.contain('domain-is-pure');
  });
});

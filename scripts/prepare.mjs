// npm runs `prepare` after every install in a checkout. A development install has the TypeScript compiler and
// builds dist/ (so that `npx forumctl` works right away); a production install (`npm ci --omit=dev`) has no
// compiler and runs the dist/ that was built before it (the Dockerfile builds it in an earlier stage).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
let compiler;
try {
  // typescript's package exports only its package.json and API, not bin/: find tsc through the package.json.
  const manifest = require.resolve('typescript/package.json');
  compiler = path.join(path.dirname(manifest), require(manifest).bin.tsc);
} catch {
  if (!existsSync('dist/src/main.js')) {
    console.warn('prepare: no TypeScript compiler here (a production install) and no dist/: build with `npm run build` first');
  }
  process.exit(0);
}
execFileSync(process.execPath, [compiler, '-p', 'tsconfig.json'], { stdio: 'inherit' });

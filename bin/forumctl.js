#!/usr/bin/env node
// forumctl runs from the compiled output: `npm install` builds it (the `prepare` script), as does `npm run build`.
import { existsSync } from 'node:fs';
import module from 'node:module';

// Node 22.1 and later keep what they compiled of each module on disk, for the next call to start faster (most of a
// call is loading modules: docs/performance.md, round fourteen). Node 20 has no such cache: this does nothing there.
module.enableCompileCache?.();

const entry = new URL('../dist/cli/forumctl.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('forumctl is not built yet: run `npm run build` (or `npm install`) in the project first');
  process.exit(1);
}
await import(entry.href);

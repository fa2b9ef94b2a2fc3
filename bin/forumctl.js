#!/usr/bin/env node
// forumctl runs from the compiled output: `npm install` builds it (the `prepare` script), as does `npm run build`.
import { existsSync } from 'node:fs';

const entry = new URL('../dist/cli/forumctl.js', import.meta.url);
if (!existsSync(entry)) {
  console.error('forumctl is not built yet: run `npm run build` (or `npm install`) in the project first');
  process.exit(1);
}
await import(entry.href);

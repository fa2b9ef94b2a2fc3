// Follows README.md from a fresh clone, as a new user would, and fails when a snippet stops working.
//
// - Clones the repository's HEAD into a temporary folder (what was committed, nothing else).
// - `npm install && npm start`, the README's first command, runs with the service in the background; the
//   walkthrough waits for it to answer /readyz.
// - Every other ```sh block of the README then runs in order, verbatim, in one bash session (so a variable set
//   in one block is there in the next), with `set -euo pipefail`, and with `curl` failing on an HTTP error
//   status (it still prints the body): a command that fails, fails the walkthrough.
// - Not run: `npm test` lines (CI runs the suite itself, just before this) and blocks preceded by a
//   `<!-- walkthrough: skip (reason) -->` comment (they need what a fresh machine lacks, or run for minutes).
// - Finally the service gets SIGTERM and must stop cleanly (its last log line says `stopped`, which it writes
//   only on a clean shutdown, with exit code 0), leaving no PostgreSQL running.
//
// Usage: node scripts/readme-walkthrough.mjs   (needs port 3000 free, as the README's commands use it)
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

const SERVICE = 'http://127.0.0.1:3000';
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const workspace = mkdtempSync(path.join(os.tmpdir(), 'forum-walkthrough-'));
// As root, the embedded PostgreSQL runs as the `postgres` user, which must be able to enter the clone (the README
// says so); mkdtemp makes the folder private.
chmodSync(workspace, 0o711);
const clone = path.join(workspace, 'forum');
let server = null;

function step(message) {
  console.log(`\n=== walkthrough: ${message}`);
}

/** The README's ```sh blocks, each with its line number and whether a skip comment precedes it. */
function shellBlocks(readme) {
  const lines = readme.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```sh') continue;
    const start = i;
    const body = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) body.push(lines[i]);
    const before = lines.slice(Math.max(0, start - 2), start).join('\n');
    const skip = /<!-- walkthrough: skip \(([^)]*)\) -->/.exec(before);
    blocks.push({ line: start + 1, body, skip: skip ? skip[1] : null });
  }
  return blocks;
}

async function waitForService(deadlineMs) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}`);
    try {
      const res = await fetch(`${SERVICE}/readyz`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`the service did not answer ${SERVICE}/readyz within ${deadlineMs / 1000} s`);
}

/**
 * SIGTERM to npm's process alone, as systemd, pm2 or `kill <pid>` send it (the README says that stops the service;
 * Ctrl-C, which signals the whole process group, stops it too). The service is done when its output closes (node
 * was the last to hold it).
 */
async function stopService() {
  if (server === null) return;
  const outputClosed = new Promise((resolve) => server.stdout.once('close', resolve));
  try {
    process.kill(server.pid, 'SIGTERM');
  } catch {
    return; // npm is gone already
  }
  await Promise.race([outputClosed, sleep(30_000)]);
}

async function main() {
  try {
    await fetch(`${SERVICE}/healthz`);
    throw new Error(`something already listens on ${SERVICE}: the README's commands need that port`);
  } catch (error) {
    if (error.message.startsWith('something already')) throw error;
  }

  step(`git clone ${root} ${clone}`);
  execFileSync('git', ['clone', '--quiet', root, clone], { stdio: 'inherit' });
  const blocks = shellBlocks(readFileSync(path.join(clone, 'README.md'), 'utf8'));
  const [first, ...rest] = blocks;
  if (!first || !first.body.some((line) => line.startsWith('npm install && npm start'))) {
    throw new Error("the README's first shell block must start with `npm install && npm start`");
  }

  step('npm install');
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: clone, stdio: 'inherit' });
  // The README promises that npm install builds the project, so that npx forumctl works at once.
  execFileSync('npx', ['forumctl', '--help'], { cwd: clone, stdio: 'ignore' });
  step('npm start (in the background)');
  server = spawn('npm', ['start'], { cwd: clone, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let serverLog = '';
  server.stdout.on('data', (chunk) => (serverLog = (serverLog + chunk).slice(-65_536)));
  server.stderr.on('data', (chunk) => (serverLog = (serverLog + chunk).slice(-65_536)));
  await waitForService(120_000);

  const script = ['set -euo pipefail', 'curl() { command curl --fail-with-body "$@"; }'];
  for (const block of rest) {
    if (block.skip) {
      console.log(`(README line ${block.line}: skipped, ${block.skip})`);
      continue;
    }
    script.push(`echo; echo "--- README line ${block.line}"`);
    for (const line of block.body) {
      if (/^npm test\b/.test(line.trim())) continue; // CI runs the suite itself
      script.push(line);
    }
  }
  const scriptFile = path.join(workspace, 'walkthrough.sh');
  writeFileSync(scriptFile, `${script.join('\n')}\n`);
  step('every other shell block of the README, in order');
  try {
    execFileSync('bash', [scriptFile], { cwd: clone, stdio: 'inherit', env: { ...process.env, DATABASE_URL: '' } });
  } catch (error) {
    console.error(`\n--- the service's last output:\n${serverLog}`);
    throw new Error(`a README snippet failed (exit ${error.status}); the commands ran are in ${scriptFile}`);
  }

  step('SIGTERM to npm start');
  await stopService();
  const lines = serverLog.split('\n').filter((line) => line.startsWith('{'));
  const last = JSON.parse(lines.at(-1) ?? '{}');
  if (last.msg !== 'stopped') throw new Error(`the service did not stop cleanly after SIGTERM:\n${serverLog}`);
  if (existsSync(path.join(clone, '.data', 'pg', 'postmaster.pid'))) {
    throw new Error('the embedded PostgreSQL still runs after the last process left');
  }
  step('the README works as written');
}

try {
  await main();
  rmSync(workspace, { recursive: true, force: true });
} catch (error) {
  console.error(`\nwalkthrough failed: ${error.message}`);
  await stopService().catch(() => undefined);
  process.exitCode = 1;
}

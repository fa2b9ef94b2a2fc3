// Follows README.md and the guides it lists from a fresh clone, as a new user would, and fails when a snippet stops
// working.
//
// - Clones the repository's HEAD into a temporary folder (what was committed, nothing else).
// - `npm install && npm start`, the README's first command, runs with the service in the background; the
//   walkthrough waits for it to answer /readyz.
// - Every other ```sh block of the README then runs in order, verbatim, in one bash session (so a variable set
//   in one block is there in the next), with `set -euo pipefail`, and with `curl` failing on an HTTP error
//   status (it still prints the body): a command that fails, fails the walkthrough. Then, in the same session and
//   against the same service, the blocks of each guide of the README's "Guides" list (the first link of each
//   numbered item), in the list's order.
// - Not run: `npm test` lines (CI runs the suite itself, just before this) and blocks preceded by a
//   `<!-- walkthrough: skip (reason) -->` comment (they need what a fresh machine lacks, or run for minutes).
// - A block that holds nothing but a start command (`EMAIL_DELAY_MINUTES=0 npm start`: settings, then `npm
//   start`) is what a reader types in the service's terminal after Ctrl-C: the running service gets SIGTERM and
//   must stop cleanly, and the block's command starts it again in the background.
// - Each block's commands run with stdin from /dev/null (a command never reads the commands that follow it). A
//   failure names the file, the block's line and the failing command's line; a block running past 5 minutes fails.
// - Finally the service gets SIGTERM and must stop cleanly (its last log line says `stopped`, which it writes
//   only on a clean shutdown, with exit code 0), leaving no PostgreSQL running, and the clone must hold no file
//   that git does not ignore (a command that leaves a file behind writes it somewhere else).
//
// Usage: node scripts/readme-walkthrough.mjs   (needs port 3000 free, as the README's commands use it)
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';

const SERVICE = 'http://127.0.0.1:3000';
const BLOCK_TIMEOUT_MS = 5 * 60_000;
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const workspace = mkdtempSync(path.join(os.tmpdir(), 'forum-walkthrough-'));
// As root, the embedded PostgreSQL runs as the `postgres` user, which must be able to enter the clone (the README
// says so); mkdtemp makes the folder private.
chmodSync(workspace, 0o711);
const clone = path.join(workspace, 'forum');
const blockFolder = path.join(workspace, 'blocks');
/** What the snippets run with: never the caller's database, as on a fresh machine. */
const environment = { ...process.env, DATABASE_URL: '' };
/** The service running now: its npm process and what it printed. */
let server = null;

function step(message) {
  console.log(`\n=== walkthrough: ${message}`);
}

/** A file's ```sh blocks, each with its file, line number and whether a skip comment precedes it. */
function shellBlocks(file, text) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== '```sh') continue;
    const start = i;
    const body = [];
    for (i++; i < lines.length && lines[i].trim() !== '```'; i++) body.push(lines[i]);
    const before = lines.slice(Math.max(0, start - 2), start).join('\n');
    const skip = /<!-- walkthrough: skip \(([^)]*)\) -->/.exec(before);
    blocks.push({ file, line: start + 1, body, skip: skip ? skip[1] : null });
  }
  return blocks;
}

/** The guides of the README's "Guides" section: the first link of each numbered item, in order. */
function guides(readme) {
  const section = /^## Guides\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme);
  if (!section) throw new Error('the README has no "## Guides" section');
  const files = [...section[1].matchAll(/^\d+\. \[[^\]]*\]\(([^)#]+)(?:#[^)]*)?\)/gm)].map((match) => match[1]);
  if (files.length === 0) throw new Error('the README\'s "Guides" section lists no guide');
  return files;
}

/** `NAME=value … npm start [args]` alone in a block (comments aside): the service started with those settings. */
function startCommand(block) {
  const lines = block.body.filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const starts = lines.some((line) => /^\s*(?:[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*npm start\b/.test(line));
  if (!starts) return null;
  if (lines.length !== 1) throw new Error(`${where(block)}: a block that starts the service must hold that command alone`);
  return lines[0].trim();
}

function where(block) {
  return `${block.file} line ${block.line}`;
}

async function waitForService(deadlineMs) {
  const deadline = Date.now() + deadlineMs;
  while (Date.now() < deadline) {
    if (server.process.exitCode !== null) throw new Error(`npm start exited with ${server.process.exitCode}`);
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

/** Starts the service in the background: `npm start`, or a block's start command run by bash as it is written. */
async function startService(command) {
  const child =
    command === null
      ? spawn('npm', ['start'], { cwd: clone, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: environment })
      : // bash runs a lone command in its own process (exec), so the signal below reaches npm as before.
        spawn('bash', ['-c', command], { cwd: clone, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: environment });
  server = { process: child, log: '' };
  const keep = (chunk) => (server.log = (server.log + chunk).slice(-65_536));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  await waitForService(120_000);
}

/**
 * SIGTERM to npm's process alone, as systemd, pm2 or `kill <pid>` send it (the README says that stops the service;
 * Ctrl-C, which signals the whole process group, stops it too). The service is done when its output closes (node
 * was the last to hold it); its last log line must then say `stopped`.
 */
async function stopService() {
  if (server === null) return;
  const { process: child } = server;
  const outputClosed = new Promise((resolve) => child.stdout.once('close', resolve));
  try {
    process.kill(child.pid, 'SIGTERM');
  } catch {
    return; // npm is gone already
  }
  await Promise.race([outputClosed, sleep(30_000)]);
  const lines = server.log.split('\n').filter((line) => line.startsWith('{'));
  const last = JSON.parse(lines.at(-1) ?? '{}');
  if (last.msg !== 'stopped') throw new Error(`the service did not stop cleanly after SIGTERM:\n${server.log}`);
}

/**
 * One bash for every block, fed through its stdin: each block is written to a file of its own (blank lines first, so
 * that bash's line numbers are the Markdown file's) and sourced with stdin from /dev/null; bash then writes `done`
 * to descriptor 3. A command that fails ends bash (`set -e`), after the ERR trap named it.
 */
function startShell() {
  mkdirSync(blockFolder);
  const bash = spawn('bash', ['--noprofile', '--norc'], {
    cwd: clone,
    stdio: ['pipe', 'inherit', 'inherit', 'pipe'],
    env: environment,
  });
  const done = createInterface({ input: bash.stdio[3] });
  const waiting = [];
  done.on('line', () => waiting.shift()?.resolve());
  const exited = new Promise((resolve) => bash.once('exit', (code) => resolve(code ?? 1)));
  exited.then((code) => {
    for (const waiter of waiting.splice(0)) waiter.reject(new Error(`bash exited with ${code}`));
  });
  bash.stdin.write(
    [
      'set -euo pipefail',
      'curl() { command curl --fail-with-body "$@"; }',
      // The failing command and its line in the Markdown file: the frame of the block's file, when the command
      // failed in a function (curl above); once, from the shell itself (not from the command substitutions in it,
      // whose failure fails the command they are in).
      'set -E',
      '__walk_failed() {',
      '  [ "$BASH_SUBSHELL" = 0 ] || return 0',
      '  local i line=$1',
      '  for ((i = 1; i < ${#BASH_SOURCE[@]}; i++)); do',
      '    if [ "${BASH_SOURCE[i]}" = "$__walk_source" ]; then line=${BASH_LINENO[i - 1]}; break; fi',
      '  done',
      '  echo "--- failed: $__walk_file line $line: $2" >&2',
      '}',
      `trap '__walk_failed "$LINENO" "$BASH_COMMAND"' ERR`,
      '',
    ].join('\n'),
  );
  let count = 0;
  return {
    async run(block) {
      const file = path.join(blockFolder, `${++count}.sh`);
      const lines = block.body.map((line) => (/^npm test\b/.test(line.trim()) ? '' : line)); // CI runs the suite itself
      writeFileSync(file, `${'\n'.repeat(block.line)}${lines.join('\n')}\n`);
      const finished = new Promise((resolve, reject) => waiting.push({ resolve, reject }));
      bash.stdin.write(
        `__walk_file=${JSON.stringify(block.file)} __walk_source=${JSON.stringify(file)}\n` +
          `source "$__walk_source" </dev/null\necho done >&3\n`,
      );
      let timer;
      const timeout = new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`still running after ${BLOCK_TIMEOUT_MS / 60_000} minutes`)), BLOCK_TIMEOUT_MS);
      });
      try {
        await Promise.race([finished, timeout]);
      } catch (error) {
        bash.kill('SIGKILL');
        throw new Error(`${where(block)} failed: ${error.message}`);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      bash.stdin.end();
      return exited;
    },
  };
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
  const readme = readFileSync(path.join(clone, 'README.md'), 'utf8');
  const [first, ...rest] = shellBlocks('README.md', readme);
  if (!first || !first.body.some((line) => line.startsWith('npm install && npm start'))) {
    throw new Error("the README's first shell block must start with `npm install && npm start`");
  }
  const files = guides(readme);
  const blocks = [...rest];
  for (const file of files) {
    if (!existsSync(path.join(clone, file))) throw new Error(`the README lists ${file}, which is not in the repository`);
    blocks.push(...shellBlocks(file, readFileSync(path.join(clone, file), 'utf8')));
  }

  step('npm install');
  execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: clone, stdio: 'inherit' });
  // The README promises that npm install builds the project, so that npx forumctl works at once.
  execFileSync('npx', ['forumctl', '--help'], { cwd: clone, stdio: 'ignore' });
  step('npm start (in the background)');
  await startService(null);

  step(`every other shell block of the README, then of ${files.join(', ')}`);
  const shell = startShell();
  for (const block of blocks) {
    if (block.skip) {
      console.log(`\n(${where(block)}: skipped, ${block.skip})`);
      continue;
    }
    const command = startCommand(block);
    if (command !== null) {
      console.log(`\n--- ${where(block)}: the service again, as \`${command}\``);
      await stopService();
      await startService(command);
      continue;
    }
    console.log(`\n--- ${where(block)}`);
    try {
      await shell.run(block);
    } catch (error) {
      console.error(`\n--- the service's last output:\n${server.log}`);
      throw new Error(`${error.message}; the commands ran are in ${blockFolder}`);
    }
  }
  const code = await shell.close();
  if (code !== 0) throw new Error(`bash exited with ${code} after the last block`);

  step('SIGTERM to npm start');
  await stopService();
  if (existsSync(path.join(clone, '.data', 'pg', 'postmaster.pid'))) {
    throw new Error('the embedded PostgreSQL still runs after the last process left');
  }
  const untracked = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: clone, encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.startsWith('??'));
  if (untracked.length > 0) throw new Error(`the commands left files in the clone:\n${untracked.join('\n')}`);
  step('the README and its guides work as written');
}

const started = Date.now();
try {
  await main();
  rmSync(workspace, { recursive: true, force: true });
} catch (error) {
  console.error(`\nwalkthrough failed: ${error.message}`);
  await stopService().catch(() => undefined);
  process.exitCode = 1;
}
console.log(`(${Math.round((Date.now() - started) / 1000)} s)`);

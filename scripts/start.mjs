// `npm start`: build dist/ (unless `--no-build`), then run the server in a child process and pass the stop signals
// on to it, exiting as it exits. npm forwards SIGTERM and SIGINT only to the process its script line starts; with
// `npm run build && node …` that process was a shell, which died of the signal and left the server running (still
// holding the port). The script line is `exec node scripts/start.mjs`, so npm's child is this process, and this
// process never leaves the server behind:
// - SIGTERM and SIGINT go to the server as they are; SIGHUP goes as SIGTERM (a graceful stop: the server has no
//   SIGHUP handler and would die of it);
// - a signal during the build stops the build, and nothing is started (exit 0, as the server does when stopped
//   while starting);
// - should npm itself die (a SIGHUP or SIGKILL to npm is not forwarded), the server is sent SIGTERM.
// The exit code is the server's; a server killed by a signal is reported by dying of the same signal.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const build = !process.argv.slice(2).includes('--no-build');
const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'];

/** The process running now (the build, then the server), and whether a stop was asked for. */
let child = null;
let stopping = false;

const stop = (signal) => {
  stopping = true;
  child?.kill(signal === 'SIGHUP' ? 'SIGTERM' : signal);
};
for (const signal of signals) process.on(signal, stop);

// npm gone (this process was handed to init): nobody will forward a signal any more.
const parent = process.ppid;
const watch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(watch);
  stop('SIGTERM');
}, 500).unref();

/** Run `args` under this node; resolves with how it ended. */
function run(args) {
  child = spawn(process.execPath, args, { cwd: root, stdio: 'inherit' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
}

/** End this process as the child ended. */
function exitLike({ code, signal }) {
  if (signal) {
    for (const name of signals) process.removeAllListeners(name);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
}

async function main() {
  if (build) {
    const require = createRequire(import.meta.url);
    // typescript's package exports only its package.json and API, not bin/: find tsc through the package.json.
    const manifest = require.resolve('typescript/package.json');
    const tsc = path.join(path.dirname(manifest), require(manifest).bin.tsc);
    const built = await run([tsc, '-p', 'tsconfig.json']);
    if (stopping) return process.exit(0);
    if (built.code !== 0) return exitLike(built);
  }
  if (stopping) return process.exit(0);
  exitLike(await run(['dist/src/main.js']));
}

await main();

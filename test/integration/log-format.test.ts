import { spawn } from 'node:child_process';
import { expect } from 'chai';
import { testEnv } from '../support/env.js';
import { startServerProcess } from '../support/server-process.js';

/** Runs the server under `script` (a pseudo-terminal) until it says it listens, and returns what it printed. */
function outputOnATerminal(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', `${process.execPath} dist/src/main.js`, '/dev/null'], {
      env: { ...process.env, DATABASE_URL: testEnv().config.databaseUrl!, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no listening line in time: ${output}`));
    }, 30_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (/forum is listening[\s\S]*url/.test(output)) {
        clearTimeout(timer);
        child.once('exit', () => resolve(output));
        child.kill('SIGTERM');
      }
    });
  });
}

describe('log format', () => {
  it('is readable lines on a terminal (pino-pretty) and JSON otherwise', async function () {
    this.timeout(40_000);
    // Colours too: compare the text without them.
    const pretty = (await outputOnATerminal()).replace(/\u001b\[[0-9;]*m/g, '');
    expect(pretty).to.match(/\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(\d+\): forum is listening/);
    expect(pretty).to.match(/url: "http:\/\/127\.0\.0\.1:\d+"/);
    expect(pretty).not.to.contain('"level":30');

    const piped = await startServerProcess({ DATABASE_URL: testEnv().config.databaseUrl! });
    try {
      expect(piped.output()).to.match(/^\{"level":30,.*"msg":"forum is listening"\}$/m);
    } finally {
      await piped.terminate();
    }
  });
});

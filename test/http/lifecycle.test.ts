import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect } from 'chai';
import { testEnv } from '../support/env.js';

describe('the server process', () => {
  it('serves, then on SIGTERM finishes, closes the database and exits 0', async function () {
    this.timeout(60_000);
    const child = spawn(process.execPath, ['dist/src/main.js'], {
      env: { ...process.env, DATABASE_URL: testEnv().config.databaseUrl!, PORT: '0', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const listening = new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /"url":"(http:\/\/[^"]+)"/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited early with ${code}: ${output}`)));
    });
    const url = await listening;
    const res = await fetch(`${url}/api/v3/topics`);
    expect(res.status).to.equal(200);
    // The request log line is written when the response finishes: give it a moment to arrive.
    const requestLog = () => output.split('\n').find((l) => l.includes('"url":"/api/v3/topics"'));
    for (let i = 0; i < 50 && !requestLog(); i++) await new Promise((r) => setTimeout(r, 20));
    expect(JSON.parse(requestLog()!)).to.include({ msg: 'request completed' });
    child.kill('SIGTERM');
    const [code] = await once(child, 'exit');
    expect(code).to.equal(0);
    expect(output).to.include('shutting down');
  });
});

import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { expect } from 'chai';
import { makeNode, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { buildProgram } from '../../cli/program.js';
import type { CliRuntime } from '../../cli/runtime.js';

/** Every command of the tree, as the words that name it (`['users', 'create']`). */
function commandPaths(): string[][] {
  const program = buildProgram({ io: {} } as unknown as CliRuntime);
  const paths: string[][] = [];
  const walk = (command: Command, prefix: string[]) => {
    for (const sub of command.commands) {
      paths.push([...prefix, sub.name()]);
      walk(sub, [...prefix, sub.name()]);
    }
  };
  walk(program, []);
  return paths;
}

describe('forumctl, to the conventions of gh and kubectl', () => {
  it('--version prints the version of package.json', async () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await forumctl([flag]);
      expect(result.code).to.equal(0);
      expect(result.stdout.trim()).to.equal(manifest.version);
    }
  });

  it("shows the global options and an example in every command's help, groups included", async () => {
    const paths = commandPaths();
    expect(paths.length).to.be.above(40);
    for (const words of paths) {
      const help = (await forumctl([...words, '--help'])).stdout;
      expect(help, words.join(' ')).to.contain('Global Options:');
      for (const option of ['--json', '--as <login>', '--yes']) expect(help, words.join(' ')).to.contain(option);
      expect(help, words.join(' ')).to.match(/Examples?:\n {2}\$ .*forumctl /);
    }
    expect((await forumctl(['--help'])).stdout).to.match(/Examples:\n {2}\$ forumctl /);
  });

  describe('errors', () => {
    it('with --json, are one JSON document on stderr, named as the API names them, whatever failed', async () => {
      await makeUser('alice');
      const cases: [string[], number, string][] = [
        [['users', 'show', 'nobody', '--json'], 4, 'ResourceNotFound'],
        [['users', 'list', '--limit', 'abc', '--json'], 2, 'ParameterInvalid'],
        [['users', 'lisst', '--json'], 2, 'ParameterInvalid'],
        [['users', 'list', '--limitt', '3', '--json'], 2, 'ParameterInvalid'],
        [['audit', 'list', '--as', 'alice', '--json'], 3, 'AccessDenied'],
        [['nodes', 'create', '  ', '--json'], 2, 'RecordInvalid'],
      ];
      for (const [args, code, error] of cases) {
        const result = await forumctl(args);
        expect(result.code, args.join(' ')).to.equal(code);
        expect(result.stdout, args.join(' ')).to.equal('');
        const parsed = JSON.parse(result.stderr) as { error: string; message: string };
        expect(parsed.error, args.join(' ')).to.equal(error);
        expect(parsed.message, args.join(' '))
          .to.be.a('string')
          .and.not.match(/^error:/);
      }
    });

    it('without --json, are one line starting with "error:"', async () => {
      const result = await forumctl(['users', 'show', 'nobody']);
      expect(result.code).to.equal(4);
      expect(result.stderr).to.equal('error: user nobody not found');
    });

    it('validates every numeric option: a clear message and exit 2, never a database message', async () => {
      for (const [args, message] of [
        [['users', 'list', '--limit', 'abc'], 'limit must be a whole number'],
        [['users', 'list', '--limit', '0'], 'limit must be between 1 and 10000'],
        [['users', 'list', '--limit', '-5'], 'limit must be between 1 and 10000'],
        [['users', 'list', '--offset', '1.5'], 'offset must be a whole number'],
        [['audit', 'list', '--limit', '1000'], 'limit must be between 1 and 150'],
        [['webhooks', 'deliveries', '1', '--limit', 'x'], 'limit must be a whole number'],
        [['topics', 'move', '--from-node', '1', '--to-node', '2', '--batch-size', '0', '--yes'], 'batch-size must be between'],
      ] as const) {
        const result = await forumctl([...args]);
        expect(result.code, args.join(' ')).to.equal(2);
        expect(result.stderr, args.join(' ')).to.contain(message);
      }
    });

    it('names a node that does not exist as not found (exit 4)', async () => {
      const alice = await makeUser('alice');
      const topic = await makeTopic(alice, await makeNode('General'));
      const result = await forumctl(['topics', 'move', String(topic), '--node', '999']);
      expect(result.code).to.equal(4);
      expect(result.stderr).to.equal('error: node 999 not found');
    });
  });

  describe('tables', () => {
    it('are a header, a rule and one line per row on a terminal, and tab-separated rows without a header in a pipe', async () => {
      await makeUser('alice');
      const shown = await forumctl(['users', 'list']);
      const lines = shown.stdout.split('\n');
      expect(lines).to.have.length(4);
      expect(lines[0]).to.match(/^id +login +name +email +role +topics$/);
      expect(lines[1]).to.match(/^─+( +─+){5}$/);
      expect(lines[3]).to.match(/^\d+ +alice /);
      const piped = await forumctl(['users', 'list'], { stdoutTerminal: false });
      const rows = piped.stdout.split('\n').map((line) => line.split('\t'));
      expect(rows.map((row) => row[1])).to.deep.equal(['system', 'alice']);
      expect(rows.every((row) => row.length === 6)).to.equal(true);
      expect(piped.stdout).not.to.contain('│');
    });
  });

  describe('users create', () => {
    it('asks for the password twice on a terminal, without echoing it, and never prints it', async () => {
      const result = await forumctl(['users', 'create', 'bob', '--email', 'bob@example.com', '--json'], {
        terminal: true,
        secrets: ['a long password', 'a long password'],
      });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('password: \npassword again: ');
      expect(result.stdout + result.stderr).not.to.contain('a long password');
      const mismatch = await forumctl(['users', 'create', 'carol', '--email', 'carol@example.com'], {
        terminal: true,
        secrets: ['a long password', 'another one'],
      });
      expect(mismatch.code).to.equal(2);
      expect(mismatch.stderr).to.contain('the two passwords differ');
    });

    it('reads the first line of stdin in a script, and asks nothing', async () => {
      const result = await forumctl(['users', 'create', 'dave', '--email', 'dave@example.com', '--json'], {
        stdin: 'piped password\n',
      });
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('');
    });
  });

  describe('commands that change one record print it', () => {
    it('nodes hide and unhide print the node', async () => {
      const node = await makeNode('Ruby');
      const hidden = await forumctl(['nodes', 'hide', String(node), '--json']);
      expect(hidden.json()).to.include({ id: node, name: 'Ruby', hidden: true });
      const shown = await forumctl(['nodes', 'unhide', String(node)]);
      expect(shown.stdout).to.equal(`node Ruby (id ${node}) is visible`);
    });

    it('topics excellent and close print the topic', async () => {
      const alice = await makeUser('alice');
      const topic = await makeTopic(alice, await makeNode('General'));
      expect((await forumctl(['topics', 'excellent', String(topic), '--json'])).json()).to.include({ id: topic, excellent: 1 });
      const closed = (await forumctl(['topics', 'close', String(topic), '--json'])).json<{ closed_at: string | null }>();
      expect(closed.closed_at).to.be.a('string');
    });
  });

  it('seed names everything it will add before it asks', async () => {
    const result = await forumctl(['seed', '--users', '2', '--topics', '3'], { terminal: true, answer: false });
    expect(result.code).to.equal(1);
    expect(result.stderr).to.contain(
      'Add 2 users, 20 nodes, 3 topics, 1,000,000 replies, 500,000 likes, 1,000,000 notifications',
    );
    expect(result.stderr).to.contain('error: cancelled');
  });

  it('stops quietly when the reader of its output goes away (`forumctl … | head`)', async () => {
    const child = spawn(process.execPath, ['bin/forumctl.js', 'completion', 'bash'], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(stderr).to.not.contain('EPIPE');
    expect(code).to.equal(0);
  });

  describe('completion', () => {
    it('prints a bash script that completes commands and options from the command tree', async function () {
      const script = await forumctl(['completion', 'bash']);
      expect(script.code).to.equal(0);
      const dir = mkdtempSync(path.join(os.tmpdir(), 'forumctl-completion-'));
      writeFileSync(path.join(dir, 'forumctl.bash'), script.stdout);
      const complete = (...words: string[]) =>
        execFileSync(
          'bash',
          [
            '-c',
            `source "${dir}/forumctl.bash"; COMP_WORDS=(forumctl ${words.map((w) => `'${w}'`).join(' ')}); ` +
              `COMP_CWORD=${words.length}; _forumctl_complete; echo "\${COMPREPLY[*]}"`,
          ],
          { encoding: 'utf8' },
        ).trim();
      expect(complete('us')).to.equal('users');
      expect(complete('users', 'cr')).to.equal('create');
      expect(complete('--json', 'webhooks', 're')).to.equal('redeliver');
      expect(complete('users', 'create', 'bob', '--em')).to.equal('--email');
      expect(complete('topics', 'ban', '42', '--re')).to.equal('--reason');
      expect(complete('audit', 'list', '--ac').split(' ')).to.deep.equal(['--action', '--actor']);
    });

    it('prints a zsh script (through bashcompinit), and refuses another shell', async () => {
      const zsh = await forumctl(['completion', 'zsh']);
      expect(zsh.stdout).to.contain('bashcompinit').and.contain('complete -F _forumctl_complete forumctl');
      expect((await forumctl(['completion', 'fish'])).code).to.equal(2);
    });
  });
});

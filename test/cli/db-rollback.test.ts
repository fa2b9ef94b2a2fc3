import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { expect } from 'chai';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

describe('forumctl db rollback, as a process on a database of its own', () => {
  const name = `forumctl_rollback_test_${process.pid}`;
  const server = () => new URL(testEnv().config.databaseUrl!);
  const query = async <T>(database: string, sql: string): Promise<T[]> => {
    const url = server();
    url.pathname = `/${database}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    return (await client.query(sql).finally(() => client.end())).rows as T[];
  };
  const admin = (sql: string) => query('postgres', sql);
  const run = (...args: string[]) => {
    const url = server();
    url.pathname = `/${name}`;
    const child = spawnSync(process.execPath, ['bin/forumctl.js', 'db', ...args], {
      env: { ...process.env, DATABASE_URL: url.toString() },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { code: child.status, stdout: child.stdout, stderr: child.stderr };
  };
  const status = () => JSON.parse(run('status', '--json').stdout) as { executed: string[]; pending: string[] };

  before(async function () {
    this.timeout(60_000);
    await admin(`create database ${pg.escapeIdentifier(name)}`);
    expect(run('migrate', '--json').code).to.equal(0);
  });
  after(async function () {
    this.timeout(30_000);
    await admin(`drop database if exists ${pg.escapeIdentifier(name)} with (force)`);
  });

  it('undoes the last migration, which status then lists as pending, and migrate applies it again', function () {
    this.timeout(60_000);
    const last = status().executed.at(-1)!;
    const rollback = run('rollback', '--yes', '--json');
    expect(rollback.code, rollback.stderr).to.equal(0);
    expect(JSON.parse(rollback.stdout)).to.deep.equal({ undone: [last] });
    expect(status().pending).to.deep.equal([last]);
    expect(JSON.parse(run('migrate', '--json').stdout)).to.deep.equal({ applied: [last] });
    expect(status().pending).to.deep.equal([]);
  });

  it('undoes every migration back to --to, that one included, newest first, in text', function () {
    this.timeout(60_000);
    const executed = status().executed;
    const to = 'Migration20261125000000_search_text';
    const undo = executed.slice(executed.indexOf(to)).reverse();
    const rollback = run('rollback', '--to', to);
    expect(rollback.code, rollback.stderr).to.equal(0);
    expect(rollback.stdout.trim()).to.equal(`undone: ${undo.join(', ')}`);
    expect(status().pending).to.deep.equal([...undo].reverse());
    expect(run('migrate').code).to.equal(0);
    expect(status().pending).to.deep.equal([]);
  });

  it('undoes sealing webhook secrets by deleting the webhooks whose secret is sealed, keeping those in clear', async function () {
    this.timeout(60_000);
    const sealing = 'Migration20261129090000_webhook_secrets_sealed';
    await query(
      name,
      `insert into webhooks (url, events, secret, secret_sealed) values
         ('https://hooks.example/sealed', '{*}', 'v1.sealed.secret', true), ('https://hooks.example/clear', '{*}', 'in clear', false)`,
    );
    const rollback = run('rollback', '--to', sealing, '--yes', '--json');
    expect(rollback.code, rollback.stderr).to.equal(0);
    expect(await query(name, 'select url, secret from webhooks')).to.deep.equal([
      { url: 'https://hooks.example/clear', secret: 'in clear' },
    ]);
    // Migrated again, it is a secret in clear as the previous release left it, for a server to seal as it starts.
    expect(run('migrate', '--json').code).to.equal(0);
    expect(await query(name, 'select secret, secret_sealed from webhooks')).to.deep.equal([
      { secret: 'in clear', secret_sealed: false },
    ]);
    await query(name, 'delete from webhooks');
  });

  it('undoes private messages by deleting the conversations with their messages, keeping the forum’s topics', async function () {
    this.timeout(60_000);
    const conversations = 'Migration20261129040000_conversations';
    await query(
      name,
      `with forum as (insert into topics (user_id, node_id, title, body, body_html) values (1, 1, 'forum', 'b', '<p>b</p>') returning id),
         talk as (insert into topics (user_id, node_id, title, body, body_html) values (1, null, 'talk', 'b', '<p>b</p>') returning id)
       insert into replies (topic_id, user_id, body, body_html)
         select id, 1, 'a reply', '<p>a reply</p>' from forum union all select id, 1, 'a message', '<p>a message</p>' from talk`,
    );
    const rollback = run('rollback', '--to', conversations, '--yes', '--json');
    expect(rollback.code, rollback.stderr).to.equal(0);
    expect(await query(name, 'select title from topics')).to.deep.equal([{ title: 'forum' }]);
    expect(await query(name, 'select body from replies')).to.deep.equal([{ body: 'a reply' }]);
    expect(run('migrate', '--json').code).to.equal(0);
    expect(status().pending).to.deep.equal([]);
    await query(name, 'delete from replies; delete from topics');
  });

  it('refuses, undoing nothing, when a migration on the way has no down migration (exit 1)', function () {
    this.timeout(60_000);
    const before = status();
    const rollback = run('rollback', '--to', 'Migration20261124000000_authorization_code', '--yes');
    expect(rollback.code).to.equal(1);
    expect(rollback.stderr.trim()).to.equal(
      'error: cannot roll back Migration20261124000000_authorization_code: it has no down migration and cannot be undone; ' +
        'nothing was undone (restore the backup taken before the upgrade instead: docs/operations.md)',
    );
    expect(status()).to.deep.equal(before);
  });

  it('exits 4 for a migration that is not applied', function () {
    this.timeout(60_000);
    const rollback = run('rollback', '--to', 'Migration20990101000000_nothing', '--yes', '--json');
    expect(rollback.code).to.equal(4);
    expect(JSON.parse(rollback.stderr)).to.deep.include({ error: 'ResourceNotFound' });
  });
});

describe('forumctl db rollback, on a terminal', () => {
  it('names the migrations it will undo and undoes nothing when the answer is no', async () => {
    const before = await forumctl(['db', 'status', '--json']);
    const last = before.json<{ executed: string[] }>().executed.at(-1)!;
    const rollback = await forumctl(['db', 'rollback'], { terminal: true, answer: false });
    expect(rollback.code).to.equal(1);
    expect(rollback.stderr).to.include(`Undo 1 migration, newest first: ${last}? [y/N]`);
    expect(rollback.stderr).to.include('cancelled');
    expect((await forumctl(['db', 'status', '--json'])).json()).to.deep.equal(before.json());
  });
});

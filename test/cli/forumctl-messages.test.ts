import { expect } from 'chai';
import { makeNode, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';

/** What forumctl says when a thing is not there or an input is wrong: one finished sentence, naming what (issue 44). */
describe('forumctl says what is wrong, and what', () => {
  beforeEach(async () => {
    await makeUser('root', 'admin');
  });

  it('tokens revoke: an unknown token is not found, in a sentence that ends where it should', async () => {
    const revoked = await forumctl(['tokens', 'revoke', 'no-such-token', '--yes']);
    expect(revoked.code).to.equal(4);
    expect(revoked.stderr.trim()).to.equal(
      'error: no live token matched: give the token itself (not the id that tokens list shows); ' +
        'tokens revoke-all <login> ends every token of a user',
    );
  });

  it('audit list --actor: a login that is no user is not found (exit 4), as every other command says', async () => {
    const listed = await forumctl(['audit', 'list', '--actor', 'nobody']);
    expect(listed.code).to.equal(4);
    expect(listed.stderr.trim()).to.equal('error: user nobody not found');
    expect(listed.stdout).to.equal('');
    expect((await forumctl(['audit', 'list', '--actor', 'root'])).code).to.equal(0);
  });

  it('nodes hide and section name the node that is not there', async () => {
    for (const args of [
      ['nodes', 'hide', '999'],
      ['nodes', 'unhide', '999'],
      ['nodes', 'section', '999', 'none'],
    ]) {
      const refused = await forumctl(args);
      expect(refused.code, args.join(' ')).to.equal(4);
      expect(refused.stderr.trim(), args.join(' ')).to.equal('error: node 999 not found');
    }
  });

  it('nodes create --json prints what nodes list --json prints of it, hidden included; the table names the section as the JSON does', async () => {
    const created = await forumctl(['nodes', 'create', 'Ruby', '--hidden', '--json']);
    expect(created.code, created.stderr).to.equal(0);
    const listed = await forumctl(['nodes', 'list', '--json']);
    const ruby = listed.json<{ nodes: { name: string }[] }>().nodes.find((node) => node.name === 'Ruby');
    expect(created.json()).to.deep.equal(ruby);
    expect(created.json()).to.include({ hidden: true, section_name: 'Nodes' });
    await makeNode('General');
    const table = await forumctl(['nodes', 'list'], { stdoutTerminal: false });
    const general = table.stdout.split('\n').find((line) => line.includes('General'))!;
    expect(general.split('\t')).to.include('Nodes');
  });

  it('users create reports every problem of its input at once', async () => {
    const refused = await forumctl(['users', 'create', 'x', '--email', 'bad'], { stdin: '' });
    expect(refused.code).to.equal(2);
    const line = refused.stderr.trim();
    expect(line.split('\n')).to.have.length(1);
    expect(line).to.include('Login must be 2 to 20');
    expect(line).to.include('Email is invalid');
    expect(line).to.include("Password can't be blank");
    expect(line).to.include('pass --password or pipe it on stdin');
  });
});

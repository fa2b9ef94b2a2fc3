import { execFileSync } from 'node:child_process';
import { expect } from 'chai';
import { api, insertReply, makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { testEnv } from '../support/env.js';

/** Issue 31, item 10: moderating from the terminal, without curl to find an id. */
describe('forumctl: moderating from the terminal', () => {
  describe('topics list', () => {
    it('lists topics as GET /topics lists them to the actor, in the API’s shape with --json', async () => {
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      const rails = await makeNode('Rails');
      const first = await makeTopic(alice, ruby, 'How to profile Ruby');
      const second = await makeTopic(alice, rails, 'Rails upgrade notes');
      const listed = await forumctl(['topics', 'list', '--type', 'recent', '--json']);
      expect(listed.code, listed.stderr).to.equal(0);
      const fromApi = (await api().get('/api/v3/topics?type=recent').set(alice.auth).expect(200)).body.topics as { id: number }[];
      const topics = listed.json<{ topics: { id: number; title: string; node_name: string; user: { login: string } }[] }>()
        .topics;
      expect(topics.map((t) => t.id)).to.deep.equal([second, first]);
      expect(topics.map((t) => t.id)).to.deep.equal(fromApi.map((t) => t.id));
      expect(topics[1]).to.include({ title: 'How to profile Ruby', node_name: 'Ruby' });
      expect(topics[1]!.user.login).to.equal('alice');

      const inRuby = await forumctl(['topics', 'list', '--node', String(ruby), '--json']);
      expect(inRuby.json<{ topics: { id: number }[] }>().topics.map((t) => t.id)).to.deep.equal([first]);
    });

    it('prints one line per topic: id, title, node, author, replies, state', async () => {
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      const id = await makeTopic(alice, ruby, 'How to profile Ruby');
      await forumctl(['topics', 'close', String(id)]);
      await forumctl(['topics', 'excellent', String(id)]);
      const piped = await forumctl(['topics', 'list'], { stdoutTerminal: false });
      expect(piped.stdout.split('\t').slice(0, 6)).to.deep.equal([
        String(id),
        'How to profile Ruby',
        'Ruby',
        'alice',
        '0',
        'closed, excellent',
      ]);
      const shown = await forumctl(['topics', 'list']);
      const lines = shown.stdout.split('\n');
      expect(lines).to.have.length(3);
      expect(lines[0]).to.match(/^id\s+title\s+node\s+author\s+replies\s+state\s+last reply$/);
      expect(lines[1]).to.match(/^[─ ]+$/);
    });

    it('with --as, applies that member’s blocks, as over HTTP', async () => {
      const alice = await makeUser('alice');
      await makeUser('bob');
      const ruby = await makeNode('Ruby');
      const rails = await makeNode('Rails');
      await makeTopic(alice, ruby, 'In Ruby');
      const kept = await makeTopic(alice, rails, 'In Rails');
      expect((await forumctl(['users', 'block-node', 'bob', String(ruby), '--as', 'bob'])).code).to.equal(0);
      const asBob = await forumctl(['topics', 'list', '--as', 'bob', '--json']);
      expect(asBob.json<{ topics: { id: number }[] }>().topics.map((t) => t.id)).to.deep.equal([kept]);
      expect((await forumctl(['topics', 'list', '--json'])).json<{ topics: unknown[] }>().topics).to.have.length(2);
    });

    it('says on stderr when the page left some out, with the option that shows the next', async () => {
      const alice = await makeUser('alice');
      const node = await makeNode('Ruby');
      for (const title of ['one', 'two', 'three']) await makeTopic(alice, node, `topic ${title}`);
      const cut = await forumctl(['topics', 'list', '--limit', '2'], { stdoutTerminal: false });
      expect(cut.stdout.split('\n')).to.have.length(2);
      expect(cut.stderr).to.equal('note: more topics than shown; the next page: --offset 2 --limit 2');
      const rest = await forumctl(['topics', 'list', '--offset', '2', '--limit', '2'], { stdoutTerminal: false });
      expect(rest.stdout.split('\n')).to.have.length(1);
      expect(rest.stderr).to.equal('');
    });

    it('refuses an unknown type (exit 2) and names an unknown node (exit 4)', async () => {
      const wrongType = await forumctl(['topics', 'list', '--type', 'hottest']);
      expect(wrongType.code).to.equal(2);
      expect(wrongType.stderr).to.contain('type must be one of last_actived, recent, no_reply, popular, excellent');
      const noNode = await forumctl(['topics', 'list', '--node', '999']);
      expect(noNode.code).to.equal(4);
      expect(noNode.stderr).to.equal('error: node 999 not found');
    });
  });

  describe('topics show', () => {
    it('names the title, node, author, counts, state and dates, and the start of the body', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const id = await makeTopic(alice, await makeNode('Ruby'), 'How to profile Ruby', 'Use **stackprof**.');
      await makeReply(bob, id, 'thanks');
      await forumctl(['topics', 'ban', String(id), '--yes']);
      const shown = await forumctl(['topics', 'show', String(id)]);
      expect(shown.code, shown.stderr).to.equal(0);
      const lines = shown.stdout.split('\n');
      expect(lines[0]).to.equal(`topic ${id}: How to profile Ruby`);
      expect(shown.stdout).to.match(/^node: +NoPoint \(id \d+\), locked there$/m);
      expect(shown.stdout).to.match(new RegExp(`^author: +alice \\(id ${alice.id}\\)$`, 'm'));
      expect(shown.stdout).to.match(/^state: +banned$/m);
      expect(shown.stdout).to.match(/^replies: +\d+ \(last by \w+, \d{4}-\d\d-\d\d \d\d:\d\d\)$/m);
      expect(shown.stdout).to.match(/^created: +\d{4}-\d\d-\d\d \d\d:\d\d {3}updated: /m);
      expect(shown.stdout).to.contain('Use **stackprof**.');
      const json = (await forumctl(['topics', 'show', String(id), '--json'])).json();
      const fromApi = (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic as Record<string, unknown>;
      expect(Object.keys(json).sort()).to.deep.equal(Object.keys(fromApi).sort());
      expect(json).to.include({ id, title: 'How to profile Ruby', node_name: 'NoPoint', deleted: false });
    });

    it('shows a deleted topic to an administrator, as deleted; a member gets exit 4, as over HTTP', async () => {
      const alice = await makeUser('alice');
      const id = await makeTopic(alice, await makeNode('Ruby'), 'Gone soon');
      await forumctl(['topics', 'delete', String(id), '--yes']);
      const asSystem = await forumctl(['topics', 'show', String(id)]);
      expect(asSystem.stdout).to.match(/^state: +deleted$/m);
      expect((await forumctl(['topics', 'show', String(id), '--json'])).json()).to.include({ deleted: true });
      const asAlice = await forumctl(['topics', 'show', String(id), '--as', 'alice']);
      expect(asAlice.code).to.equal(4);
      expect(asAlice.stderr).to.equal(`error: topic ${id} not found`);
      expect((await forumctl(['topics', 'show', '999'])).code).to.equal(4);
    });

    it('counts no hit', async () => {
      const alice = await makeUser('alice');
      const id = await makeTopic(alice, await makeNode('Ruby'));
      await forumctl(['topics', 'show', String(id), '--as', 'alice']);
      const [row] = await testEnv().sql<{ hits: number }>('select hits from topics where id = $1', [id]);
      expect(row!.hits).to.equal(0);
    });
  });

  describe('replies list', () => {
    it('lists a topic’s replies by floor: author, date, deleted ones and system events, a line of text', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      const first = await makeReply(bob, topic, 'First!\nWith a second line');
      const second = await makeReply(bob, topic, 'to be deleted');
      await forumctl(['replies', 'delete', String(second), '--yes']);
      await forumctl(['topics', 'close', String(topic)]);
      const piped = await forumctl(['replies', 'list', String(topic)], { stdoutTerminal: false });
      expect(piped.code, piped.stderr).to.equal(0);
      const rows = piped.stdout.split('\n').map((line) => line.split('\t'));
      expect(rows.map((row) => [row[0], row[2], row[4], row[5]])).to.deep.equal([
        ['#1', 'bob', '', 'First! With a second line'],
        ['#2', 'bob', 'deleted', ''],
        ['#3', 'system', 'system: close', ''],
      ]);
      expect(rows[0]![1]).to.equal(String(first));
      const shown = await forumctl(['replies', 'list', String(topic)]);
      expect(shown.stdout.split('\n')[0]).to.match(/^floor\s+id\s+author\s+created\s+state\s+text$/);
    });

    it('prints the API’s shape with --json, and what a member would see with --as', async () => {
      const alice = await makeUser('alice');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      const reply = await makeReply(alice, topic, 'hello');
      const json = (await forumctl(['replies', 'list', String(topic), '--as', 'alice', '--json'])).json();
      const fromApi = (await api().get(`/api/v3/topics/${topic}/replies`).set(alice.auth).expect(200)).body;
      expect(json).to.deep.equal(fromApi);
      expect((json as { replies: { id: number }[] }).replies.map((r) => r.id)).to.deep.equal([reply]);
    });

    it('says on stderr when the page left some out; names an unknown or deleted topic (exit 4)', async () => {
      const alice = await makeUser('alice');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      for (let i = 0; i < 3; i++) await insertReply(topic, alice.id);
      const cut = await forumctl(['replies', 'list', String(topic), '--limit', '2']);
      expect(cut.stderr).to.equal('note: more replies than shown; the next page: --offset 2 --limit 2');
      const rest = await forumctl(['replies', 'list', String(topic), '--offset', '2', '--limit', '2']);
      expect(rest.stderr).to.equal('');
      expect(rest.stdout).to.contain('#3');
      const missing = await forumctl(['replies', 'list', '999']);
      expect(missing.code).to.equal(4);
      expect(missing.stderr).to.equal('error: topic 999 not found');
      await forumctl(['topics', 'delete', String(topic), '--yes']);
      expect((await forumctl(['replies', 'list', String(topic)])).code).to.equal(4);
    });
  });

  describe('questions name what they are about, after checking that it exists', () => {
    it('topics ban and delete: not found (exit 4) before any question; the question names title, author and node', async () => {
      const alice = await makeUser('alice');
      const id = await makeTopic(alice, await makeNode('Ruby'), 'How to profile Ruby');
      for (const verb of ['ban', 'delete']) {
        const missing = await forumctl(['topics', verb, '999'], { terminal: true, answer: true });
        expect(missing.code, verb).to.equal(4);
        expect(missing.stderr, verb).to.equal('error: topic 999 not found');
      }
      const ban = await forumctl(['topics', 'ban', String(id)], { terminal: true, answer: false });
      expect(ban.stderr).to.equal(`Ban topic ${id} "How to profile Ruby" by alice (node Ruby)? [y/N] \nerror: cancelled`);
      const del = await forumctl(['topics', 'delete', String(id)], { terminal: true, answer: false });
      expect(del.stderr).to.contain(`Delete topic ${id} "How to profile Ruby" by alice (node Ruby), with its 0 replies? [y/N] `);
    });

    it('bulk topics move names both nodes and how many topics it moves', async () => {
      const alice = await makeUser('alice');
      const ruby = await makeNode('Ruby');
      const rails = await makeNode('Rails');
      await makeTopic(alice, ruby);
      await makeTopic(alice, ruby);
      const asked = await forumctl(['topics', 'move', '--from-node', String(ruby), '--to-node', String(rails)], {
        terminal: true,
        answer: false,
      });
      expect(asked.stderr).to.contain(`Move all 2 topics of node ${ruby} "Ruby" to node ${rails} "Rails"? [y/N] `);
      const missing = await forumctl(['topics', 'move', '--from-node', String(ruby), '--to-node', '999'], { terminal: true });
      expect(missing.code).to.equal(4);
      expect(missing.stderr).to.equal('error: node 999 not found');
      const moved = await forumctl(['topics', 'move', '--from-node', String(ruby), '--to-node', String(rails), '--yes']);
      expect(moved.stdout).to.equal(`moved 2 topics from node ${ruby} "Ruby" to node ${rails} "Rails"`);
    });

    it('replies delete names the author, the topic and the start of the reply', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const topic = await makeTopic(alice, await makeNode('Ruby'), 'How to profile Ruby');
      const reply = await makeReply(bob, topic, 'Buy cheap watches');
      const missing = await forumctl(['replies', 'delete', '999'], { terminal: true, answer: true });
      expect(missing.code).to.equal(4);
      expect(missing.stderr).to.equal('error: reply 999 not found');
      const asked = await forumctl(['replies', 'delete', String(reply)], { terminal: true, answer: false });
      expect(asked.stderr).to.contain(
        `Delete reply ${reply} by bob on topic ${topic} "How to profile Ruby" ("Buy cheap watches")? [y/N] `,
      );
    });

    it('tokens revoke, revoke-all and webhooks delete: not found before the question, names in it', async () => {
      const alice = await makeUser('alice');
      const unknown = await forumctl(['tokens', 'revoke', 'not-a-token'], { terminal: true, answer: true });
      expect(unknown.code).to.equal(4);
      expect(unknown.stderr).to.match(/^error: no live token matched/);
      const revoke = await forumctl(['tokens', 'revoke', alice.token], { terminal: true, answer: false });
      expect(revoke.stderr).to.match(/^Revoke alice's access token \(issued by forumctl, expires .*\) and its pair\? \[y\/N\] /);
      const all = await forumctl(['tokens', 'revoke-all', 'alice'], { terminal: true, answer: false });
      expect(all.stderr).to.contain('Revoke 1 live token(s) of alice and end their sign-in sessions? [y/N] ');
      const nobody = await forumctl(['tokens', 'revoke-all', 'nobody'], { terminal: true, answer: true });
      expect(nobody.code).to.equal(4);
      expect(nobody.stderr).to.equal('error: user nobody not found');
      const hook = await forumctl(['webhooks', 'create', 'https://hooks.example/x', '--events', 'topic.created', '--json']);
      const hookId = hook.json<{ id: number }>().id;
      const asked = await forumctl(['webhooks', 'delete', String(hookId)], { terminal: true, answer: false });
      expect(asked.stderr).to.contain(
        `Delete webhook ${hookId} (https://hooks.example/x, for topic.created) and its deliveries?`,
      );
      const gone = await forumctl(['webhooks', 'delete', '999'], { terminal: true, answer: true });
      expect(gone.code).to.equal(4);
      expect(gone.stderr).to.equal('error: webhook 999 not found');
    });
  });

  describe('Access denied says which permission is missing', () => {
    it('names the permission and what the actor is, with exit 3, before any question', async () => {
      const alice = await makeUser('alice');
      await makeUser('bob');
      await makeUser('mallory', 'blocked');
      const topic = await makeTopic(alice, await makeNode('Ruby'));
      const bobs = await makeTopic(await makeUser('carol'), await makeNode('Rails'));
      const reply = await makeReply(alice, topic);
      const cases: [string[], string][] = [
        [['topics', 'ban', String(topic), '--as', 'bob'], 'banning topics is for administrators; bob is a member'],
        [
          ['topics', 'delete', String(bobs), '--as', 'bob'],
          `deleting topic ${bobs} is for administrators, or its author (carol) while nobody else has replied; bob is a member`,
        ],
        [
          ['topics', 'excellent', String(topic), '--as', 'alice'],
          'marking topics excellent is for administrators; alice is a member',
        ],
        [
          ['topics', 'close', String(topic), '--as', 'mallory'],
          "closing a topic is for administrators and the topic's author; mallory is blocked",
        ],
        [
          ['topics', 'move', String(topic), '--node', '1', '--as', 'alice'],
          'moving topics is for administrators; alice is a member',
        ],
        [
          ['replies', 'delete', String(reply), '--as', 'bob'],
          `deleting reply ${reply} is for administrators, its node's moderators or its author (alice); bob is a member`,
        ],
        [['audit', 'list', '--as', 'bob'], 'reading the audit log is for administrators; bob is a member'],
        [['users', 'role', 'alice', 'admin', '--as', 'bob'], 'changing roles is for administrators; bob is a member'],
        [
          ['users', 'block-user', 'alice', 'bob', '--as', 'bob'],
          "changing alice's block list is for alice and administrators; bob is a member",
        ],
        [['webhooks', 'list', '--as', 'bob'], 'managing webhooks is for administrators; bob is a member'],
        [['search', 'reindex', '--as', 'bob'], 'rebuilding the search index is for administrators; bob is a member'],
        [['nodes', 'create', 'Go', '--as', 'bob'], 'creating nodes is for administrators; bob is a member'],
        [['tokens', 'revoke-all', 'alice', '--as', 'bob'], "ending a user's sessions is for administrators; bob is a member"],
      ];
      for (const [args, message] of cases) {
        const result = await forumctl(args, { terminal: true, answer: true });
        expect(result.code, args.join(' ')).to.equal(3);
        expect(result.stderr, args.join(' ')).to.equal(`error: Access denied: ${message}`);
      }
      expect(await testEnv().sql('select 1 from topics where deleted_at is not null')).to.have.length(0);
      await forumctl(['topics', 'close', String(topic)]);
      const [event] = await testEnv().sql<{ id: number }>("select id from replies where action = 'close'");
      const system = await forumctl(['replies', 'delete', String(event!.id)], { terminal: true, answer: true });
      expect(system.code).to.equal(3);
      expect(system.stderr).to.equal(
        `error: Access denied: reply ${event!.id} records a moderator's act (close), which nobody deletes`,
      );
      const json = await forumctl(['topics', 'ban', String(topic), '--as', 'bob', '--json']);
      expect(JSON.parse(json.stderr)).to.deep.equal({
        error: 'AccessDenied',
        message: 'Access denied: banning topics is for administrators; bob is a member',
      });
    });
  });

  describe('tables', () => {
    it('draw a header, one rule and one line per row: nine nodes take eleven lines', async () => {
      for (let i = 1; i <= 8; i++) await makeNode(`Node ${i}`);
      const shown = await forumctl(['nodes', 'list']);
      const lines = shown.stdout.split('\n');
      expect(lines).to.have.length(11); // NoPoint and eight more
      expect(lines[0]).to.match(/^id\s+name\s+section\s+sort\s+topics\s+hidden$/);
      expect(lines[1]).to.match(/^─+( +─+){5}$/);
      expect(shown.stdout).not.to.match(/[│┌├└]/);
      expect(lines.every((line) => line === line.trimEnd())).to.equal(true);
    });

    it('cut a long title on a terminal, counting wide characters twice, and keep it whole in a pipe', async () => {
      const alice = await makeUser('alice');
      const title = `用 PostgreSQL 做消息队列靠谱吗？${'很长'.repeat(30)}`;
      await makeTopic(alice, await makeNode('Ruby'), title.slice(0, 100));
      const shown = await forumctl(['topics', 'list']);
      const cell = shown.stdout.split('\n')[2]!.split(/ {2,}/)[1]!;
      expect(cell.endsWith('…')).to.equal(true);
      const width = [...cell].reduce((sum, char) => sum + (/[\u2e80-\ua4cf\uff00-\uff60]/.test(char) ? 2 : 1), 0);
      expect(width).to.be.at.most(50);
      const piped = await forumctl(['topics', 'list'], { stdoutTerminal: false });
      expect(piped.stdout.split('\t')[1]).to.equal(title.slice(0, 100));
    });
  });

  describe('shell completion, as the README shows it', () => {
    let script = '';
    before(function () {
      this.timeout(30_000);
      script = execFileSync(process.execPath, ['bin/forumctl.js', 'completion', 'bash'], { encoding: 'utf8' });
    });

    /**
     * Completes `line` in a real bash that sourced the script as the README says (after `before`, what the shell had
     * set up already); what TAB would offer.
     */
    function complete(line: string, before = ''): string {
      const words = line.split(' ');
      return execFileSync(
        'bash',
        [
          '--norc',
          '-c',
          `${before}\nsource /dev/stdin <<'SCRIPT'\n${script}\nSCRIPT\n` +
            `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; ` +
            `$(complete -p ${words[0]!.split('/').pop()} | sed -E 's/.*-F ([^ ]+).*/\\1/'); echo "\${COMPREPLY[*]}"`,
        ],
        { encoding: 'utf8', env: { ...process.env, PATH: '/usr/bin:/bin' } },
      ).trim();
    }

    it('completes `npx forumctl …` and `./bin/forumctl.js …`, with forumctl not on the PATH', function () {
      this.timeout(20_000);
      expect(complete('npx forumctl us')).to.equal('users');
      expect(complete('npx forumctl topics sh')).to.equal('show');
      expect(complete('npx forumctl --json replies l')).to.equal('list');
      expect(complete('npx fo')).to.equal('forumctl');
      expect(complete('npx prettier --ch')).to.equal('');
      expect(complete('./bin/forumctl.js topics li')).to.equal('list');
      expect(complete('forumctl topics list --no')).to.equal('--node');
    });

    it('leaves every other npx command the completion it had: it completes `npx forumctl …` only (issue 44)', function () {
      this.timeout(20_000);
      // npx's completion before the script, as npm's would be: it must still answer for every other command.
      const npm = `_npm_like() { COMPREPLY=(npm-says-\${COMP_WORDS[COMP_CWORD]}); }; complete -F _npm_like npx`;
      expect(complete('npx prettier --ch', npm)).to.equal('npm-says---ch');
      expect(complete('npx forumctl us', npm)).to.equal('users');
      expect(complete('npx fo', npm).split(' ')).to.include.members(['npm-says-fo', 'forumctl']);
      // Sourced twice (a .bashrc and a shell), it does not hand on to itself.
      expect(complete('npx prettier --ch', `${npm}\nsource <(node bin/forumctl.js completion bash)`)).to.equal('npm-says---ch');
    });

    it('sources in a shell under set -euo pipefail, as scripts and the walkthrough run, with or without npx completion (issue 44)', function () {
      this.timeout(20_000);
      expect(complete('npx forumctl us', 'set -euo pipefail')).to.equal('users');
      const npm = `_npm_like() { COMPREPLY=(npm-says-\${COMP_WORDS[COMP_CWORD]}); }; complete -F _npm_like npx`;
      expect(complete('npx prettier --ch', `set -euo pipefail\n${npm}`)).to.equal('npm-says---ch');
    });
  });
});

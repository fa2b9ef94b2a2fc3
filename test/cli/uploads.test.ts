import { expect } from 'chai';
import { access } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { forumctl } from '../support/cli.js';
import { PUBLIC_URL, testEnv } from '../support/env.js';

/** Contract §19 from the terminal: forumctl uploads list, delete, purge-orphans and migrate (the folder store). */

interface UploadJson {
  id: number;
  url: string;
  name: string | null;
  content_type: string;
  byte_size: number;
  sha256: string;
  width: number;
  height: number;
  created_at: string;
}

interface AuditJson {
  action: string;
  actor: { login: string };
  target_type: string;
  target_id: number;
  changes: Record<string, [unknown, unknown]>;
  reason: string | null;
}

/** A picture of one colour: distinct colours are distinct files (files are stored once by content). */
const picture = (colour: string, width = 40, height = 30) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** Uploads a picture over HTTP, as a client does; returns its record as GET /users/me/uploads shows it. */
async function upload(user: TestUser, colour: string, filename = 'photo.png', size?: { width: number; height: number }) {
  const file = await picture(colour, size?.width, size?.height);
  const res = await api()
    .post('/api/v3/photos')
    .set(user.auth)
    .attach('file', file, { filename, contentType: 'image/png' })
    .expect(200);
  const mine = await ownUploads(user);
  const record = mine.find((u) => u.url === res.body.image_url);
  if (!record) throw new Error(`no record of ${res.body.image_url}`);
  return record;
}

async function ownUploads(user: TestUser): Promise<UploadJson[]> {
  return (await api().get('/api/v3/users/me/uploads').set(user.auth).expect(200)).body.uploads as UploadJson[];
}

/** The file of an upload in the folder store, by its URL. */
const fileOf = (url: string) => path.join(testEnv().config.uploadsDir, url.slice(`${PUBLIC_URL}/uploads/`.length));
const stored = (url: string) =>
  access(fileOf(url)).then(
    () => true,
    () => false,
  );

async function uploadIds(): Promise<number[]> {
  return (await testEnv().sql<{ id: number }>('select id from uploads order by id')).map((row) => row.id);
}

/** Makes uploads look `days` old. */
async function age(ids: number[], days: number): Promise<void> {
  await testEnv().sql(`update uploads set created_at = now() - make_interval(days => $2) where id = any($1)`, [ids, days]);
}

async function auditOfDeletes(): Promise<AuditJson[]> {
  const listed = await forumctl(['audit', 'list', '--action', 'upload.delete', '--json']);
  expect(listed.code, listed.stderr).to.equal(0);
  return listed.json<{ entries: AuditJson[] }>().entries;
}

const rowsOf = (stdout: string) => (stdout === '' ? [] : stdout.split('\n').map((line) => line.split('\t')));
const DATE = /^\d{4}-\d\d-\d\d \d\d:\d\d$/;

describe('forumctl uploads', () => {
  describe('uploads list', () => {
    it('prints one tab-separated line per upload in a pipe, newest first, no header: sizes as people read them', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const red = await upload(alice, '#ff0000', 'IMG_0042.png', { width: 64, height: 48 });
      const blue = await upload(bob, '#0000ff', 'diagram.png');
      const listed = await forumctl(['uploads', 'list'], { stdoutTerminal: false });
      expect(listed.code, listed.stderr).to.equal(0);
      expect(listed.stderr).to.equal('');
      const rows = rowsOf(listed.stdout);
      expect(rows.map((row) => row.length)).to.deep.equal([8, 8]);
      expect(rows.map((row) => row[0])).to.deep.equal([String(blue.id), String(red.id)]);
      expect(rows[1]!.slice(1, 6)).to.deep.equal(['alice', 'IMG_0042.png', 'image/png', `${red.byte_size} B`, '64x48']);
      expect(rows[1]![6]).to.match(DATE);
      expect(rows[1]![7]).to.equal(red.url);
      expect(rows[0]!.slice(1, 3)).to.deep.equal(['bob', 'diagram.png']);

      // Kilobytes and megabytes.
      await testEnv().sql('update uploads set byte_size = $2 where id = $1', [red.id, 283 * 1024 + 100]);
      await testEnv().sql('update uploads set byte_size = $2 where id = $1', [blue.id, 4_404_020]);
      const sizes = rowsOf((await forumctl(['uploads', 'list'], { stdoutTerminal: false })).stdout).map((row) => row[4]);
      expect(sizes).to.deep.equal(['4.2 MB', '283 KB']);
    });

    it('on a terminal, names the columns under one rule, cuts a long name with "…", and puts each URL whole under its row', async () => {
      const alice = await makeUser('alice');
      const long = 'A very long file name straight off a phone camera.png';
      const first = await upload(alice, '#00ff00', long);
      const second = await upload(alice, '#ffff00', 'short.png');
      const shown = await forumctl(['uploads', 'list']);
      expect(shown.code, shown.stderr).to.equal(0);
      const lines = shown.stdout.split('\n');
      expect(lines).to.have.length(6);
      expect(lines[0]).to.match(/^id\s+user\s+name\s+type\s+size\s+dimensions\s+created$/);
      expect(lines[1]).to.match(/^[─ ]+$/);
      expect(lines[2]).to.match(
        new RegExp(
          `^${second.id}\\s+alice\\s+short\\.png\\s+image/png\\s+${second.byte_size} B\\s+40x30\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d$`,
        ),
      );
      // A URL is longer than most terminals are wide: on a line of its own, it wraps without breaking the columns.
      expect(lines[3]).to.equal(`    ${second.url}`);
      expect(lines[4]).to.match(/ {2}A very long file name strai… {2}image\/png/);
      expect(lines[4]).not.to.contain(long);
      expect(lines[5]).to.equal(`    ${first.url}`);
      // Every column starts where its header does.
      expect(lines[2]!.indexOf('image/png')).to.equal(lines[0]!.indexOf('type'));
      expect(lines[4]!.indexOf('image/png')).to.equal(lines[0]!.indexOf('type'));
      // Nothing but the header and the rule when there is nothing.
      await testEnv().sql('delete from uploads');
      expect((await forumctl(['uploads', 'list'])).stdout.split('\n')).to.have.length(2);
    });

    it('with --json and --user, prints what GET /users/me/uploads gives that user; without --user, everyone’s', async () => {
      const admin = await makeUser('admin', 'admin');
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      await upload(alice, '#ff0000', 'one.png');
      await upload(bob, '#0000ff', 'bobs.png');
      await upload(alice, '#00ff00', 'two.png');
      const hers = await forumctl(['uploads', 'list', '--user', 'alice', '--json']);
      expect(hers.code, hers.stderr).to.equal(0);
      const fromApi = (await api().get('/api/v3/users/me/uploads').set(alice.auth).expect(200)).body;
      expect(hers.json()).to.deep.equal(fromApi);
      expect(hers.json<{ uploads: UploadJson[] }>().uploads.map((u) => u.name)).to.deep.equal(['two.png', 'one.png']);

      const all = await forumctl(['uploads', 'list', '--as', 'admin', '--json']);
      expect(all.json<{ uploads: UploadJson[] }>().uploads.map((u) => u.name)).to.deep.equal(['two.png', 'bobs.png', 'one.png']);
      // Each names its uploader (contract §19).
      expect(all.json<{ uploads: { user: { login: string } }[] }>().uploads.map((u) => u.user.login)).to.deep.equal([
        'alice',
        'bob',
        'alice',
      ]);
      const piped = await forumctl(['uploads', 'list', '--user', 'bob', '--as', admin.login], { stdoutTerminal: false });
      expect(rowsOf(piped.stdout).map((row) => [row[1], row[2]])).to.deep.equal([['bob', 'bobs.png']]);
      expect((await forumctl(['uploads', 'list', '--user', 'carol'])).code).to.equal(4);
    });

    it('pages with --offset and --limit, and says on stderr when the page left some out', async () => {
      const alice = await makeUser('alice');
      const ids: number[] = [];
      for (const colour of ['#ff0000', '#00ff00', '#0000ff']) ids.push((await upload(alice, colour)).id);
      const newestFirst = [...ids].reverse().map(String);
      const cut = await forumctl(['uploads', 'list', '--limit', '2'], { stdoutTerminal: false });
      expect(cut.code, cut.stderr).to.equal(0);
      expect(rowsOf(cut.stdout).map((row) => row[0])).to.deep.equal(newestFirst.slice(0, 2));
      expect(cut.stderr).to.equal('note: more uploads than shown; older ones: --offset 2 --limit 2');
      const rest = await forumctl(['uploads', 'list', '--offset', '2', '--limit', '2'], { stdoutTerminal: false });
      expect(rowsOf(rest.stdout).map((row) => row[0])).to.deep.equal(newestFirst.slice(2));
      expect(rest.stderr).to.equal('');
      // A page that is exactly full leaves nothing out.
      const exact = await forumctl(['uploads', 'list', '--limit', '3', '--json']);
      expect(exact.stderr).to.equal('');
      expect(exact.json<{ uploads: UploadJson[] }>().uploads).to.have.length(3);
      // With --json, stdout is the one document and stderr stays quiet.
      const json = await forumctl(['uploads', 'list', '--limit', '1', '--json']);
      expect(json.json<{ uploads: UploadJson[] }>().uploads).to.have.length(1);
      expect(json.stderr).to.equal('');
    });

    it('is for administrators (exit 3); an unknown user is not found (exit 4); bad paging is invalid (exit 2)', async () => {
      await makeUser('bob');
      await makeUser('carol', 'admin');
      const asBob = await forumctl(['uploads', 'list', '--as', 'bob']);
      expect(asBob.code).to.equal(3);
      expect(asBob.stdout).to.equal('');
      expect(asBob.stderr).to.equal('error: Access denied: listing uploads is for administrators; bob is a member');
      expect((await forumctl(['uploads', 'list', '--user', 'bob', '--as', 'bob'])).code).to.equal(3);
      expect((await forumctl(['uploads', 'list', '--as', 'carol'])).code).to.equal(0);
      const unknown = await forumctl(['uploads', 'list', '--user', 'nobody']);
      expect(unknown.code).to.equal(4);
      expect(unknown.stderr).to.equal('error: user nobody not found');
      const limit = await forumctl(['uploads', 'list', '--limit', '151']);
      expect(limit.code).to.equal(2);
      expect(limit.stderr).to.equal('error: limit must be between 1 and 150');
      expect((await forumctl(['uploads', 'list', '--offset', '-1'])).code).to.equal(2);
    });
  });

  describe('uploads delete', () => {
    it('deletes one’s own upload with its file, unaudited, and says what it deleted', async () => {
      const alice = await makeUser('alice');
      const mine = await upload(alice, '#ff0000', 'IMG_0042.png');
      expect(await stored(mine.url)).to.equal(true);
      const deleted = await forumctl(['uploads', 'delete', String(mine.id), '--as', 'alice']);
      expect(deleted.code, deleted.stderr).to.equal(0);
      expect(deleted.stdout).to.equal(`upload ${mine.id} deleted ("IMG_0042.png", ${mine.byte_size} B, uploaded by alice)`);
      expect(await ownUploads(alice)).to.deep.equal([]);
      expect(await stored(mine.url)).to.equal(false);
      expect(await auditOfDeletes()).to.deep.equal([]);
    });

    it('asks on a terminal, naming the upload, its size and its uploader; --yes skips the question', async () => {
      const alice = await makeUser('alice');
      const mine = await upload(alice, '#ff0000', 'IMG_0042.jpg.png');
      await testEnv().sql("update uploads set name = 'IMG_0042.jpg', byte_size = $2 where id = $1", [mine.id, 289_900]);
      const kept = await forumctl(['uploads', 'delete', String(mine.id)], { terminal: true, answer: false });
      expect(kept.code).to.equal(1);
      expect(kept.stderr).to.equal(`Delete upload ${mine.id} "IMG_0042.jpg" (283 KB) by alice? [y/N] \nerror: cancelled`);
      expect(await uploadIds()).to.deep.equal([mine.id]);

      const yes = await forumctl(['uploads', 'delete', String(mine.id), '--yes'], { terminal: true, answer: false });
      expect(yes.code, yes.stderr).to.equal(0);
      expect(yes.stderr).to.equal('');
      expect(await uploadIds()).to.deep.equal([]);

      const another = await upload(alice, '#00ff00', 'b.png');
      const answered = await forumctl(['uploads', 'delete', String(another.id), '--as', 'alice'], {
        terminal: true,
        answer: true,
      });
      expect(answered.code, answered.stderr).to.equal(0);
      expect(answered.stderr).to.match(/^Delete upload \d+ "b\.png" \(\d+ B\) by alice\? \[y\/N\] $/);
      expect(await uploadIds()).to.deep.equal([]);
    });

    it('an administrator deletes someone else’s upload, audited with the reason; --json prints the upload deleted', async () => {
      const admin = await makeUser('admin', 'admin');
      const alice = await makeUser('alice');
      const hers = await upload(alice, '#ff0000', 'leak.png');
      const deleted = await forumctl(['uploads', 'delete', String(hers.id), '--as', 'admin', '--reason', 'not ours', '--json']);
      expect(deleted.code, deleted.stderr).to.equal(0);
      expect(deleted.json()).to.deep.equal(hers);
      expect(await ownUploads(alice)).to.deep.equal([]);
      expect(await stored(hers.url)).to.equal(false);
      const entries = await auditOfDeletes();
      expect(entries).to.have.length(1);
      expect(entries[0]).to.deep.include({
        action: 'upload.delete',
        target_type: 'Upload',
        target_id: hers.id,
        reason: 'not ours',
      });
      expect(entries[0]!.actor.login).to.equal(admin.login);
      expect(entries[0]!.changes).to.deep.equal({ sha256: [hers.sha256, null] });
      // Without --as: the system moderator, recorded as system.
      const again = await upload(alice, '#00ff00');
      expect((await forumctl(['uploads', 'delete', String(again.id)])).code).to.equal(0);
      expect((await auditOfDeletes()).map((entry) => [entry.actor.login, entry.target_id])).to.deep.equal([
        ['system', again.id],
        ['admin', hers.id],
      ]);
    });

    it('keeps the file while another user’s upload of the same bytes names it', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const hers = await upload(alice, '#123456', 'a.png');
      const his = await upload(bob, '#123456', 'b.png');
      expect(his.url).to.equal(hers.url);
      expect(his.id).not.to.equal(hers.id);
      expect((await forumctl(['uploads', 'delete', String(hers.id), '--yes'])).code).to.equal(0);
      expect(await stored(hers.url)).to.equal(true);
      expect((await ownUploads(bob)).map((u) => u.id)).to.deep.equal([his.id]);
      expect((await forumctl(['uploads', 'delete', String(his.id), '--as', 'bob', '--yes'])).code).to.equal(0);
      expect(await stored(hers.url)).to.equal(false);
    });

    it('someone else’s upload is not found by a member (exit 4, nothing asked), as an unknown one; a bad id is exit 2', async () => {
      const alice = await makeUser('alice');
      await makeUser('bob');
      const hers = await upload(alice, '#ff0000');
      const asBob = await forumctl(['uploads', 'delete', String(hers.id), '--as', 'bob'], { terminal: true, answer: true });
      expect(asBob.code).to.equal(4);
      expect(asBob.stderr).to.equal(`error: upload ${hers.id} not found`);
      expect(await uploadIds()).to.deep.equal([hers.id]);
      expect(await stored(hers.url)).to.equal(true);
      const missing = await forumctl(['uploads', 'delete', '999'], { terminal: true, answer: true });
      expect(missing.code).to.equal(4);
      expect(missing.stderr).to.equal('error: upload 999 not found');
      const json = await forumctl(['uploads', 'delete', '999', '--json']);
      expect(JSON.parse(json.stderr)).to.deep.equal({ error: 'ResourceNotFound', message: 'upload 999 not found' });
      const bad = await forumctl(['uploads', 'delete', 'abc']);
      expect(bad.code).to.equal(2);
      expect(bad.stderr.split('\n')).to.have.length(1);
    });
  });

  describe('uploads purge-orphans', () => {
    it('deletes old uploads no post refers to, with their files; keeps those a reply or a topic shows, and recent ones', async () => {
      const alice = await makeUser('alice');
      const inReply = await upload(alice, '#ff0000', 'in-reply.png');
      const inTopic = await upload(alice, '#00ff00', 'in-topic.png');
      const unused = await upload(alice, '#0000ff', 'unused.png');
      const recent = await upload(alice, '#ffff00', 'recent.png');
      const topic = await makeTopic(alice, await makeNode('Photos'), 'My photos', `Look: ![](${inTopic.url})`);
      await makeReply(alice, topic, `And this one:\n\n![a red square](${inReply.url})`);
      await age([inReply.id, inTopic.id, unused.id], 10);

      const purged = await forumctl(['uploads', 'purge-orphans', '--older-than', '7']);
      expect(purged.code, purged.stderr).to.equal(0);
      expect(purged.stdout).to.equal('purged 1 upload older than 7 days that no post uses, and 1 stored file');
      expect(await uploadIds()).to.deep.equal([inReply.id, inTopic.id, recent.id]);
      expect(await stored(unused.url)).to.equal(false);
      for (const kept of [inReply, inTopic, recent]) expect(await stored(kept.url), kept.name!).to.equal(true);
      // The image still shows in the reply.
      await api().get(inReply.url.slice(PUBLIC_URL.length)).expect(200);

      // Nothing more to purge: --json says so.
      const again = await forumctl(['uploads', 'purge-orphans', '--older-than', '7', '--json']);
      expect(again.json()).to.deep.equal({ uploads: 0, files: 0 });
    });

    it('counts a file once for the records it goes with, and keeps it for a record that stays', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const carol = await makeUser('carol');
      const hers = await upload(alice, '#abcdef');
      const his = await upload(bob, '#abcdef');
      const shared = await upload(alice, '#fedcba');
      const keeps = await upload(carol, '#fedcba');
      await age([hers.id, his.id, shared.id], 10);
      const purged = await forumctl(['uploads', 'purge-orphans', '--older-than', '1', '--json']);
      expect(purged.code, purged.stderr).to.equal(0);
      expect(purged.json()).to.deep.equal({ uploads: 3, files: 1 });
      expect(await uploadIds()).to.deep.equal([keeps.id]);
      expect(await stored(hers.url)).to.equal(false);
      expect(await stored(keeps.url)).to.equal(true);
    });

    it('keeps the uploads a conversation’s messages show, opening one included (contract §24)', async () => {
      const alice = await makeUser('alice');
      const bob = await makeUser('bob');
      const opening = await upload(alice, '#123456', 'opening.png');
      const answer = await upload(bob, '#654321', 'answer.png');
      const res = await api()
        .post('/api/v3/messages')
        .set(alice.auth)
        .send({ to: ['bob'], title: 'Photos', body: `Look: ![](${opening.url})` })
        .expect(200);
      await api()
        .post(`/api/v3/messages/${res.body.message.id}/replies`)
        .set(bob.auth)
        .send({ body: `Mine: ![](${answer.url})` })
        .expect(200);
      await age([opening.id, answer.id], 10);
      const purged = await forumctl(['uploads', 'purge-orphans', '--older-than', '7', '--json']);
      expect(purged.json()).to.deep.equal({ uploads: 0, files: 0 });
      expect(await uploadIds()).to.deep.equal([opening.id, answer.id]);
    });

    it('asks on a terminal first, naming the age; --yes skips the question', async () => {
      const alice = await makeUser('alice');
      const unused = await upload(alice, '#0000ff');
      await age([unused.id], 40);
      const asked = await forumctl(['uploads', 'purge-orphans', '--older-than', '30'], { terminal: true, answer: false });
      expect(asked.code).to.equal(1);
      expect(asked.stderr).to.match(
        /^Delete uploads older than 30 days \(before \d{4}-\d\d-\d\d \d\d:\d\d UTC\) that no post uses, with their files\? \[y\/N\] \nerror: cancelled$/,
      );
      expect(await uploadIds()).to.deep.equal([unused.id]);
      const yes = await forumctl(['uploads', 'purge-orphans', '--older-than', '30', '--yes'], { terminal: true });
      expect(yes.code, yes.stderr).to.equal(0);
      expect(yes.stderr).to.equal('');
      expect(await uploadIds()).to.deep.equal([]);
    });

    it('refuses fewer than 1 day and no --older-than (exit 2), and a member before asking (exit 3)', async () => {
      await makeUser('bob');
      const zero = await forumctl(['uploads', 'purge-orphans', '--older-than', '0'], { terminal: true, answer: true });
      expect(zero.code).to.equal(2);
      expect(zero.stderr).to.equal(
        'error: older-than must be at least 1 day: what was uploaded since may be in a post still being written',
      );
      const tooMany = await forumctl(['uploads', 'purge-orphans', '--older-than', '36501']);
      expect(tooMany.code).to.equal(2);
      expect(tooMany.stderr).to.equal('error: older-than must be between 1 and 36500');
      expect((await forumctl(['uploads', 'purge-orphans', '--older-than', 'week'])).stderr).to.equal(
        'error: older-than must be a whole number',
      );
      const missing = await forumctl(['uploads', 'purge-orphans']);
      expect(missing.code).to.equal(2);
      expect(missing.stderr).to.contain("required option '--older-than <days>' not specified");
      const asBob = await forumctl(['uploads', 'purge-orphans', '--older-than', '7', '--as', 'bob'], {
        terminal: true,
        answer: true,
      });
      expect(asBob.code).to.equal(3);
      expect(asBob.stderr).to.equal('error: Access denied: purging uploads is for administrators; bob is a member');
    });
  });

  describe('uploads migrate', () => {
    it('without an S3-compatible store configured, says so (exit 2) and copies nothing', async () => {
      const alice = await makeUser('alice');
      const mine = await upload(alice, '#ff0000');
      for (const to of ['s3', 'folder']) {
        const moved = await forumctl(['uploads', 'migrate', '--to', to]);
        expect(moved.code, to).to.equal(2);
        expect(moved.stdout).to.equal('');
        expect(moved.stderr).to.match(/^error: No S3-compatible store is configured: set S3_BUCKET/);
        expect(moved.stderr.split('\n')).to.have.length(1);
      }
      const json = await forumctl(['uploads', 'migrate', '--to', 's3', '--json']);
      expect(json.code).to.equal(2);
      expect(JSON.parse(json.stderr)).to.deep.equal({
        error: 'RecordInvalid',
        message: 'No S3-compatible store is configured: set S3_BUCKET (and S3_ENDPOINT, S3_REGION, the keys)',
      });
      expect(await stored(mine.url)).to.equal(true);
    });

    it('refuses another store (exit 2) and a member (exit 3)', async () => {
      await makeUser('bob');
      const bogus = await forumctl(['uploads', 'migrate', '--to', 'ftp']);
      expect(bogus.code).to.equal(2);
      expect(bogus.stderr).to.equal('error: to must be one of folder, s3');
      expect((await forumctl(['uploads', 'migrate'])).code).to.equal(2);
      const asBob = await forumctl(['uploads', 'migrate', '--to', 's3', '--as', 'bob']);
      expect(asBob.code).to.equal(3);
      expect(asBob.stderr).to.equal('error: Access denied: moving uploads between stores is for administrators; bob is a member');
    });
  });
});

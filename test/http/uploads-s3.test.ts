import sharp from 'sharp';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type Koa from 'koa';
import type { Container } from 'inversify';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { UploadStorage } from '../../src/application/ports.js';
import { MigrateUploads } from '../../src/application/uploads/migrate-uploads.js';
import type { Config } from '../../src/config.js';
import { Forbidden } from '../../src/domain/shared/errors.js';
import { makeUser, type TestUser } from '../support/builders.js';
import { configuredWith, PUBLIC_URL, testEnv } from '../support/env.js';
import { checkedApi } from '../support/openapi.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';
import { type ServerProcess, startServerProcess } from '../support/server-process.js';

/**
 * Uploads in an S3-compatible store (contract §19, UPLOADS_STORE=s3), over the wire, against a real S3-compatible
 * server (s3rver in a child process): stored once by content in the bucket and served from it, a record per uploader,
 * a file kept while a record names it, 503 and no record while the store is down; the move from the folder; and two
 * server processes sharing the bucket.
 */

const A_YEAR = 365 * 24 * 60 * 60;

/** A small picture of its own colour, as a phone would send it: a JPEG turned by its EXIF, with a copyright and a description. */
function phonePhoto(red: number): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: red, g: 100, b: 200 } } })
    .jpeg()
    .withExif({ IFD0: { Copyright: 'Alice Example', ImageDescription: 'at home' } })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

function png(red: number): Promise<Buffer> {
  return sharp({ create: { width: 5, height: 4, channels: 3, background: { r: red, g: 20, b: 30 } } })
    .png()
    .toBuffer();
}

/** `/uploads/photos/ab/<sha256>.jpg` of an image_url, and the store's key `photos/ab/<sha256>.jpg`. */
function pathOf(url: string): { path: string; key: string } {
  expect(url.startsWith(`${PUBLIC_URL}/uploads/`), url).to.equal(true);
  const urlPath = url.slice(PUBLIC_URL.length);
  return { path: urlPath, key: urlPath.slice('/uploads/'.length) };
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function objectBytes(s3: S3Client, bucket: string, key: string): Promise<Buffer> {
  const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
  return Buffer.from(await object.Body!.transformToByteArray());
}

const uploadRows = () =>
  testEnv().sql<{ id: number; user_id: number; sha256: string }>('select id, user_id, sha256 from uploads order by id');

/** The settings of a service whose uploads go to `server`'s bucket (or stay in the folder, with the bucket known). */
function uploadsIn(server: S3Server, store: 's3' | 'folder'): Partial<Config> {
  return { uploads: { ...testEnv().config.uploads, store, s3: server.settings } };
}

describe('Uploads in an S3-compatible store (UPLOADS_STORE=s3)', function () {
  this.timeout(60_000);
  let server: S3Server;
  let s3: S3Client;
  let container: Container;
  let app: Koa;
  let alice: TestUser;
  let bob: TestUser;

  const api = () => checkedApi(app);
  const upload = (user: TestUser, bytes: Buffer, filename = 'IMG_0042.jpg', contentType = 'image/jpeg') =>
    api().post('/api/v3/photos').set(user.auth).attach('file', bytes, { filename, contentType });

  before(async () => {
    server = await startS3Server();
    s3 = server.client();
    ({ container, app } = configuredWith(uploadsIn(server, 's3')));
  });

  beforeEach(async () => {
    await server.start(); // back up, should a test have left it down
    await server.empty();
    alice = await makeUser('alice');
    bob = await makeUser('bob');
  });

  after(async () => {
    (container?.get<UploadStorage>(UploadStorage) as { close?: () => void } | undefined)?.close?.();
    s3?.destroy();
    await server?.close();
  });

  it('keeps the cleaned image in the bucket, under its hash, and serves it from there at image_url', async () => {
    const sent = await phonePhoto(10);
    const res = await upload(alice, sent).expect(200);
    const url: string = res.body.image_url;
    expect(url).to.match(new RegExp(`^${PUBLIC_URL}/uploads/photos/[0-9a-f]{2}/[0-9a-f]{64}\\.jpg$`));
    const { path: urlPath, key } = pathOf(url);

    // In the bucket, and only there (not in the folder of UPLOADS_DIR).
    expect(await server.keys()).to.deep.equal([key]);
    const head = await s3.send(new HeadObjectCommand({ Bucket: server.bucket, Key: key }));
    expect(head.ContentType).to.equal('image/jpeg');
    expect(head.CacheControl).to.equal(`public, max-age=${A_YEAR}, immutable`);
    const stored = await objectBytes(s3, server.bucket, key);
    expect(key).to.equal(`photos/${sha256(stored).slice(0, 2)}/${sha256(stored)}.jpg`);
    expect(await readFile(path.join(testEnv().config.uploadsDir, key)).catch(() => null)).to.equal(null);

    // Served by the service from the bucket: the stored bytes, cleaned (upright, no EXIF), with the headers of §19.
    const served = await api().get(urlPath).buffer(true).expect(200);
    expect(Buffer.from(served.body as Buffer)).to.deep.equal(stored);
    expect(stored).to.not.deep.equal(sent);
    const picture = await sharp(stored).metadata();
    expect(picture).to.include({ format: 'jpeg', width: 30, height: 40 });
    expect(picture.exif).to.equal(undefined);
    expect(picture.orientation).to.equal(undefined);
    expect(served.headers['content-type']).to.equal('image/jpeg');
    expect(served.headers['content-length']).to.equal(String(stored.length));
    expect(served.headers['cache-control']).to.equal(`public, max-age=${A_YEAR}, immutable`);
    expect(served.headers['x-content-type-options']).to.equal('nosniff');
    expect(served.headers['content-security-policy']).to.equal("default-src 'none'; sandbox");

    // The record names the same URL.
    const mine = await api().get('/api/v3/users/me/uploads').set(alice.auth).expect(200);
    expect(mine.body.uploads).to.have.length(1);
    expect(mine.body.uploads[0]).to.deep.include({ url, sha256: sha256(stored), content_type: 'image/jpeg' });
  });

  it('answers conditional GETs and HEADs from the bucket without holding its connections, and 404 for what it lacks', async () => {
    const { path: urlPath } = pathOf((await upload(alice, await png(1), 'a.png', 'image/png').expect(200)).body.image_url);
    const first = await api().get(urlPath).expect(200);
    const lastModified = first.headers['last-modified']!;
    expect(lastModified).to.be.a('string');
    // More than the SDK's 50 sockets: a response that left the store's stream open would leave the next one waiting.
    for (let i = 0; i < 30; i++) {
      await api().get(urlPath).set('If-Modified-Since', lastModified).expect(304);
      const head = await api().head(urlPath).expect(200);
      expect(head.headers['content-type']).to.equal('image/png');
    }
    await api().get(urlPath).expect(200);
    await api()
      .get(`/uploads/photos/ab/${'ab'.repeat(32)}.png`)
      .expect(404, { error: 'ResourceNotFound' });
    await api().get('/uploads/photos/2025/03/0f1e2d3c4b5a69788796a5b4c3d2e1f0.png').expect(404);
  });

  it('stores the same bytes once, whoever uploads them: one URL, a record per uploader', async () => {
    const photo = await phonePhoto(20);
    const first = await upload(alice, photo).expect(200);
    const again = await upload(alice, photo, 'again.jpg').expect(200);
    expect(again.body.image_url).to.equal(first.body.image_url);
    expect(await uploadRows()).to.have.length(1);

    const bobs = await upload(bob, photo, 'bob.jpg').expect(200);
    expect(bobs.body.image_url).to.equal(first.body.image_url);
    const rows = await uploadRows();
    expect(rows.map((row) => row.user_id)).to.deep.equal([alice.id, bob.id]);
    expect(rows[0]!.sha256).to.equal(rows[1]!.sha256);
    expect(await server.keys()).to.deep.equal([pathOf(first.body.image_url).key]);
  });

  it('keeps the file in the bucket while a record names it; the last deletion removes it', async () => {
    const photo = await phonePhoto(30);
    const url: string = (await upload(alice, photo).expect(200)).body.image_url;
    await upload(bob, photo).expect(200);
    const { path: urlPath, key } = pathOf(url);
    const [alices, bobs] = await uploadRows();

    await api().delete(`/api/v3/uploads/${alices!.id}`).set(alice.auth).expect(200);
    expect(await server.keys()).to.deep.equal([key]);
    await api().get(urlPath).expect(200);
    // Not hers any more, and not hers to delete (contract §19: someone else's upload is 403).
    await api().delete(`/api/v3/uploads/${bobs!.id}`).set(alice.auth).expect(403);
    expect(await server.keys()).to.deep.equal([key]);

    await api().delete(`/api/v3/uploads/${bobs!.id}`).set(bob.auth).expect(200);
    expect(await server.keys()).to.deep.equal([]);
    expect(await uploadRows()).to.deep.equal([]);
    await api().get(urlPath).expect(404);
  });

  it('answers 503 with Retry-After while the store is down, records nothing, and works again once it is back', async () => {
    const before = (await upload(alice, await png(2), 'before.png', 'image/png').expect(200)).body.image_url as string;
    expect(await uploadRows()).to.have.length(1);

    await server.stop();
    const started = Date.now();
    const refused = await upload(alice, await phonePhoto(40)).expect(503);
    expect(Date.now() - started).to.be.below(10_000);
    expect(refused.body).to.deep.include({ error: 'ServiceUnavailable' });
    expect(refused.headers['retry-after']).to.equal('5');
    expect(await uploadRows()).to.have.length(1);
    // Serving from it is unavailable too, not missing.
    const serving = await api().get(pathOf(before).path).expect(503);
    expect(serving.body).to.deep.include({ error: 'ServiceUnavailable' });
    expect(serving.headers['retry-after']).to.equal('5');

    await server.start();
    const after = await upload(alice, await phonePhoto(40)).expect(200);
    expect(await uploadRows()).to.have.length(2);
    expect(await server.keys()).to.deep.equal([pathOf(before).key, pathOf(after.body.image_url).key].sort());
    await api().get(pathOf(before).path).expect(200);
  });

  describe('moving the folder’s files into the bucket (uploads migrate --to s3)', () => {
    let folder: string;
    let admin: TestUser;
    const legacyKey = 'photos/2025/03/0f1e2d3c4b5a69788796a5b4c3d2e1f0.png';

    beforeEach(async () => {
      folder = await mkdtemp(path.join(os.tmpdir(), 'forum-uploads-folder-'));
      admin = await makeUser('root', 'admin');
    });

    afterEach(async () => {
      await rm(folder, { recursive: true, force: true });
    });

    /** Uploads made while the service kept them in the folder, and a photo from before uploads were records. */
    async function uploadToFolder(): Promise<{ urls: string[]; folderSide: Container }> {
      const folderSide = configuredWith({ uploadsDir: folder, ...uploadsIn(server, 'folder') });
      const folderApi = checkedApi(folderSide.app);
      const urls: string[] = [];
      for (const [user, bytes] of [
        [alice, await phonePhoto(50)],
        [bob, await png(60)],
      ] as const) {
        const res = await folderApi.post('/api/v3/photos').set(user.auth).attach('file', bytes, 'x.jpg').expect(200);
        urls.push(res.body.image_url);
      }
      await mkdir(path.join(folder, 'photos/2025/03'), { recursive: true });
      await writeFile(path.join(folder, legacyKey), await png(70));
      urls.push(`${PUBLIC_URL}/uploads/${legacyKey}`);
      for (const url of urls) await folderApi.get(pathOf(url).path).expect(200);
      expect(await server.keys()).to.deep.equal([]);
      return { urls, folderSide: folderSide.container };
    }

    it('copies every file, once, and the same URLs answer with the same bytes from the bucket', async () => {
      const { urls, folderSide } = await uploadToFolder();
      const keys = urls.map((url) => pathOf(url).key).sort();

      const migrate = folderSide.get(MigrateUploads);
      const progress: Array<[number, number]> = [];
      const moved = await migrate.execute(admin, 's3', (done, total) => progress.push([done, total]));
      expect(moved).to.deep.equal({ from: 'folder', to: 's3', files: 3, copied: 3 });
      expect(progress[0]).to.deep.equal([0, 3]);
      expect(progress.at(-1)).to.deep.equal([3, 3]);
      expect(await server.keys()).to.deep.equal(keys);
      for (const key of keys) {
        expect(await objectBytes(s3, server.bucket, key), key).to.deep.equal(await readFile(path.join(folder, key)));
      }
      // Copied, not moved: the folder still has them.
      for (const key of keys) await readFile(path.join(folder, key));

      // Again: everything is there already.
      expect(await migrate.execute(admin, 's3')).to.deep.equal({ from: 'folder', to: 's3', files: 3, copied: 0 });
      // Only administrators.
      let refused: unknown = null;
      await migrate.execute(alice, 's3').catch((error: unknown) => (refused = error));
      expect(refused).to.be.instanceOf(Forbidden);

      // Switched to the bucket (with the folder emptied, so the bytes can only come from the bucket).
      await rm(folder, { recursive: true, force: true });
      const s3Side = configuredWith({ uploadsDir: folder, ...uploadsIn(server, 's3') });
      for (const url of urls) {
        const { path: urlPath, key } = pathOf(url);
        const served = await checkedApi(s3Side.app).get(urlPath).buffer(true).expect(200);
        expect(Buffer.from(served.body as Buffer), urlPath).to.deep.equal(await objectBytes(s3, server.bucket, key));
      }
      const mine = await checkedApi(s3Side.app).get('/api/v3/users/me/uploads').set(alice.auth).expect(200);
      expect(mine.body.uploads.map((u: { url: string }) => u.url)).to.deep.equal([urls[0]]);
    });

    it('runs as `forumctl uploads migrate --to s3`, a process of its own configured by S3_*', async () => {
      const { urls } = await uploadToFolder();
      const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['bin/forumctl.js', 'uploads', 'migrate', '--to', 's3', '--json'], {
          env: { ...process.env, DATABASE_URL: testEnv().config.databaseUrl!, UPLOADS_DIR: folder, ...server.env },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.once('error', reject);
        child.once('close', (code) => resolve({ code, stdout, stderr }));
      });
      expect(run.code, run.stderr).to.equal(0);
      expect(JSON.parse(run.stdout)).to.deep.equal({ from: 'folder', to: 's3', files: 3, copied: 3 });
      expect(await server.keys()).to.deep.equal(urls.map((url) => pathOf(url).key).sort());
    });
  });

  describe('two server processes on one bucket', () => {
    let folders: string[] = [];
    let processes: ServerProcess[] = [];

    before(async function () {
      this.timeout(60_000);
      folders = [
        await mkdtemp(path.join(os.tmpdir(), 'forum-uploads-a-')),
        await mkdtemp(path.join(os.tmpdir(), 'forum-uploads-b-')),
      ];
      processes = await Promise.all(
        folders.map((folder) =>
          startServerProcess({
            DATABASE_URL: testEnv().config.databaseUrl!,
            UPLOADS_STORE: 's3',
            UPLOADS_DIR: folder,
            ...server.env,
          }),
        ),
      );
    });

    after(async () => {
      await Promise.all(processes.map((running) => running.terminate()));
      await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })));
    });

    async function uploadThrough(to: ServerProcess, user: TestUser, bytes: Buffer): Promise<string> {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'photo.jpg');
      const res = await fetch(`${to.url}/api/v3/photos`, { method: 'POST', headers: user.auth, body: form });
      expect(res.status, await res.clone().text()).to.equal(200);
      return ((await res.json()) as { image_url: string }).image_url;
    }

    async function fetchFrom(from: ServerProcess, url: string): Promise<Response> {
      return fetch(`${from.url}${new URL(url).pathname}`);
    }

    it('serves each other’s uploads: uploaded through one, fetched from the other, both ways', async () => {
      const [a, b] = processes as [ServerProcess, ServerProcess];
      for (const [through, from, red] of [
        [a, b, 80],
        [b, a, 90],
      ] as const) {
        const url = await uploadThrough(through, alice, await phonePhoto(red));
        const key = new URL(url).pathname.slice('/uploads/'.length);
        const stored = await objectBytes(s3, server.bucket, key);
        const served = await fetchFrom(from, url);
        expect(served.status).to.equal(200);
        expect(served.headers.get('content-type')).to.equal('image/jpeg');
        expect(Buffer.from(await served.arrayBuffer())).to.deep.equal(stored);
        // From the one it went through, the same.
        const there = await fetchFrom(through, url);
        expect(Buffer.from(await there.arrayBuffer())).to.deep.equal(stored);
      }
      expect(await server.keys()).to.have.length(2);
      // Neither kept anything in its own folder.
      for (const folder of folders) expect(await readFile(path.join(folder, 'photos')).catch((e) => e.code)).to.equal('ENOENT');
    });
  });
});

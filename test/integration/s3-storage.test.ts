import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { S3Storage } from '../../src/adapters/storage/s3-storage.js';
import { Unavailable } from '../../src/domain/shared/errors.js';
import { PUBLIC_URL } from '../support/env.js';
import { type S3Server, startS3Server } from '../support/s3-server.js';

/**
 * The S3-compatible upload store (contract §19, UPLOADS_STORE=s3) against a real S3-compatible server (s3rver in a
 * child process), through the official SDK: what it writes, reads, lists, refuses, and what it does when the store is
 * down.
 */

const A_YEAR = 365 * 24 * 60 * 60;

/** A key as the service names an upload: `photos/<first two hex>/<sha256>.<ext>`. */
function keyOf(bytes: Uint8Array | string, extension = 'png'): string {
  const sha = createHash('sha256').update(bytes).digest('hex');
  return `photos/${sha.slice(0, 2)}/${sha}.${extension}`;
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, got a value');
}

describe('S3Storage against a real S3-compatible server (s3rver)', function () {
  this.timeout(60_000);
  let server: S3Server;
  let storage: S3Storage;
  let s3: S3Client;

  before(async () => {
    server = await startS3Server();
    storage = new S3Storage(server.settings, PUBLIC_URL);
    s3 = server.client();
  });

  beforeEach(async () => {
    await server.start(); // back up, should a test have left it down
    await server.empty();
  });

  after(async () => {
    storage?.close();
    s3?.destroy();
    await server?.close();
  });

  it('stores a file under its key, with its type and a year of immutable caching, and reads it back', async () => {
    const bytes = new Uint8Array([137, 80, 78, 71, 1, 2, 3, 4]);
    const key = keyOf(bytes);
    expect(await storage.exists(key)).to.equal(false);

    await storage.put(key, bytes, 'image/png');

    const head = await s3.send(new HeadObjectCommand({ Bucket: server.bucket, Key: key }));
    expect(head.ContentType).to.equal('image/png');
    expect(head.CacheControl).to.equal(`public, max-age=${A_YEAR}, immutable`);
    expect(head.ContentLength).to.equal(bytes.length);
    const object = await s3.send(new GetObjectCommand({ Bucket: server.bucket, Key: key }));
    expect(Buffer.from(await object.Body!.transformToByteArray())).to.deep.equal(Buffer.from(bytes));

    expect(await storage.exists(key)).to.equal(true);
    const read = await storage.read(key);
    expect(read && Buffer.from(read.bytes)).to.deep.equal(Buffer.from(bytes));
    expect(read?.contentType).to.equal('image/png');
    expect(await server.keys()).to.deep.equal([key]);
  });

  it('writes a key again without asking first (a key always holds the same bytes: no HEAD, which AWS answers 403 without ListBucket)', async () => {
    const key = keyOf('first');
    await storage.put(key, Buffer.from('the same bytes'), 'image/png');
    await storage.put(key, Buffer.from('the same bytes'), 'image/png');
    const read = await storage.read(key);
    expect(Buffer.from(read!.bytes).toString()).to.equal('the same bytes');
  });

  it('answers null and false for a key that is not there; removing it is no error', async () => {
    const key = keyOf('never stored', 'webp');
    expect(await storage.exists(key)).to.equal(false);
    expect(await storage.read(key)).to.equal(null);
    expect(await storage.open(key)).to.equal(null);
    await storage.remove(key);
  });

  it('removes a file, and only that one', async () => {
    const gone = keyOf('gone', 'gif');
    const kept = keyOf('kept', 'gif');
    await storage.put(gone, Buffer.from('gone'), 'image/gif');
    await storage.put(kept, Buffer.from('kept'), 'image/gif');
    await storage.remove(gone);
    expect(await storage.exists(gone)).to.equal(false);
    expect(await storage.read(gone)).to.equal(null);
    expect(await server.keys()).to.deep.equal([kept]);
  });

  it('lists every key of ours, over more than one page of the listing (1,000 keys a page), and nothing else', async () => {
    const ours = Array.from({ length: 1_003 }, (_, i) => keyOf(`file ${i}`, ['png', 'jpg', 'gif', 'webp'][i % 4]));
    ours.push('photos/2025/03/0f1e2d3c4b5a69788796a5b4c3d2e1f0.png'); // a photo from before uploads were records
    const foreign = ['other/readme.txt', 'photos/ab/not-a-hash.png', 'photos/ab/' + 'a'.repeat(64) + '.svg'];
    const all = [...ours, ...foreign];
    // Written behind the adapter's back, 50 at a time (1,000 one after the other would take a while).
    for (let i = 0; i < all.length; i += 50) {
      await Promise.all(
        all.slice(i, i + 50).map((Key) => s3.send(new PutObjectCommand({ Bucket: server.bucket, Key, Body: Buffer.from(Key) }))),
      );
    }

    const listed: string[] = [];
    for await (const key of storage.keys()) listed.push(key);

    expect(listed.length).to.equal(ours.length); // each once
    expect([...listed].sort()).to.deep.equal([...ours].sort());
  });

  it('opens a file for sending: a stream of its bytes, with its size, time and type', async () => {
    const bytes = Buffer.from('a jpeg, as far as the store knows');
    const key = keyOf(bytes, 'jpg');
    const before = Date.now();
    await storage.put(key, bytes, 'image/jpeg');

    const file = await storage.open(key);
    expect(file).to.not.equal(null);
    const chunks: Buffer[] = [];
    for await (const chunk of file!.stream) chunks.push(Buffer.from(chunk as Uint8Array));
    expect(Buffer.concat(chunks)).to.deep.equal(bytes);
    expect(file!.size).to.equal(bytes.length);
    expect(file!.contentType).to.equal('image/jpeg');
    // Stores keep whole seconds.
    expect(file!.modified.getTime()).to.be.within(before - 2_000, Date.now() + 2_000);
  });

  it('gives URLs under PUBLIC_URL/uploads/ (served by the service) unless S3_PUBLIC_URL says the store serves them', async () => {
    const key = keyOf('served by the store', 'png');
    expect(storage.urlOf(key)).to.equal(`${PUBLIC_URL}/uploads/${key}`);

    const served = new S3Storage({ ...server.settings, publicUrl: `${server.endpoint}/${server.bucket}` }, PUBLIC_URL);
    try {
      await served.put(key, Buffer.from('served by the store'), 'image/png');
      const url = served.urlOf(key);
      expect(url).to.equal(`${server.endpoint}/${server.bucket}/${key}`);
      // The store itself answers that URL, with what the adapter wrote.
      const res = await fetch(url);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
      expect(res.headers.get('cache-control')).to.equal(`public, max-age=${A_YEAR}, immutable`);
      expect(await res.text()).to.equal('served by the store');
    } finally {
      served.close();
    }
  });

  it('refuses a key that is not one of ours and never sends it to the store', async () => {
    await s3.send(new PutObjectCommand({ Bucket: server.bucket, Key: 'other/readme.txt', Body: 'not ours' }));
    const hash = 'b'.repeat(64);
    const notOurs = [
      'other/readme.txt',
      '../other/readme.txt',
      `photos/bb/../../other/readme.txt`,
      `/photos/bb/${hash}.png`,
      `photos/bb/${hash}.svg`,
      `photos/bb/${hash}.PNG`,
      `photos/bb/${hash.toUpperCase()}.png`,
      `photos/bb/${hash}.png/../../other/readme.txt`,
      'photos/2025/3/0f1e2d3c4b5a69788796a5b4c3d2e1f0.png',
      '',
    ];
    for (const key of notOurs) {
      const refused = await rejection(storage.put(key, Buffer.from('x'), 'image/png'));
      expect(String(refused), key).to.match(/not a storage key/);
      expect(await storage.exists(key), key).to.equal(false);
      expect(await storage.read(key), key).to.equal(null);
      expect(await storage.open(key), key).to.equal(null);
      await storage.remove(key);
    }
    expect(await server.keys()).to.deep.equal(['other/readme.txt']);
  });

  it('lets a refusal of the store (an unknown access key) through as it is: an answer, not an outage', async () => {
    // s3rver does not check version 4 signatures (a wrong secret passes); it does refuse a key id it does not know.
    const wrong = new S3Storage({ ...server.settings, accessKeyId: 'NOT-A-KEY' }, PUBLIC_URL);
    try {
      const key = keyOf('with the wrong key');
      const refused = await rejection(wrong.put(key, Buffer.from('x'), 'image/png'));
      expect(refused).to.be.instanceOf(Error);
      expect(refused).to.not.be.instanceOf(Unavailable);
      expect((refused as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).to.equal(403);
      expect(await server.keys()).to.deep.equal([]);
    } finally {
      wrong.close();
    }
  });

  it('throws Unavailable promptly while the store is down, and works again once it is back', async () => {
    const bytes = Buffer.from('stored before the outage');
    const key = keyOf(bytes);
    await storage.put(key, bytes, 'image/png');

    await server.stop();
    const operations: Record<string, () => Promise<unknown>> = {
      put: () => storage.put(keyOf('during the outage'), Buffer.from('during the outage'), 'image/png'),
      read: () => storage.read(key),
      exists: () => storage.exists(key),
      open: () => storage.open(key),
      remove: () => storage.remove(key),
      keys: async () => {
        for await (const _ of storage.keys()) void _;
      },
    };
    for (const [name, operation] of Object.entries(operations)) {
      const started = Date.now();
      const error = await rejection(operation());
      expect(error, name).to.be.instanceOf(Unavailable);
      expect((error as Unavailable).retryAfterSeconds, name).to.equal(5);
      // A refused connection, tried twice: well within the 2 s connect timeout, let alone a request's 15 s.
      expect(Date.now() - started, name).to.be.below(5_000);
    }

    await server.start();
    expect(await storage.exists(key)).to.equal(true);
    expect(Buffer.from((await storage.read(key))!.bytes)).to.deep.equal(bytes);
    expect(await server.keys()).to.deep.equal([key]); // nothing was written or removed while it was down
  });
});

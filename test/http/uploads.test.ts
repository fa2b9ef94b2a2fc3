import { expect } from 'chai';
import { access, readdir } from 'node:fs/promises';
import path from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import exifReader from 'exif-reader';
import sharp from 'sharp';
import supertest from 'supertest';
import { api, makeUser, type TestUser } from '../support/builders.js';
import { configuredWith, PUBLIC_URL, testEnv } from '../support/env.js';

/** Contract §19 with the folder store (the default): what an upload becomes, its record, and its owner's rights. */

const upload = (user: TestUser, file: Buffer, filename = 'photo.jpg', contentType = 'image/jpeg') =>
  api().post('/api/v3/photos').set(user.auth).attach('file', file, { filename, contentType });

/** The bytes a URL of ours serves. */
async function served(url: string): Promise<Buffer> {
  expect(url.startsWith(PUBLIC_URL)).to.equal(true);
  return (await api().get(url.slice(PUBLIC_URL.length)).buffer(true).expect(200)).body as Buffer;
}

/** A picture of one colour, of its own (files are stored once by content). */
const plain = (width: number, height: number, colour: string) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** The colour at a point, as [r, g, b]. */
async function colourAt(image: Buffer, x: number, y: number): Promise<number[]> {
  const { data } = await sharp(image).extract({ left: x, top: y, width: 1, height: 1 }).removeAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  return [...data];
}

const isRed = ([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60;
const isBlue = ([r, g, b]: number[]) => b! > 200 && r! < 60 && g! < 60;

/**
 * A phone's photo: 6000×4500 as the sensor stored it (red above, blue below), with EXIF orientation 6 (shown turned a
 * quarter clockwise, so red is on the right), the phone's make and a GPS position.
 */
async function phonePhoto(): Promise<Buffer> {
  const half = (colour: string) => ({ create: { width: 6000, height: 2250, channels: 3 as const, background: colour } });
  const red = await sharp(half('#ff0000')).png().toBuffer();
  const blue = await sharp(half('#0000ff')).png().toBuffer();
  return sharp({ create: { width: 6000, height: 4500, channels: 3, background: '#000000' } })
    .composite([
      { input: red, top: 0, left: 0 },
      { input: blue, top: 2250, left: 0 },
    ])
    .jpeg({ quality: 80 })
    .withExif({
      IFD0: { Make: 'Phone', Model: 'Pocket 12' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 2400/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4000/100' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** A PNG of a few kilobytes that declares 20,000 × 20,000 (400 megapixels): a decompression bomb. */
function pngBomb(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body) >>> 0);
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(20_000, 0);
  header.writeUInt32BE(20_000, 4);
  header[8] = 8; // bit depth; colour type 0 (grey)
  const rows = deflateSync(Buffer.alloc(20_001 * 100)); // a hundred blank rows; it would inflate to 400 MB in all
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', rows),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function records(): Promise<Record<string, unknown>[]> {
  return testEnv().sql('select user_id, sha256, name, content_type, byte_size, width, height from uploads order by id');
}

describe('uploads (contract §19)', () => {
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;

  beforeEach(async () => {
    alice = await makeUser('alice');
    bob = await makeUser('bob');
    admin = await makeUser('root', 'admin');
  });

  describe('what an image becomes', () => {
    it('a phone’s JPEG loses its GPS position and every metadata, is turned upright and scaled to 4,096 on its long side', async function () {
      this.timeout(30_000);
      const photo = await phonePhoto();
      const sent = await sharp(photo).metadata();
      expect(sent).to.include({ width: 6000, height: 4500, orientation: 6 });
      expect(exifReader(sent.exif!).GPSInfo).to.deep.include({ GPSLatitudeRef: 'N', GPSLatitude: [48, 51, 24] });

      const { image_url: url } = (await upload(alice, photo, 'IMG_0042.jpg').expect(200)).body;
      const kept = await served(url);
      const stored = await sharp(kept).metadata();
      expect(stored).to.include({ format: 'jpeg', width: 3072, height: 4096 });
      expect(stored.exif, 'no EXIF at all: no GPS').to.equal(undefined);
      expect(stored.xmp, 'no XMP').to.equal(undefined);
      expect(stored.orientation, 'upright: no orientation left to apply').to.equal(undefined);
      // Shown as the phone showed it: the sensor's top (red) now on the right, its bottom (blue) on the left.
      expect(isRed(await colourAt(kept, 2800, 2000)), 'right half red').to.equal(true);
      expect(isBlue(await colourAt(kept, 200, 2000)), 'left half blue').to.equal(true);
      expect(kept.includes(Buffer.from('Pocket 12')), 'not even the model name').to.equal(false);

      const [record] = await records();
      expect(record).to.include({
        user_id: alice.id,
        name: 'IMG_0042.jpg',
        content_type: 'image/jpeg',
        width: 3072,
        height: 4096,
      });
      expect(record!.byte_size).to.equal(kept.length);
      const sha = (await import('node:crypto')).createHash('sha256').update(kept).digest('hex');
      expect(record!.sha256).to.equal(sha);
      expect(url).to.equal(`${PUBLIC_URL}/uploads/photos/${sha.slice(0, 2)}/${sha}.jpg`);
    });

    it('refuses a PNG bomb (a small file declaring 400 megapixels) with 400, before decoding it, storing nothing', async () => {
      const bomb = pngBomb();
      expect(bomb.length).to.be.below(4_000);
      const refused = await upload(alice, bomb, 'bomb.png', 'image/png').expect(400);
      expect(refused.body).to.deep.include({ error: 'ParameterInvalid' });
      expect(refused.body.message).to.match(/50 megapixels/);
      expect(await records()).to.deep.equal([]);
    });

    it('refuses every broken image with 400 ParameterInvalid, never a 500, storing nothing: truncated, corrupt, empty, lying about its type', async function () {
      this.timeout(60_000);
      const noise = (format: 'png' | 'jpeg' | 'gif' | 'webp') =>
        sharp({
          create: {
            width: 300,
            height: 200,
            channels: 3,
            background: '#808080',
            noise: { type: 'gaussian', mean: 128, sigma: 40 },
          },
        })
          .toFormat(format)
          .toBuffer();
      const broken: [string, Buffer][] = [['empty', Buffer.alloc(0)]];
      for (const format of ['png', 'jpeg', 'gif', 'webp'] as const) {
        const image = await noise(format);
        // Cut short past the header, in the middle of the data, and just before the end.
        for (const keep of [0.1, 0.5, 0.95])
          broken.push([`${format} truncated to ${keep}`, image.subarray(0, Math.floor(image.length * keep))]);
        // The data garbled behind an intact header (a lossy WebP's decoder takes any bytes for pixels: what decodes is
        // an image, if an ugly one).
        if (format !== 'webp') {
          const garbled = Buffer.from(image);
          for (let i = 64; i < garbled.length - 16; i += 7) garbled[i] = garbled[i]! ^ 0x5a;
          broken.push([`${format} garbled`, garbled]);
        }
        // Another format's bytes behind this one's signature.
        const other = await noise(format === 'png' ? 'jpeg' : 'png');
        broken.push([`${format} signature before another format`, Buffer.concat([image.subarray(0, 16), other.subarray(16)])]);
      }
      for (const [what, bytes] of broken) {
        const refused = await upload(alice, bytes, 'photo.png', 'image/png');
        expect(refused.status, `${what}: ${JSON.stringify(refused.body)}`).to.equal(400);
        expect(refused.body, what).to.deep.include({ error: 'ParameterInvalid' });
      }
      expect(await records()).to.deep.equal([]);
    });

    it('keeps an animated GIF animated, and a small image as small as it was', async () => {
      const frame = (colour: string) =>
        sharp({ create: { width: 40, height: 30, channels: 4, background: colour } })
          .raw()
          .toBuffer();
      const frames = Buffer.concat([await frame('#ff0000'), await frame('#00ff00'), await frame('#0000ff')]);
      const gif = await sharp(frames, { raw: { width: 40, height: 90, channels: 4, pageHeight: 30 } })
        .gif({ loop: 0 })
        .toBuffer();
      const { image_url: url } = (await upload(alice, gif, 'wave.gif', 'image/gif').expect(200)).body;
      expect(url).to.match(/\.gif$/);
      const kept = await sharp(await served(url), { animated: true }).metadata();
      expect(kept).to.include({ format: 'gif', pages: 3, width: 40, pageHeight: 30, height: 90 });
      const [record] = await records();
      expect(record).to.include({ width: 40, height: 30, content_type: 'image/gif' });
    });

    it('gives the same record and URL for the same bytes again; the same bytes from another are stored once', async () => {
      const image = await plain(20, 10, '#123456');
      const first = (await upload(alice, image, 'a.png', 'image/png').expect(200)).body.image_url;
      const again = (await upload(alice, image, 'renamed.png', 'image/png').expect(200)).body.image_url;
      const bobs = (await upload(bob, image, 'b.png', 'image/png').expect(200)).body.image_url;
      expect(again).to.equal(first);
      expect(bobs).to.equal(first);
      expect((await records()).map((r) => [r.user_id, r.name])).to.deep.equal([
        [alice.id, 'a.png'],
        [bob.id, 'b.png'],
      ]);
      const files = (await readdir(testEnv().config.uploadsDir, { recursive: true })).filter((f) =>
        f.endsWith(`${path.basename(new URL(first).pathname)}`),
      );
      expect(files).to.have.length(1);
    });
  });

  describe('limits', () => {
    it('takes UPLOADS_PER_DAY new uploads a day, then 429 with Retry-After; the same bytes again count nothing new', async () => {
      const { app } = configuredWith({ uploads: { ...testEnv().config.uploads, perDay: 2 } });
      const http = supertest(app.callback());
      const send = (image: Buffer) =>
        http.post('/api/v3/photos').set(alice.auth).attach('file', image, { filename: 'x.png', contentType: 'image/png' });
      await send(await plain(5, 5, '#010203')).expect(200);
      await send(await plain(5, 5, '#040506')).expect(200);
      const refused = await send(await plain(5, 5, '#070809')).expect(429);
      expect(refused.body).to.deep.include({ error: 'TooManyRequests' });
      expect(refused.body.message).to.match(/2 uploads a day/);
      expect(Number(refused.headers['retry-after'])).to.be.within(86_300, 86_400);
      await http
        .post('/api/v3/photos')
        .set(bob.auth)
        .attach('file', await plain(5, 5, '#070809'), { filename: 'x.png', contentType: 'image/png' })
        .expect(200);
      expect(await records()).to.have.length(3);
    });

    it('refuses a silenced member (403), as posting is refused', async () => {
      await testEnv().sql(`update users set silenced_until = now() + interval '1 day' where id = $1`, [alice.id]);
      const refused = await upload(alice, await plain(4, 4, '#abcdef'), 'x.png', 'image/png').expect(403);
      expect(refused.body.message).to.match(/silenced until/);
      expect(await records()).to.deep.equal([]);
    });
  });

  describe('GET /api/v3/users/me/uploads and DELETE /api/v3/uploads/:id', () => {
    it('lists the caller’s own uploads, newest first, paged', async () => {
      for (const colour of ['#111111', '#222222', '#333333']) {
        await upload(alice, await plain(7, 3, colour), `${colour.slice(1)}.png`, 'image/png').expect(200);
      }
      await upload(bob, await plain(7, 3, '#444444'), 'bobs.png', 'image/png').expect(200);
      const mine = (await api().get('/api/v3/users/me/uploads').set(alice.auth).expect(200)).body.uploads;
      expect(mine.map((u: { name: string }) => u.name)).to.deep.equal(['333333.png', '222222.png', '111111.png']);
      expect(mine[0]).to.have.all.keys(
        'id',
        'url',
        'name',
        'content_type',
        'byte_size',
        'sha256',
        'width',
        'height',
        'created_at',
        'user',
      );
      expect(mine[0]).to.include({ content_type: 'image/png', width: 7, height: 3 });
      // Its uploader, as every record names it (contract §19).
      expect(mine[0].user).to.deep.equal({ id: alice.id, login: 'alice' });
      const page = (await api().get('/api/v3/users/me/uploads?offset=1&limit=1').set(alice.auth).expect(200)).body.uploads;
      expect(page.map((u: { name: string }) => u.name)).to.deep.equal(['222222.png']);
      await api().get('/api/v3/users/me/uploads').expect(401);
      await api().get('/api/v3/users/me/uploads?limit=0').set(alice.auth).expect(400);
    });

    it('deletes for the uploader or an administrator (audited); someone else’s is 403 (contract §19), one that is not there 404; the file goes with its last record', async () => {
      const image = await plain(9, 9, '#5a5a5a');
      const url = (await upload(alice, image, 'a.png', 'image/png').expect(200)).body.image_url as string;
      await upload(bob, image, 'b.png', 'image/png').expect(200);
      const [alices, bobs] = (await testEnv().sql<{ id: number }>('select id from uploads order by id')).map((r) => r.id);
      const file = path.join(testEnv().config.uploadsDir, new URL(url).pathname.replace(/^\/uploads\//, ''));

      const refused = await api().delete(`/api/v3/uploads/${alices}`).set(bob.auth).expect(403);
      expect(refused.body).to.deep.include({ error: 'AccessDenied' });
      await api().delete('/api/v3/uploads/999999').set(alice.auth).expect(404);
      await api().delete(`/api/v3/uploads/${alices}`).set(alice.auth).expect(200, { ok: 1 });
      await access(file); // bob's record still names it
      await served(url);
      await api().delete(`/api/v3/uploads/${bobs}?reason=spam`).set(admin.auth).expect(200, { ok: 1 });
      let gone = false;
      await access(file).catch(() => (gone = true));
      expect(gone, 'the last record took the file with it').to.equal(true);
      await api().get(new URL(url).pathname).expect(404);
      const audit = (await api().get('/api/v3/admin/audit?action=upload.delete').set(admin.auth).expect(200)).body.entries;
      expect(audit).to.have.length(1);
      expect(audit[0]).to.include({ target_type: 'Upload', target_id: bobs, reason: 'spam' });
    });

    it('never leaves a record without its file when the same bytes are uploaded while their last record is deleted', async () => {
      for (let round = 0; round < 8; round++) {
        const image = await plain(8, 8, `#00${round}0${round}0`);
        await upload(alice, image, 'a.png', 'image/png').expect(200);
        const [{ id }] = await testEnv().sql<{ id: number }>(
          'select id from uploads where user_id = $1 order by id desc limit 1',
          [alice.id],
        );
        const [bobs] = await Promise.all([
          upload(bob, image, 'b.png', 'image/png').expect(200),
          api().delete(`/api/v3/uploads/${id}`).set(alice.auth).expect(200),
        ]);
        // Whichever came first, bob's record names a file that is there.
        await served(bobs.body.image_url);
      }
    });

    it('puts the uploads in the account export', async () => {
      await upload(alice, await plain(6, 6, '#0f0f0f'), 'mine.png', 'image/png').expect(200);
      const exported = (await api().get('/api/v3/users/me/export').set(alice.auth).expect(200)).body;
      expect(exported.uploads).to.have.length(1);
      expect(exported.uploads[0]).to.include({ name: 'mine.png', content_type: 'image/png', width: 6, height: 6 });
      expect(exported.uploads[0].user).to.deep.equal({ id: alice.id, login: 'alice' });
    });
  });
});

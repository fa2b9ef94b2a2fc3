import { expect } from 'chai';
import http from 'node:http';
import sharp from 'sharp';
import { api, makeNode, makeTopic, makeUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { listen } from '../../src/server/server.js';
import { alertOf, type Browser, formFor, signedInAs } from '../support/page-forms.js';
import type { PageForm } from '../support/oauth-flow.js';

/**
 * An image in what one writes, in a browser (contract §21b, §19): with scripts off, the post's form carries a file
 * field and is sent as multipart; the image is the API's upload, its Markdown ends the body. With scripts on, the
 * page's script uploads it at once through the pages' POST /photos (its JSON is what the script reads).
 */

function png(red: number): Promise<Buffer> {
  return sharp({ create: { width: 6, height: 4, channels: 3, background: { r: red, g: 40, b: 90 } } })
    .png()
    .toBuffer();
}

/** Sends `form` as a browser sends a form with a file field: multipart, its fields, then the file (if any). */
function submitWithFile(
  browser: Browser,
  form: PageForm,
  typed: Record<string, string>,
  file?: { bytes: Buffer; name: string; type: string },
) {
  let request = browser.post(form.action.split('#')[0]!);
  for (const [name, value] of Object.entries({ ...form.fields, ...typed })) request = request.field(name, value);
  return file
    ? request.attach('image', file.bytes, { filename: file.name, contentType: file.type })
    : request.attach('image', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' });
}

/** A multipart body of these fields (and an image, if any), as a browser sends it. */
function multipartOf(fields: Record<string, string>, image?: Buffer): { type: string; bytes: Buffer } {
  const boundary = 'forum-test-boundary';
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  const file = image ? [Buffer.from(head), image, Buffer.from('\r\n')] : [];
  const bytes = Buffer.concat([Buffer.from(parts.join('')), ...file, Buffer.from(`--${boundary}--\r\n`)]);
  return { type: `multipart/form-data; boundary=${boundary}`, bytes };
}

/** Posts a body over a connection of its own, reading the answer even if it comes before the body is all sent. */
function rawPost(url: string, body: { type: string; bytes: Buffer }, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { ...headers, 'content-type': body.type, 'content-length': body.bytes.length } },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode!, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body.bytes);
  });
}

const uploadsOf = async (login: string) =>
  testEnv().sql<{ name: string }>('select u.name from uploads u join users m on m.id = u.user_id where m.login = $1', [login]);

const imageIn = (markdown: string) => /!\[([^\]]*)\]\(([^)]+)\)/.exec(markdown);

describe('the forum in a browser: an image in what one writes (contract §21b, §19)', () => {
  let topic: number;

  beforeEach(async () => {
    topic = await makeTopic(await makeUser('alice'), await makeNode('General'), 'Show me', 'Pictures, please');
  });

  it('sends the reply form as multipart with a file field, and puts the image at the end of the reply (scripts off)', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    expect(page.text).to.match(/<form[^>]*action="\/topics\/\d+\/replies#reply-form"[^>]*enctype="multipart\/form-data"/);
    expect(page.text).to.match(/<input type="file" id="reply-body-image" name="image" accept="image\/png,image\/jpeg/);
    const res = await submitWithFile(
      bob,
      formFor(page.text, `/topics/${topic}/replies`),
      { body: 'My cat:' },
      {
        bytes: await png(200),
        name: 'my cat.png',
        type: 'image/png',
      },
    ).expect(303);
    expect(res.headers.location).to.equal(`/topics/${topic}#reply1`);
    const [reply] = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies as { body: string }[];
    expect(reply!.body).to.match(/^My cat:\n\n!\[my cat\]\(http[^)]+\/uploads\/photos\/[0-9a-f]{2}\/[0-9a-f]{64}\.png\)\n?$/);
    expect(await uploadsOf('bob')).to.deep.equal([{ name: 'my cat.png' }]);
    const shown = await bob.get(`/topics/${topic}`).expect(200);
    expect(shown.text).to.include(`<img src="${imageIn(reply!.body)![2]}"`);
  });

  it('previews the image in place and keeps its Markdown in the form; a reply of an image alone is a reply', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const form = formFor(page.text, `/topics/${topic}/replies`);
    const preview = await submitWithFile(
      bob,
      form,
      { body: '', preview: '1' },
      {
        bytes: await png(10),
        name: 'dog.png',
        type: 'image/png',
      },
    ).expect(200);
    const markdown = /<textarea id="reply-body"[^>]*>([\s\S]*?)<\/textarea>/.exec(preview.text)![1]!;
    const [, alt, url] = imageIn(markdown)!;
    expect(alt).to.equal('dog');
    expect(preview.text).to.match(new RegExp(`<section class="preview"[\\s\\S]*<img src="${url}"`));
    expect((await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies).to.deep.equal([]);
    // Published as previewed: the file field is empty now, the Markdown carries the image.
    await submitWithFile(bob, formFor(preview.text, `/topics/${topic}/replies`), { body: markdown }).expect(303);
    const [reply] = (await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies as { body: string }[];
    expect(reply!.body.trim()).to.equal(`![dog](${url})`);
    expect(await uploadsOf('bob'), 'one upload for the preview and the post').to.have.length(1);
  });

  it('refuses what is not an image, or too large, with the API’s words on the page, keeping what was typed', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const form = formFor(page.text, `/topics/${topic}/replies`);
    const refusals: [string, string, { bytes: Buffer; name: string; type: string }, number, string][] = [
      [
        'en',
        'Here it is',
        { bytes: Buffer.from('%PDF-1.7 no picture'), name: 'paper.pdf', type: 'application/pdf' },
        400,
        'file must be a PNG, JPEG, GIF or WebP image.',
      ],
      [
        'en',
        'A big one',
        { bytes: Buffer.alloc(5 * 1024 * 1024 + 1, 1), name: 'huge.png', type: 'image/png' },
        413,
        'The image is larger than 5 MiB.',
      ],
      [
        'zh-CN',
        '图',
        { bytes: Buffer.from('not a picture'), name: 'x.png', type: 'image/png' },
        400,
        '图片须为 PNG、JPEG、GIF 或 WebP 格式。',
      ],
    ];
    for (const [language, typed, file, status, said] of refusals) {
      const refused = await submitWithFile(bob, form, { body: typed }, file).set('Accept-Language', language).expect(status);
      expect(alertOf(refused.text), file.name).to.equal(said);
      expect(refused.text, 'what was typed, kept').to.include(`>${typed}</textarea>`);
    }
    expect((await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies).to.deep.equal([]);
    expect(await uploadsOf('bob')).to.deep.equal([]);
  });

  it('starts a topic with an image, from /topics/new', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get('/topics/new').expect(200);
    const form = formFor(page.text, '/topics');
    const node = /<option value="(\d+)"/.exec(page.text)![1]!;
    const res = await submitWithFile(
      bob,
      form,
      { node_id: node, title: 'Look', body: 'A view' },
      {
        bytes: await png(90),
        name: 'view.png',
        type: 'image/png',
      },
    ).expect(303);
    const id = Number(/\/topics\/(\d+)$/.exec(res.headers.location!)![1]);
    const shown = (await api().get(`/api/v3/topics/${id}`).expect(200)).body.topic as { body: string };
    expect(imageIn(shown.body)![1]).to.equal('view');
  });

  it('keeps a file’s name in UTF-8 (a Chinese name is the image’s alternative text), with Markdown’s marks made spaces', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const form = formFor(page.text, `/topics/${topic}/replies`);
    for (const [name, alt] of [
      ['我的猫.png', '我的猫'],
      ['a `code` *b* <i>.png', 'a code b i'],
    ]) {
      const preview = await submitWithFile(
        bob,
        form,
        { body: '', preview: '1' },
        { bytes: await png(name.length), name, type: 'image/png' },
      )
        .set('Accept-Language', 'zh-CN')
        .expect(200);
      expect(imageIn(/<textarea id="reply-body"[^>]*>([\s\S]*?)<\/textarea>/.exec(preview.text)![1]!)![1], name).to.equal(alt);
    }
    expect((await uploadsOf('bob')).map((upload) => upload.name)).to.include('我的猫.png');
  });

  it('refuses a form that carries more than a form may (past 5 MiB of image and 1 MiB of text) with a page, keeping nothing', async () => {
    const bob = await signedInAs('bob');
    const page = await bob.get(`/topics/${topic}`).expect(200);
    const form = formFor(page.text, `/topics/${topic}/replies`);
    const longText = await submitWithFile(bob, form, { body: 'y'.repeat(1024 * 1024 + 1) }).expect(413);
    expect(longText.text).to.include('A form may carry an image of at most 5 MiB and 1 MiB of text');
    // Past what such a form carries in all: refused by its length, before a byte is read. (Over a server of its
    // own: the answer comes while the body is still being sent, which a test's in-process server would cut off.)
    const server = await listen(testEnv().app, 0, '127.0.0.1');
    try {
      const cookie = (bob as unknown as { jar: { getCookie(name: string, access: object): { toValueString(): string } } }).jar
        .getCookie('forum_session', { domain: '127.0.0.1', path: '/', secure: false, script: false })
        .toValueString();
      const sevenMiB = multipartOf({ csrf_token: form.fields.csrf_token!, body: 'x' }, Buffer.alloc(7 * 1024 * 1024, 1));
      const tooMuch = await rawPost(`${server.url}/topics/${topic}/replies`, sevenMiB, { cookie });
      expect(tooMuch.status).to.equal(413);
      expect(tooMuch.body).to.include('Too much at once');
      // The API's multipart forms are held to 1 MiB as well, as its JSON and form bodies are.
      const fields = multipartOf({ a: 'z'.repeat(600 * 1024), b: 'z'.repeat(600 * 1024) });
      const refused = await rawPost(`${server.url}/api/v3/topics/${topic}/replies`, fields, {});
      expect(refused.status).to.equal(413);
      expect(JSON.parse(refused.body).error).to.equal('PayloadTooLarge');
    } finally {
      await server.stop();
    }
    expect((await api().get(`/api/v3/topics/${topic}/replies`).expect(200)).body.replies).to.deep.equal([]);
  });

  describe('POST /photos (the pages’ script)', () => {
    it('uploads for the browser’s session and answers the URL and its Markdown; refuses in the reader’s words', async () => {
      const bob = await signedInAs('bob');
      const page = await bob.get(`/topics/${topic}`).expect(200);
      const token = formFor(page.text, `/topics/${topic}/replies`).fields.csrf_token!;
      const done = await bob
        .post('/photos')
        .field('csrf_token', token)
        .attach('image', await png(1), { filename: 'sun.png', contentType: 'image/png' })
        .expect(200);
      expect(done.body.markdown).to.equal(`![sun](${done.body.image_url})`);
      expect(done.headers['cache-control']).to.equal('no-store');
      const refused = await bob
        .post('/photos')
        .field('csrf_token', token)
        .attach('image', Buffer.from('text'), { filename: 'a.txt', contentType: 'text/plain' })
        .set('Accept-Language', 'zh-CN')
        .expect(400);
      expect(refused.body).to.deep.equal({ error: '图片须为 PNG、JPEG、GIF 或 WebP 格式。' });
      await bob.post('/photos').field('csrf_token', token).expect(400);
    });

    it('takes nothing without the session’s token (403), nor from a browser not signed in (303 to sign in)', async () => {
      const bob = await signedInAs('bob');
      const forged = await bob
        .post('/photos')
        .field('csrf_token', 'forged')
        .attach('image', await png(2), { filename: 'a.png', contentType: 'image/png' })
        .expect(403);
      expect(forged.body.error).to.match(/security token/);
      const stranger = await api()
        .post('/photos')
        .field('csrf_token', 'x')
        .attach('image', await png(3), { filename: 'a.png', contentType: 'image/png' })
        .expect(303);
      expect(stranger.headers.location).to.match(/^\/account\/sign-in/);
      expect(await uploadsOf('bob')).to.deep.equal([]);
    });
  });
});

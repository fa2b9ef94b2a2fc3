import { expect } from 'chai';
import { api, makeNode, makeUser, type TestUser } from '../support/builders.js';

/**
 * Contract §1: parameters come from the query, a form, a multipart or a JSON body; a body of any other type is 415
 * naming the types read, never "… is missing". What a browser's FormData or `curl -F` sends is read everywhere.
 */
describe('request bodies (contract §1)', () => {
  let alice: TestUser;
  let node: number;

  beforeEach(async () => {
    alice = await makeUser('alice');
    node = await makeNode('General');
  });

  it('reads multipart form fields on any endpoint, as Rails does (curl -F, a browser’s FormData)', async () => {
    const created = await api()
      .post('/api/v3/topics')
      .set(alice.auth)
      .field('title', 'From a form')
      .field('body', 'sent as multipart')
      .field('node_id', String(node))
      .expect(200);
    expect(created.body.topic).to.include({ title: 'From a form', body: 'sent as multipart', node_id: node });
    const replied = await api()
      .post(`/api/v3/topics/${created.body.topic.id}/replies`)
      .set(alice.auth)
      .field('body', 'a multipart reply')
      .expect(200);
    expect(replied.body.reply).to.include({ body: 'a multipart reply' });
    // The token may come as a field too, as homeland's clients send it.
    await api().post(`/api/v3/topics/${created.body.topic.id}/follow`).field('access_token', alice.token).expect(200, { ok: 1 });
  });

  for (const [type, body] of [
    ['text/plain', 'title=Hello&body=world'],
    ['application/xml', '<topic><title>Hello</title></topic>'],
    ['application/octet-stream', Buffer.from([1, 2, 3, 4])],
  ] as const) {
    it(`refuses a ${type} body with 415 UnsupportedMediaType naming the types read, not "title is missing"`, async () => {
      const refused = await api()
        .post('/api/v3/topics')
        .set(alice.auth)
        .set('Content-Type', type)
        .send(body as string)
        .expect(415);
      expect(refused.body.error).to.equal('UnsupportedMediaType');
      expect(refused.body.message).to.include(type);
      for (const read of ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data']) {
        expect(refused.body.message).to.include(read);
      }
    });
  }

  it('still takes a POST that has no body at all, whatever it says of its type', async () => {
    const topic = (await api().post('/api/v3/topics').set(alice.auth).send({ title: 'T', body: 'B', node_id: node }).expect(200))
      .body.topic;
    await api().post(`/api/v3/topics/${topic.id}/follow`).set(alice.auth).set('Content-Type', 'text/plain').expect(200);
  });

  it('refuses a file sent to an operation that takes none: 400, naming its field', async () => {
    const refused = await api()
      .post('/api/v3/topics')
      .set(alice.auth)
      .field('title', 'T')
      .attach('picture', Buffer.from('GIF89a'), 'a.gif')
      .expect(400);
    expect(refused.body.error).to.equal('ParameterInvalid');
    expect(refused.body.message).to.match(/picture/);
  });

  it('says, of a photo sent in the wrong field, which field came and which is expected', async () => {
    const refused = await api()
      .post('/api/v3/photos')
      .set(alice.auth)
      .attach('photo', Buffer.from('GIF89a'), { filename: 'x.jpg', contentType: 'image/jpeg' })
      .expect(400);
    expect(refused.body.error).to.equal('ParameterInvalid');
    expect(refused.body.message).to.include('"photo"');
    expect(refused.body.message).to.include('"file"');
  });
});

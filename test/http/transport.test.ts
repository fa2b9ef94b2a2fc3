import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { listen, type RunningServer } from '../../src/server/server.js';
import { api } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { RawConnection } from '../support/raw-http.js';

/** Requests that break at the transport: bodies, encodings, the HTTP parser. Never a 500, never a dead connection. */
describe('the HTTP transport', () => {
  let server: RunningServer;
  before(async () => {
    server = await listen(testEnv().app, 0, '127.0.0.1');
  });
  after(async () => {
    await server.stop();
  });

  describe('a body whose Content-Encoding does not decode', () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      it(`is the client's error: 400 ParameterInvalid (${encoding})`, async () => {
        const res = await api()
          .post('/api/v3/topics')
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', encoding)
          .send(Buffer.from('this is not compressed at all, not even a little'));
        expect(res.status).to.equal(400);
        expect(res.body).to.deep.include({ error: 'ParameterInvalid' });
        expect(res.body.message).to.be.a('string');
      });
    }

    it('an unknown Content-Encoding is 415', async () => {
      const res = await api()
        .post('/api/v3/topics')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'zstd-of-the-future')
        .send('{}');
      expect(res.status).to.equal(415);
      expect(res.body.error).to.equal('UnsupportedMediaType');
    });
  });

  describe('after a 413, the kept-alive connection', () => {
    it('still serves the next request (a chunked body over 1 MiB)', async () => {
      const connection = await RawConnection.open(server.url);
      try {
        const chunk = `{"title":"${'x'.repeat(64 * 1024)}`;
        let request =
          'POST /api/v3/topics HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
        for (let i = 0; i < 24; i++) request += `${Buffer.byteLength(chunk).toString(16)}\r\n${chunk}\r\n`;
        request += '0\r\n\r\n';
        const refused = await connection.request(request);
        expect(refused.status).to.equal(413);
        expect(JSON.parse(refused.body)).to.include({ error: 'PayloadTooLarge' });
        const next = await connection.request('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
        expect(next.status).to.equal(200);
        expect(JSON.parse(next.body)).to.deep.equal({ status: 'ok' });
      } finally {
        connection.close();
      }
    });

    it('still serves the next request (a gzip body that inflates past 1 MiB)', async () => {
      const connection = await RawConnection.open(server.url);
      try {
        const bomb = gzipSync(Buffer.from(`{"title":"${' '.repeat(3 * 1024 * 1024)}"}`));
        const head =
          'POST /api/v3/topics HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n' +
          `Content-Length: ${bomb.length}\r\n\r\n`;
        const refused = await connection.request(Buffer.concat([Buffer.from(head), bomb]));
        expect(refused.status).to.equal(413);
        const next = await connection.request('GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n');
        expect(next.status).to.equal(200);
      } finally {
        connection.close();
      }
    });
  });

  describe("requests Node's HTTP parser refuses", () => {
    it('get a JSON body: a raw byte 0xff in the path is 400', async () => {
      const connection = await RawConnection.open(server.url);
      try {
        const response = await connection.request(Buffer.from('GET /api/v3/topics\xff HTTP/1.1\r\nHost: test\r\n\r\n', 'latin1'));
        expect(response.status).to.equal(400);
        expect(response.headers['content-type']).to.match(/^application\/json/);
        expect(JSON.parse(response.body)).to.include({ error: 'BadRequest' });
      } finally {
        connection.close();
      }
    });

    it('get a JSON body: headers too large is 431', async () => {
      const connection = await RawConnection.open(server.url);
      try {
        const response = await connection.request(`GET /healthz HTTP/1.1\r\nHost: test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
        expect(response.status).to.equal(431);
        expect(JSON.parse(response.body)).to.include({ error: 'RequestHeaderFieldsTooLarge' });
      } finally {
        connection.close();
      }
    });
  });
});

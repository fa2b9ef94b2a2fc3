import { createHmac } from 'node:crypto';
import { expect } from 'chai';
import { HttpWebhookTransport } from '../../src/adapters/webhooks/http-transport.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const request = (url: string) => ({
  url,
  secret: 's3cret-key',
  event: 'topic.created' as const,
  deliveryId: '0b6f3c2e-5d1a-4a8e-9f1e-2c4d5e6f7a8b',
  body: '{"event":"topic.created"}',
});

describe('HttpWebhookTransport', () => {
  let receiver: WebhookReceiver;

  beforeEach(async () => {
    receiver = await WebhookReceiver.start();
  });

  afterEach(async () => {
    await receiver.stop();
  });

  describe('refusing private addresses (SSRF) unless allowed', () => {
    const strict = new HttpWebhookTransport({ allowPrivate: false, userAgent: 'test' });

    it('refuses at creation what is plainly local, private or not http(s)', () => {
      for (const url of [
        'http://127.0.0.1/hook',
        'http://localhost:3000/hook',
        'http://LOCALHOST./hook',
        'http://api.localhost/hook',
        'http://10.1.2.3/hook',
        'http://192.168.0.10/hook',
        'http://172.16.5.4/hook',
        'http://169.254.169.254/latest/meta-data',
        'http://[::1]/hook',
        'http://[fd00::1]/hook',
        'http://[::ffff:127.0.0.1]/hook',
        'http://0.0.0.0/hook',
        'http://2130706433/hook',
      ]) {
        expect(strict.refusal(url), url).to.match(/WEBHOOKS_ALLOW_PRIVATE=true/);
      }
      expect(strict.refusal('ftp://hooks.example/x')).to.match(/http\(s\)/);
      expect(strict.refusal('file:///etc/passwd')).to.match(/http\(s\)/);
      expect(strict.refusal('https://hooks.example/x')).to.equal(null);
      expect(strict.refusal('http://93.184.216.34/x')).to.equal(null);
    });

    it('refuses, when connecting, a name that resolves to a private address', async () => {
      const url = receiver.url.replace('127.0.0.1', 'localhost.');
      expect(strict.refusal(url)).to.not.equal(null);
      // Past the creation check (a name is only known when it is resolved), the connection itself is refused.
      const outcome = await strict.send(request(url.replace('localhost.', 'localhost')));
      expect(outcome.statusCode).to.equal(null);
      expect(outcome.error).to.match(/not allowed|private/i);
      expect(receiver.received).to.have.length(0);
    });

    it('delivers to them when allowed', async () => {
      const open = new HttpWebhookTransport({ allowPrivate: true, userAgent: 'test' });
      expect(open.refusal('http://127.0.0.1/hook')).to.equal(null);
      const outcome = await open.send(request(receiver.url.replace('127.0.0.1', 'localhost')));
      expect(outcome).to.include({ statusCode: 200, error: null });
    });
  });

  it('signs the body with HMAC-SHA256 and names the event and the delivery in headers', async () => {
    const transport = new HttpWebhookTransport({ allowPrivate: true, userAgent: 'forum-webhooks' });
    const outcome = await transport.send(request(receiver.url));
    expect(outcome.statusCode).to.equal(200);
    const [delivery] = receiver.received;
    expect(delivery!.body).to.equal('{"event":"topic.created"}');
    expect(delivery!.headers).to.include({
      'content-type': 'application/json',
      'user-agent': 'forum-webhooks',
      'x-forum-event': 'topic.created',
      'x-forum-delivery': '0b6f3c2e-5d1a-4a8e-9f1e-2c4d5e6f7a8b',
      'x-forum-signature-256': `sha256=${createHmac('sha256', 's3cret-key').update(delivery!.body).digest('hex')}`,
    });
  });

  it('gives up on an endpoint that does not answer in time, and does not follow redirects', async () => {
    const transport = new HttpWebhookTransport({ allowPrivate: true, userAgent: 'test', timeoutMs: 200 });
    receiver.hang = true;
    const slow = await transport.send(request(receiver.url));
    expect(slow).to.include({ statusCode: null, error: 'no response within 0.2 s' });
    expect(slow.durationMs).to.be.within(150, 2_000);
    receiver.hang = false;
    receiver.answers = [302];
    const redirected = await transport.send(request(receiver.url));
    expect(redirected.statusCode).to.equal(302);
    expect(receiver.received).to.have.length(2);
  });
});

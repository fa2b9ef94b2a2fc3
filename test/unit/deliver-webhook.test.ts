import { expect } from 'chai';
import {
  DeliverWebhook,
  SealWebhookSecrets,
  UNOPENED_SECRET,
  type DeliveryStatus,
  type DueDelivery,
  type WebhookStore,
  type WebhookSubjects,
  type WebhookTransport,
} from '../../src/application/webhooks/webhooks.js';
import type { SecretBox } from '../../src/application/ports.js';
import { DELIVERY_ATTEMPTS } from '../../src/adapters/persistence/webhooks/webhook-store.js';

const NOW = new Date('2026-11-24T10:00:00Z');

/** A box that seals by wrapping, and opens only what it wrapped (as a box under another key would not). */
const box: SecretBox = {
  seal: (plain) => `sealed(${plain})`,
  open: (sealed) => {
    const match = /^sealed\((.*)\)$/.exec(sealed);
    if (!match) throw new Error('not a sealed secret');
    return match[1]!;
  },
};

/** A store holding one delivery, recording what the use case writes. */
function fixture(delivery: DueDelivery | null, answer: number | null) {
  const recorded: { status: DeliveryStatus; completedAt: Date | null; data: unknown; statusCode: number | null }[] = [];
  const sent: string[] = [];
  const secrets: string[] = [];
  const errors: (string | null)[] = [];
  let subjectReads = 0;
  const store = {
    due: async () => delivery,
    recordAttempt: async (
      _id: string,
      attempt: { statusCode: number | null; error: string | null },
      outcome: { status: DeliveryStatus; completedAt: Date | null; data: unknown },
    ) => {
      recorded.push({ ...outcome, statusCode: attempt.statusCode });
      errors.push(attempt.error);
    },
  } as unknown as WebhookStore;
  const subjects: WebhookSubjects = {
    view: async () => {
      subjectReads++;
      return { id: 7, title: 'now' };
    },
  };
  const transport: WebhookTransport = {
    refusal: () => null,
    send: async (request) => {
      sent.push(request.body);
      secrets.push(request.secret);
      return { statusCode: answer, error: answer === null ? 'ECONNREFUSED' : null, durationMs: 4 };
    },
  };
  const deliver = new DeliverWebhook(store, subjects, transport, box, { now: () => NOW });
  return { deliver, recorded, sent, secrets, errors, subjectReads: () => subjectReads };
}

const pending = (data: unknown = null): DueDelivery => ({
  id: '0b6f3c2e-5d1a-4a8e-9f1e-2c4d5e6f7a8b',
  event: 'topic.created',
  payload: { topicId: 7 },
  data,
  status: 'pending',
  url: 'https://hooks.example/x',
  secret: 'sealed(a secret)',
  secretSealed: true,
});

describe('DeliverWebhook', () => {
  it('ends a delivery on a 2xx, keeping the view of its subject taken at this first try', async () => {
    const { deliver, recorded, sent } = fixture(pending(), 204);
    expect(await deliver.attempt('x', { attempt: 1, maxAttempts: 10 })).to.equal('delivered');
    expect(recorded).to.deep.equal([{ status: 'delivered', completedAt: NOW, data: { id: 7, title: 'now' }, statusCode: 204 }]);
    expect(JSON.parse(sent[0]!)).to.deep.equal({
      event: 'topic.created',
      delivered_at: NOW.toISOString(),
      data: { id: 7, title: 'now' },
    });
  });

  it('asks for a retry on anything else, until the last try, which marks it failed', async () => {
    for (const answer of [500, 302, 404, null]) {
      const early = fixture(pending(), answer);
      expect(await early.deliver.attempt('x', { attempt: 3, maxAttempts: 10 })).to.equal('retry');
      expect(early.recorded[0]).to.include({ status: 'pending', completedAt: null, statusCode: answer });
      const last = fixture(pending(), answer);
      expect(await last.deliver.attempt('x', { attempt: 10, maxAttempts: 10 })).to.equal('failed');
      expect(last.recorded[0]).to.include({ status: 'failed', completedAt: NOW });
    }
  });

  it('sends on a retry the data of the first try, without reading the subject again', async () => {
    const { deliver, sent, subjectReads } = fixture(pending({ id: 7, title: 'then' }), 200);
    await deliver.attempt('x', { attempt: 2, maxAttempts: 10 });
    expect(JSON.parse(sent[0]!).data).to.deep.equal({ id: 7, title: 'then' });
    expect(subjectReads()).to.equal(0);
  });

  it('sends nothing for a delivery that is gone (its webhook deleted) or already ended', async () => {
    const gone = fixture(null, 200);
    expect(await gone.deliver.attempt('x', { attempt: 1, maxAttempts: 10 })).to.equal('gone');
    const ended = fixture({ ...pending(), status: 'delivered' }, 200);
    expect(await ended.deliver.attempt('x', { attempt: 1, maxAttempts: 10 })).to.equal('delivered');
    expect([...gone.sent, ...ended.sent, ...gone.recorded, ...ended.recorded]).to.deep.equal([]);
  });

  it('signs with the secret opened just before sending, or with a clear one as a release before sealing kept it', async () => {
    const sealed = fixture(pending(), 200);
    await sealed.deliver.attempt('x', { attempt: 1, maxAttempts: 10 });
    const clear = fixture({ ...pending(), secret: 'a secret', secretSealed: false }, 200);
    await clear.deliver.attempt('x', { attempt: 1, maxAttempts: 10 });
    expect([...sealed.secrets, ...clear.secrets]).to.deep.equal(['a secret', 'a secret']);
  });

  it('sends nothing when the secret does not open, and records a failed try that says why', async () => {
    const unopened = fixture({ ...pending(), secret: 'sealed under another key' }, 200);
    expect(await unopened.deliver.attempt('x', { attempt: 1, maxAttempts: 10 })).to.equal('retry');
    expect(unopened.sent).to.deep.equal([]);
    expect(unopened.recorded).to.deep.equal([
      { status: 'pending', completedAt: null, data: { id: 7, title: 'now' }, statusCode: null },
    ]);
    expect(unopened.errors).to.deep.equal([UNOPENED_SECRET]);
    const last = fixture({ ...pending(), secret: 'sealed under another key' }, 200);
    expect(await last.deliver.attempt('x', { attempt: 10, maxAttempts: 10 })).to.equal('failed');
  });

  it('is tried on the schedule of contract §13: a first retry within 30 s, at least 5 tries over at least an hour', () => {
    // graphile-worker waits exp(n) seconds after the n-th failed try.
    const waits = Array.from({ length: DELIVERY_ATTEMPTS - 1 }, (_, i) => Math.exp(Math.min(i + 1, 10)));
    expect(DELIVERY_ATTEMPTS).to.be.at.least(5);
    expect(waits[0]).to.be.below(30);
    expect(waits.reduce((sum, wait) => sum + wait, 0)).to.be.above(3_600);
  });
});

describe('SealWebhookSecrets', () => {
  it('seals each clear secret, counting only those it sealed itself (another process may be first)', async () => {
    const sealedBy: { id: number; sealed: string }[] = [];
    const store = {
      clearSecrets: async () => [
        { id: 1, secret: 'first secret' },
        { id: 2, secret: 'second secret' },
      ],
      sealSecret: async (id: number, sealed: string) => {
        sealedBy.push({ id, sealed });
        return id === 1;
      },
    } as unknown as WebhookStore;
    expect(await new SealWebhookSecrets(store, box).execute()).to.equal(1);
    expect(sealedBy).to.deep.equal([
      { id: 1, sealed: 'sealed(first secret)' },
      { id: 2, sealed: 'sealed(second secret)' },
    ]);
  });
});

import { createHash, timingSafeEqual } from 'node:crypto';
import Router from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import { INBOUND_MAIL_MAX_BYTES, INBOUND_OUTCOMES } from '../../../application/mail/inbound.js';
import type { ReceiveMail } from '../../../application/mail/receive-mail.js';
import { NotFound, Unauthenticated } from '../../../domain/shared/errors.js';
import { BodyRejected, discardRest } from '../../presentation/request-body.js';
import type { ApiDescription } from '../openapi/describe.js';

/** The endpoint's settings: its bearer (INBOUND_EMAIL_TOKEN), and whether it is on (that and REPLY_BY_EMAIL set). */
export interface InboundEndpoint {
  token: string | null;
  enabled: boolean;
}

/** What the inbound mail route calls. */
export interface InboundMailRouteUseCases {
  receiveMail: ReceiveMail;
  endpoint: InboundEndpoint;
}
export const InboundMailRouteUseCases = Symbol.for('InboundMailRouteUseCases');

/**
 * What a refused body that is too large may still send before its connection is closed: a provider sends the
 * whole message whatever we answer, and should read our 413 rather than a reset connection.
 */
const DRAIN_LIMIT_BYTES = 64 * 1024 * 1024;

const MEDIA_TYPES = ['message/rfc822', 'text/plain', 'application/octet-stream'];

const RawMail = z.string().meta({
  format: 'binary',
  description: `the raw RFC 5322 message, as received (at most ${INBOUND_MAIL_MAX_BYTES} bytes)`,
});

const ReceivedSchema = z.strictObject({
  outcome: z.enum(INBOUND_OUTCOMES).meta({ description: 'posted as a reply, unsubscribed, or refused (not to be sent again)' }),
  reason: z.string().nullable().meta({ description: 'why it was refused, in a few words; null otherwise' }),
});

/** Compared in constant time, whatever the lengths (digests of equal length). */
function sameToken(presented: string, token: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(presented), digest(token));
}

/**
 * `POST /api/v3/inbound-email` (contract §17): a mail provider's inbound webhook (or any relay) posts the raw
 * message of a mail sent to a reply address. Outside the API's rate limits, which count per client address:
 * every mail of every user comes from the provider's few addresses, and a 429 would make it retry or drop
 * people's replies; the per-user limits of replying apply to each mail, and an unauthenticated request costs
 * one hash comparison and no body is read for it. Every mail gets 200 with its outcome, a refusal included, so
 * that the provider does not retry it; only a request that is not a mail delivery (no or a wrong token, a body
 * too large or of another type) is an error.
 */
export function inboundMailRoutes(
  app: InboundMailRouteUseCases,
  docs: ApiDescription,
  scope: <T>(work: () => Promise<T>) => Promise<T>,
): Router {
  const router = new Router();
  docs.route(
    router,
    '/api/v3',
    {
      method: 'post',
      path: '/inbound-email',
      summary: 'Receive a mail sent to a reply address (reply by e-mail)',
      description:
        'For mail providers’ inbound webhooks. On when INBOUND_EMAIL_TOKEN and REPLY_BY_EMAIL are set (404 otherwise). ' +
        '`Authorization: Bearer <INBOUND_EMAIL_TOKEN>`; the body is the raw message. A mail to a reply address becomes ' +
        'its key’s user’s reply (quoted text and signature removed) under every rule of reply create; a mail to an ' +
        'unsubscribe address unsubscribes. Every mail is answered 200 with what became of it, refusals included.',
      tag: 'Mail',
      access: 'inbound',
      body: { schema: RawMail, media: ['rfc822', 'text', 'binary'] },
      response: { schema: ReceivedSchema, example: { outcome: 'posted', reason: null }, description: 'What became of the mail' },
      errors: [401, 404, 413, 415],
    },
    async (ctx) => {
      if (!app.endpoint.enabled || app.endpoint.token === null) throw new NotFound('route');
      const presented = /^bearer\s+(.+?)\s*$/i.exec(ctx.get('authorization'))?.[1];
      if (presented === undefined || !sameToken(presented, app.endpoint.token)) {
        discardRest(ctx);
        throw new Unauthenticated('A valid INBOUND_EMAIL_TOKEN is required as the bearer');
      }
      if (ctx.request.length > 0 && !ctx.is(MEDIA_TYPES)) {
        discardRest(ctx);
        throw new BodyRejected(415, `The body must be the raw message: ${MEDIA_TYPES.join(', ')}`);
      }
      const body = await readRaw(ctx);
      const received = await scope(() =>
        app.receiveMail.execute({ via: 'http', raw: body.tooLarge ? null : body.raw, size: body.size }),
      );
      if (body.tooLarge) throw new BodyRejected(413, `The message exceeds ${INBOUND_MAIL_MAX_BYTES} bytes`);
      ctx.body = { outcome: received.outcome, reason: received.reason };
    },
  );
  return router;
}

/**
 * The body, kept up to the limit. Past it (declared or counted) the rest is still read, and thrown away, before
 * the 413 is answered: a client still writing when the answer comes and the connection closes sees a broken
 * pipe, not our answer. Past DRAIN_LIMIT_BYTES the connection is closed.
 */
async function readRaw(ctx: Context): Promise<{ raw: Buffer; size: number; tooLarge: boolean }> {
  const declared = ctx.request.length;
  const request = ctx.req;
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = declared !== undefined && declared > INBOUND_MAIL_MAX_BYTES;
  await new Promise<void>((resolve, reject) => {
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > INBOUND_MAIL_MAX_BYTES) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (size > DRAIN_LIMIT_BYTES) {
        request.socket.destroy();
        resolve();
      }
    });
    request.on('end', resolve).on('error', reject).on('aborted', resolve);
  });
  return { raw: tooLarge ? Buffer.alloc(0) : Buffer.concat(chunks), size: Math.max(size, declared ?? 0), tooLarge };
}

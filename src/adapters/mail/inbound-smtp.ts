import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { SMTPServer, SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import { smtpServer } from './libraries.js';
import { INBOUND_MAIL_MAX_BYTES } from '../../application/mail/inbound.js';
import type { Received, ReceiveMail } from '../../application/mail/receive-mail.js';

/** How long a stop waits for sessions under way before it closes them. */
const CLOSE_TIMEOUT_MS = 10_000;

export interface InboundSmtpOptions {
  port: number;
  host: string;
  /** Runs the receipt of one mail in a persistence context of its own (as a request is). */
  scope<T>(work: () => Promise<T>): Promise<T>;
  /** Faults (a database down): the mail is answered 451, its sender's server tries again later. Never mail content. */
  notice(message: string, details: Record<string, unknown>): void;
}

/** An SMTP reply to a refused mail: its code, and the error smtp-server sends as `code text`. */
function smtpError(code: number, text: string): Error {
  return Object.assign(new Error(text), { responseCode: code });
}

/**
 * The built-in SMTP listener of reply by e-mail (INBOUND_SMTP_PORT, contract §17): an MX for the reply domain
 * points here, and each mail goes to ReceiveMail, as the endpoint's does. No AUTH (mail comes from anyone's
 * server: the key in the address is the credential) and no STARTTLS (no certificate is configured; put a relay
 * in front to offer TLS). SIZE is advertised, and a message past it is refused with 552.
 *
 * A recipient that is not our address pattern with a key that reads is refused at RCPT TO (550): nothing is
 * received for it. A refused mail is answered 550 with the refusal's reason, so that its sender's own server
 * bounces it to them saying why (no address here tells whether an account exists: a key is per user and
 * unguessable); a refusal that may not hold later (too many replies) is 451, tried again later; a copy of a mail
 * already posted is accepted (250), as it was delivered. Recorded either way (ReceiveMail records every mail).
 */
export class InboundSmtpListener {
  private constructor(
    private readonly server: SMTPServer,
    readonly port: number,
  ) {}

  static async start(receive: ReceiveMail, options: InboundSmtpOptions): Promise<InboundSmtpListener> {
    const server = new (smtpServer().SMTPServer)({
      logger: false,
      banner: 'forum reply by e-mail',
      disabledCommands: ['AUTH', 'STARTTLS'],
      authOptional: true,
      size: INBOUND_MAIL_MAX_BYTES,
      maxClients: 100,
      closeTimeout: CLOSE_TIMEOUT_MS,
      onRcptTo(address, _session, callback) {
        // The address itself is the key: never logged, only checked.
        if (receive.accepts(address.address)) callback();
        else callback(smtpError(550, '5.1.1 No such recipient here'));
      },
      onData(stream, session, callback) {
        readMessage(stream).then(
          ({ raw, size }) =>
            options
              .scope(() =>
                receive.execute({
                  via: 'smtp',
                  raw: stream.sizeExceeded ? null : raw,
                  size,
                  envelope: envelopeOf(session),
                }),
              )
              .then(
                (received) => callback(...answer(received)),
                (error: unknown) => {
                  options.notice('a mail could not be received now; its sender was asked to try again', { err: error });
                  callback(smtpError(451, '4.3.0 Temporary failure, try again later'));
                },
              ),
          () => callback(smtpError(451, '4.3.0 The message could not be read, try again')),
        );
      },
    });
    server.on('error', (error) => options.notice('SMTP listener error', { err: error }));
    server.listen(options.port, options.host);
    await Promise.race([
      once(server.server, 'listening'),
      once(server.server, 'error').then(([error]) => Promise.reject(error as Error)),
    ]);
    return new InboundSmtpListener(server, (server.server.address() as AddressInfo).port);
  }

  /** Stops taking connections; sessions under way have CLOSE_TIMEOUT_MS to finish. */
  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The message, kept only up to the limit (past it, only counted: it is refused whole). */
async function readMessage(stream: SMTPServerDataStream): Promise<{ raw: Buffer; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= INBOUND_MAIL_MAX_BYTES) chunks.push(chunk);
  }
  return { raw: Buffer.concat(chunks), size };
}

function envelopeOf(session: SMTPServerSession): { mailFrom: string | null; recipients: string[] } {
  const from = session.envelope.mailFrom;
  return {
    // `MAIL FROM:<>`, the null sender of bounces, is an empty address.
    mailFrom: from === false || from.address === '' ? null : from.address,
    recipients: session.envelope.rcptTo.map((recipient) => recipient.address),
  };
}

/** The SMTP answer to what became of a mail. */
function answer(received: Received): [Error | null, string?] {
  // SMTP replies are ASCII (RFC 5321 §4.2): a rule's message could hold any character.
  const reason = (received.reason ?? '').replace(/[^\x20-\x7e]/g, '?');
  if (received.outcome !== 'refused') return [null, `2.0.0 Accepted: ${received.outcome}`];
  if (received.duplicate) return [null, '2.0.0 Accepted: posted before'];
  if (received.temporary) return [smtpError(451, `4.7.1 Refused for now: ${reason}; try again later`)];
  if (reason === 'too large') {
    return [smtpError(552, `5.3.4 Refused: too large (at most ${INBOUND_MAIL_MAX_BYTES} bytes)`)];
  }
  return [smtpError(550, `5.7.1 Refused: ${reason}`)];
}

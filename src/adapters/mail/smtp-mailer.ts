import type { Transporter } from 'nodemailer';
import { nodemailer } from './libraries.js';
import type { Mailer, OutgoingMail } from '../../application/mail/mailer.js';
import type { Clock } from '../../application/ports.js';
import { composedMail } from './message.js';

/**
 * Mail through an SMTP server (SMTP_URL): `smtps://` speaks TLS from the start; `smtp://` upgrades with STARTTLS
 * whenever the server offers it (nodemailer's default); credentials in the URL, percent-encoded. Options in the
 * URL's query reach nodemailer too (`?tls.rejectUnauthorized=false` for a relay with a self-signed certificate).
 * Short timeouts: a mail server that hangs holds a worker, so it gives up and the job is tried again later.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    private readonly clock: Clock,
  ) {
    this.transport = nodemailer().createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transport.sendMail(composedMail(mail, this.from, this.clock.now()));
  }

  close(): void {
    this.transport.close();
  }
}

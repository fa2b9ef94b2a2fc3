import { randomUUID } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import type { OutgoingMail } from '../../application/mail/mailer.js';

/**
 * A mail as nodemailer composes it: UTF-8, a text and an HTML part (multipart/alternative), our own `Message-ID`
 * (at the sender's domain) and `Date`, and `Auto-Submitted` on account mail. Both mailers send this, so that what
 * SMTP carries and what the data folder keeps are the same message.
 */
export function composedMail(mail: OutgoingMail, from: string, date: Date): SendMailOptions {
  return {
    from,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    html: mail.html,
    date,
    messageId: `<${randomUUID()}@${domainOf(from)}>`,
    headers: headersOf(mail),
    ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
    ...(mail.thread ? { inReplyTo: `<${mail.thread}>`, references: `<${mail.thread}>` } : {}),
    ...(mail.list
      ? {
          list: {
            // `"name" <id>` (RFC 2919); nodemailer quotes the name and brackets the id.
            id: mail.list.name ? { url: mail.list.id, comment: mail.list.name } : mail.list.id,
            // One header, both URIs comma-separated (RFC 2369; RFC 8058's one-click reads the one header): nodemailer
            // writes a header per element of the outer array and joins an inner array's with commas.
            unsubscribe: [[{ url: mail.list.unsubscribeUrl }, { url: mail.list.unsubscribeMailto }]],
          },
        }
      : {}),
    // Nothing is fetched or embedded while composing: the parts are the strings above.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

function headersOf(mail: OutgoingMail): Record<string, string> {
  const headers: Record<string, string> = {};
  if (mail.autoSubmitted) headers['Auto-Submitted'] = 'auto-generated';
  // RFC 8058: a POST of `List-Unsubscribe=One-Click` to the https link unsubscribes, no session, no page.
  if (mail.list) {
    headers['List-Unsubscribe-Post'] = 'List-Unsubscribe=One-Click';
    headers.Precedence = 'list';
  }
  return headers;
}

/** The domain of `forum <noreply@forum.example>` or `noreply@forum.example`. */
function domainOf(from: string): string {
  const match = /@([^>\s]+)>?\s*$/.exec(from);
  return match ? match[1]! : 'localhost';
}

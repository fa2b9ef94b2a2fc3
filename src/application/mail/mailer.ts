/** A mail ready to leave: one recipient, a subject, both parts (UTF-8). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** An account mail, sent by the machine (RFC 3834 `Auto-Submitted: auto-generated`): autoresponders stay quiet. */
  autoSubmitted: boolean;
  /** Where an answer goes (`Reply-To`): the per-recipient, per-topic address of reply by e-mail. */
  replyTo?: string;
  /**
   * The conversation this mail belongs to, as a message id without brackets (`topic-12@forum.example`): named in
   * `In-Reply-To` and `References` so that mail clients group a topic's mails (contract §17).
   */
  thread?: string;
  /**
   * A mail a person can leave (notifications, digests): `List-Id` (RFC 2919: `id` a dot-atom such as
   * `digest.forum.example`, `name` its optional description), `List-Unsubscribe` (RFC 2369) and one-click (RFC 8058).
   */
  list?: { id: string; name?: string; unsubscribeUrl: string; unsubscribeMailto: string };
}

/**
 * Sends a mail, or throws (the job is tried again later). The adapter sets `From`, `Message-ID` and `Date`: SMTP
 * (SMTP_URL) or, without a server, an `.eml` file in the data folder.
 */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}
export const Mailer = Symbol.for('Mailer');

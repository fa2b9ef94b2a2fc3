/** A mail ready to leave: one recipient, a subject, both parts (UTF-8). */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** An account mail, sent by the machine (RFC 3834 `Auto-Submitted: auto-generated`): autoresponders stay quiet. */
  autoSubmitted: boolean;
}

/**
 * Sends a mail, or throws (the job is tried again later). The adapter sets `From`, `Message-ID` and `Date`: SMTP
 * (SMTP_URL) or, without a server, an `.eml` file in the data folder.
 */
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}
export const Mailer = Symbol.for('Mailer');

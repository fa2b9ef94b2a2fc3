import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Transporter } from 'nodemailer';
import { nodemailer } from './libraries.js';
import type { MailDetail, Mailbox, MailSummary } from '../../application/mail/mailbox.js';
import type { Mailer, OutgoingMail } from '../../application/mail/mailer.js';
import type { Clock } from '../../application/ports.js';
import { composedMail } from './message.js';
import { parseMessage, readHeaders } from './mime.js';

/**
 * Mail without a mail server (no SMTP_URL, contract §17): each message, composed by nodemailer as it would be
 * sent, is written as an RFC 5322 `.eml` file under `FORUM_DATA_DIR/mail`, named by when it was written (so that
 * names sort by time) and a random suffix. Written whole or not at all (a temporary file, then a rename), readable
 * by its owner only: the links in it work. `forumctl mail list` / `mail show` read the same folder.
 */
export class EmlFolder implements Mailer, Mailbox {
  /** Made at the first mail written (`forumctl mail list` only reads). */
  private writer: Transporter | null = null;
  private get transport(): Transporter {
    return (this.writer ??= nodemailer().createTransport({ streamTransport: true, buffer: true, newline: 'windows' }));
  }

  constructor(
    readonly folder: string,
    private readonly from: string,
    private readonly clock: Clock,
  ) {}

  async send(mail: OutgoingMail): Promise<void> {
    const date = this.clock.now();
    const info = await this.transport.sendMail(composedMail(mail, this.from, date));
    const id = `${date.toISOString().replace(/[-:]/g, '').replace('.', '')}-${randomBytes(4).toString('hex')}`;
    await mkdir(this.folder, { recursive: true, mode: 0o700 });
    const temporary = path.join(this.folder, `.${id}.tmp`);
    try {
      const file = await open(temporary, 'wx', 0o600);
      try {
        await file.writeFile(info.message as Buffer);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path.join(this.folder, `${id}.eml`));
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async list(limit: number): Promise<MailSummary[]> {
    const ids = (await this.ids()).slice(0, limit);
    const mails = await Promise.all(
      ids.map(async (id) => {
        const raw = await readFile(this.file(id)).catch(() => null);
        return raw && summary(id, readHeaders(raw));
      }),
    );
    return mails.filter((mail): mail is MailSummary => mail !== null);
  }

  async show(id: string): Promise<MailDetail | null> {
    const raw = await readFile(this.file(id)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return null;
      throw error;
    });
    if (!raw) return null;
    const message = parseMessage(raw);
    return { ...summary(id, message.headers), headers: message.headers, text: message.text, html: message.html };
  }

  /** Newest first: names start with the time they were written. */
  private async ids(): Promise<string[]> {
    const names = await readdir(this.folder).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [] as string[];
      throw error;
    });
    return names
      .filter((name) => name.endsWith('.eml') && !name.startsWith('.'))
      .map((name) => name.slice(0, -'.eml'.length))
      .sort()
      .reverse();
  }

  private file(id: string): string {
    return path.join(this.folder, `${path.basename(id)}.eml`);
  }
}

function summary(id: string, headers: { name: string; value: string }[]): MailSummary {
  const header = (name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value ?? '';
  const date = new Date(header('date'));
  // RFC 2919's List-Id names the kind of mail (`<messages.host>`): what the mailbox shows depends on it.
  const list = /<([a-z]+)\./i.exec(header('list-id'))?.[1]?.toLowerCase() ?? null;
  return { id, date: Number.isNaN(date.getTime()) ? null : date, to: header('to'), subject: header('subject'), list };
}

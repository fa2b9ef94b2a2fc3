import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, integerOption, requireAdministrator } from './shared.js';

const WHAT = 'reading mail';

/** Headers that say how the message is encoded, not what it says: left out of the text view (kept in --json). */
const MIME_HEADERS = new Set(['content-type', 'content-transfer-encoding', 'mime-version']);

/**
 * The mail the server wrote to the data folder (no SMTP_URL, contract §17): with it, the first sign-up of a new
 * forum is confirmed without any mail server. Administrators only: the links in it work.
 */
export function mailCommand(runtime: CliRuntime): Command {
  const mail = new Command('mail')
    .description(
      'the mail written to FORUM_DATA_DIR/mail when SMTP_URL is not set, digests, and the mail received for reply by e-mail (administrators)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl mail list\n  $ forumctl mail show 20261126T120000123Z-1a2b3c4d\n  $ forumctl mail digest\n  $ forumctl mail inbound',
    );

  mail
    .command('list')
    .description('newest first: id, date, recipient, subject')
    .option('--limit <n>', 'how many (1–1000)', '20')
    .addHelpText('after', '\nExamples:\n  $ forumctl mail list --limit 5\n  $ forumctl mail list --json')
    .action(
      action(runtime, async (context, options: { limit: string }) => {
        requireAdministrator(context, WHAT);
        const limit = integerOption(options.limit, 'limit', 1, 1000)!;
        const { folder, mails } = await context.session.useCases.listMail.execute(context.actor, limit);
        if (mails.length === 0) context.io.err(`note: no mail in ${folder}`);
        return {
          json: {
            folder,
            mails: mails.map((m) => ({ id: m.id, date: m.date?.toISOString() ?? null, to: m.to, subject: m.subject })),
          },
          text: table(
            ['id', 'date', 'to', 'subject'],
            mails.map((m) => [m.id, m.date?.toISOString() ?? '', m.to, m.subject]),
            [undefined, undefined, 40, 60],
          ),
        };
      }),
    );

  mail
    .command('show <id>')
    .description('one mail: its headers and its text part (--json: both parts)')
    .addHelpText('after', '\nExamples:\n  $ forumctl mail show 20261126T120000123Z-1a2b3c4d\n  $ forumctl mail show <id> --json')
    .action(
      action(runtime, async (context, id: string) => {
        requireAdministrator(context, WHAT);
        const shown = await context.session.useCases.showMail.execute(context.actor, id);
        const headers = shown.headers.filter((h) => !MIME_HEADERS.has(h.name.toLowerCase()));
        return {
          json: {
            id: shown.id,
            date: shown.date?.toISOString() ?? null,
            to: shown.to,
            subject: shown.subject,
            headers: shown.headers,
            text: shown.text,
            html: shown.html,
          },
          text: [...headers.map((h) => `${h.name}: ${h.value}`), '', shown.text.trimEnd()].join('\n'),
        };
      }),
    );

  mail
    .command('digest')
    .description(
      'queue the digests due now, as the hourly schedule does: to users not seen for their period (the server sends them)',
    )
    .addHelpText('after', '\nExamples:\n  $ forumctl mail digest\n  $ forumctl mail digest --json')
    .action(
      action(runtime, async (context) => {
        requireAdministrator(context, 'queueing digests');
        const queued = await context.session.useCases.queueDigests.execute();
        return { json: { queued }, text: `${queued} ${queued === 1 ? 'digest' : 'digests'} queued` };
      }),
    );

  mail
    .command('inbound')
    .description('mail received for reply by e-mail, newest first: when, via, from, user, topic, outcome, reason')
    .option('--limit <n>', 'how many (1–1000)', '20')
    .addHelpText('after', '\nExamples:\n  $ forumctl mail inbound\n  $ forumctl mail inbound --limit 100 --json')
    .action(
      action(runtime, async (context, options: { limit: string }) => {
        requireAdministrator(context, 'reading received mail');
        const limit = integerOption(options.limit, 'limit', 1, 1000)!;
        const mails = await context.session.useCases.listInboundMail.execute(context.actor, limit);
        if (mails.length === 0) context.io.err('note: no mail received (REPLY_BY_EMAIL, INBOUND_EMAIL_TOKEN, INBOUND_SMTP_PORT)');
        return {
          json: {
            mails: mails.map((m) => ({
              id: m.id,
              received_at: m.receivedAt.toISOString(),
              via: m.via,
              message_id: m.messageId,
              from: m.sender,
              user: m.login,
              user_id: m.userId,
              topic_id: m.topicId,
              outcome: m.outcome,
              reason: m.reason,
              reply_id: m.replyId,
              size: m.size,
            })),
          },
          text: table(
            ['when', 'via', 'from', 'user', 'topic', 'outcome', 'reason'],
            mails.map((m) => [
              m.receivedAt.toISOString(),
              m.via,
              m.sender ?? '',
              m.login ?? '',
              m.topicId === null ? '' : String(m.topicId),
              m.replyId === null ? m.outcome : `${m.outcome} #${m.replyId}`,
              m.reason ?? '',
            ]),
            [undefined, undefined, 32, 20, undefined, undefined, 40],
          ),
        };
      }),
    );

  return mail;
}

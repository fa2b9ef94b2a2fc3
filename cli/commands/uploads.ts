import { Command } from 'commander';
import { InvalidInput, NotFound } from '../../src/domain/shared/errors.js';
import { mayDeleteUpload } from '../../src/domain/uploads/upload.js';
import { oneOf, read } from '../../src/application/inputs.js';
import { PurgeOrphansParams } from '../../src/application/uploads/manage-uploads.js';
import { UPLOAD_STORES } from '../../src/application/uploads/migrate-uploads.js';
import type { UploadView } from '../../src/application/uploads/ports.js';
import type { ActionContext, CliRuntime } from '../runtime.js';
import { clip, type Printable, render, table, when } from '../output.js';
import {
  action,
  confirmed,
  namingNotFound,
  idArgument,
  integerOption,
  needing,
  noteMore,
  REASON_FLAGS,
  REASON_HELP,
  reasonOf,
  requireAdministrator,
} from './shared.js';

/** The width of `uploads list`'s name column. */
const NAME_WIDTH = 28;

/** A size as people read it: `812 B`, `283 KB`, `4.2 MB` (1 KB = 1,024 bytes). */
export function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** An upload named in a question or an answer: `upload 12 "IMG_0042.jpg" (283 KB) by alice`. */
const uploadName = (upload: UploadView) =>
  `upload ${upload.id}${upload.name === null ? '' : ` "${clip(upload.name, 60)}"`} (${humanSize(upload.byteSize)}) by ${upload.user.login}`;

/**
 * The uploads as a table. In a pipe: one tab-separated line per upload, its URL last. On a terminal, where a URL
 * (over 100 characters, most of them a SHA-256) would wrap into the next row, the URL goes on a line of its own
 * under its row, whole: the columns stay aligned, and the URL stays one link to click or copy.
 */
function uploadsTable(list: UploadView[]): Printable {
  const head = ['id', 'user', 'name', 'type', 'size', 'dimensions', 'created'];
  const rows = list.map((u) => [
    u.id,
    u.user.login,
    u.name,
    u.contentType,
    humanSize(u.byteSize),
    `${u.width}x${u.height}`,
    when(u.createdAt),
  ]);
  const widths = [undefined, 16, NAME_WIDTH];
  const withUrls = rows.map((row, i) => [...row, list[i]!.url]);
  return (terminal) => {
    if (!terminal) return render(table([...head, 'url'], withUrls), false);
    const [header, rule, ...lines] = render(table(head, rows, widths), true).split('\n');
    return [header, rule, ...lines.flatMap((line, i) => [line, `    ${list[i]!.url}`])].join('\n');
  };
}

const count = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/**
 * The upload the actor may delete, or not found (exit 4) before anything is asked: someone else's upload is not
 * found by a member, as over HTTP.
 */
async function deletableUpload(context: ActionContext, id: number): Promise<UploadView> {
  const upload = await context.session.useCases.uploads.find(id);
  if (!upload || !mayDeleteUpload(context.actor, { userId: upload.user.id })) throw new NotFound(`upload ${id}`);
  return upload;
}

/** forumctl uploads (contract §19): every upload's record, deleting one, the orphans' purge, and moving the files. */
export function uploadsCommand(runtime: CliRuntime): Command {
  const uploads = new Command('uploads')
    .description('uploaded images: list them, delete one, purge the unused ones, move them to another store')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl uploads list --user alice\n  $ forumctl uploads delete 12 --reason "not ours to publish"\n' +
        '  $ forumctl uploads purge-orphans --older-than 30 --yes\n  $ forumctl uploads migrate --to s3',
    );

  uploads
    .command('list')
    .description('uploads newest first, everyone’s or one user’s; a page that leaves some out says so on stderr (administrators)')
    .option('--user <login>', 'only the uploads of this user')
    .option('--offset <n>', 'how many to skip', '0')
    .option('--limit <n>', 'how many (1–150)', '20')
    .addHelpText('after', '\nExamples:\n  $ forumctl uploads list --limit 50\n  $ forumctl uploads list --user alice --json')
    .action(
      action(runtime, async (context, options: { user?: string; offset: string; limit: string }) => {
        const offset = integerOption(options.offset, 'offset', 0)!;
        const limit = integerOption(options.limit, 'limit', 1, 150)!;
        let userId: number | null = null;
        if (options.user !== undefined) {
          const user = await context.session.useCases.users.byLogin(options.user);
          if (!user) throw new NotFound(`user ${options.user}`);
          userId = user.id;
        }
        const { listUploads } = context.session.useCases;
        const list = await needing(context, 'listing uploads is for administrators', () =>
          listUploads.execute(context.actor, userId, { offset, limit }),
        );
        // A full page may leave older ones out: one more read tells, and stderr says so.
        if (list.length === limit) {
          const next = await listUploads.execute(context.actor, userId, { offset: offset + limit, limit: 1 });
          noteMore(context, next.length > 0, 'uploads', `older ones: --offset ${offset + limit} --limit ${limit}`);
        }
        return {
          json: { uploads: list.map((upload) => context.session.wire.upload(upload)) },
          text: uploadsTable(list),
        };
      }),
    );

  uploads
    .command('delete <id>')
    .description(
      'delete an upload, one’s own or (administrators; audited) anyone’s; its file goes with the last upload of the same bytes',
    )
    .option(REASON_FLAGS, REASON_HELP)
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl uploads delete 12 --reason "not ours to publish"\n  $ forumctl uploads delete 12 --as alice --yes',
    )
    .action(
      action(runtime, async (context, id: string, options: { reason?: string }) => {
        const uploadId = idArgument(id, 'id');
        const reason = reasonOf(options);
        const upload = await deletableUpload(context, uploadId);
        await confirmed(context, `Delete ${uploadName(upload)}?`);
        await namingNotFound('upload', uploadId, () =>
          context.session.useCases.deleteUpload.execute(context.actor, uploadId, reason),
        );
        const name = upload.name === null ? '' : `"${clip(upload.name, 60)}", `;
        return {
          json: context.session.wire.upload(upload),
          text: `upload ${uploadId} deleted (${name}${humanSize(upload.byteSize)}, uploaded by ${upload.user.login})`,
        };
      }),
    );

  uploads
    .command('purge-orphans')
    .description(
      'delete the uploads older than a number of days that no topic or reply refers to (held and hidden ones count), ' +
        'and their files, in batches (administrators)',
    )
    .requiredOption('--older-than <days>', 'age in days, at least 1 (a newer upload may be in a post still being written)')
    .addHelpText('after', '\nExample:\n  $ forumctl uploads purge-orphans --older-than 30 --yes')
    .action(
      action(runtime, async (context, options: { olderThan: string }) => {
        const needs = 'purging uploads is for administrators';
        const days = integerOption(options.olderThan, 'older-than')!;
        if (days < 1) {
          throw new InvalidInput(
            'older-than',
            'older-than must be at least 1 day: what was uploaded since may be in a post still being written',
          );
        }
        read(PurgeOrphansParams.shape.older_than, days, 'older-than');
        requireAdministrator(context, 'purging uploads');
        const before = when(new Date(Date.now() - days * 86_400_000));
        await confirmed(
          context,
          `Delete uploads older than ${count(days, 'day')} (before ${before} UTC) that no post uses, with their files?`,
        );
        const purged = await needing(context, needs, () =>
          context.session.useCases.purgeOrphanUploads.execute(context.actor, { older_than: days }),
        );
        return {
          json: purged,
          text: `purged ${count(purged.uploads, 'upload')} older than ${count(days, 'day')} that no post uses, and ${count(purged.files, 'stored file')}`,
        };
      }),
    );

  uploads
    .command('migrate')
    .description(
      'copy every stored file from the folder into the S3-compatible store (--to s3), or back (--to folder); files ' +
        'already there are left as they are, so it may run again (administrators)',
    )
    .requiredOption('--to <store>', `where to: ${UPLOAD_STORES.join(' | ')}`)
    .addHelpText('after', '\nExamples:\n  $ forumctl uploads migrate --to s3\n  $ forumctl uploads migrate --to folder --json')
    .action(
      action(runtime, async (context, options: { to: string }) => {
        const to = read(oneOf(UPLOAD_STORES), options.to, 'to');
        const progress = context.io.progress();
        const bar = progress.bar('copying files');
        const moved = await needing(context, 'moving uploads between stores is for administrators', () =>
          context.session.useCases.migrateUploads.execute(context.actor, to, (done, total) => bar.update(done, total)),
        ).finally(() => progress.stop());
        return {
          json: moved,
          text: `copied ${moved.copied.toLocaleString('en')} of ${count(moved.files, 'file')} from ${moved.from} to ${moved.to}`,
        };
      }),
    );

  return uploads;
}

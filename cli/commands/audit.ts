import { NotFound } from '../../src/domain/shared/errors.js';
import { Command } from 'commander';
import type { CliRuntime } from '../runtime.js';
import { table } from '../output.js';
import { action, needing, noteMore } from './shared.js';

const NEEDS = 'reading the audit log is for administrators';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from '../../src/domain/events.js';

/** `[before, after]` pairs as one short line per field. */
function changesText(changes: Record<string, [unknown, unknown]>): string {
  return Object.entries(changes)
    .map(([field, [before, after]]) => `${field}: ${JSON.stringify(before)} → ${JSON.stringify(after)}`)
    .join('\n');
}

export function auditCommand(runtime: CliRuntime): Command {
  const audit = new Command('audit')
    .description('the moderation audit log: who did what, to which record, and why')
    .addHelpText('after', '\nExample:\n  $ forumctl audit list --action topic.ban --limit 5');

  audit
    .command('list')
    .description('newest first; the filters combine (administrators)')
    .option('--action <action>', `one of ${AUDIT_ACTIONS.join(', ')}`)
    .option('--actor <login>', 'who acted')
    .option('--target-type <type>', `one of ${AUDIT_TARGET_TYPES.join(', ')}`)
    .option('--target-id <id>', 'the record acted on')
    .option('--offset <n>', 'how many to skip', '0')
    .option('--limit <n>', 'how many (1–150)', '20')
    .addHelpText(
      'after',
      '\nExamples:\n  $ forumctl audit list --actor system\n  $ forumctl audit list --target-type Topic --target-id 42 --json',
    )
    .action(
      action(
        runtime,
        async (
          context,
          options: { action?: string; actor?: string; targetType?: string; targetId?: string; offset: string; limit: string },
        ) => {
          const filters = {
            action: options.action,
            actor: options.actor,
            target_type: options.targetType,
            target_id: options.targetId,
          };
          // A login that names no user is not found, as every command that takes a login says (the API lists nothing).
          if (
            options.actor !== undefined &&
            context.actor.role === 'admin' &&
            !(await context.session.useCases.users.byLogin(options.actor))
          ) {
            throw new NotFound(`user ${options.actor}`);
          }
          const entries = await needing(context, NEEDS, () =>
            context.session.useCases.listAudit.execute(context.actor, {
              ...filters,
              offset: options.offset,
              limit: options.limit,
            }),
          );
          // A full page may leave older entries out: one more read tells, and stderr says so.
          const [offset, limit] = [Number(options.offset), Number(options.limit)];
          if (entries.length === limit) {
            const next = await context.session.useCases.listAudit.execute(context.actor, {
              ...filters,
              offset: String(offset + limit),
              limit: '1',
            });
            noteMore(context, next.length > 0, 'entries', `older ones: --offset ${offset + limit} --limit ${limit}`);
          }
          const shown = entries.map((entry) => context.session.wire.auditEntry(entry, context.actor));
          return {
            json: { entries: shown },
            text: table(
              ['id', 'at', 'action', 'actor', 'target', 'changes', 'reason'],
              shown.map((entry) => [
                entry.id,
                entry.created_at,
                entry.action,
                entry.actor.login,
                `${entry.target_type} ${entry.target_id}`,
                changesText(entry.changes),
                entry.reason,
              ]),
            ),
          };
        },
      ),
    );

  return audit;
}

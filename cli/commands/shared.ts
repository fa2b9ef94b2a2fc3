import type { Command } from 'commander';
import { InvalidInput, NotFound } from '../../src/domain/shared/errors.js';
import { SYSTEM_LOGIN, type ActingUser } from '../../src/application/actor.js';
import type { ActionContext, CliRuntime, CliSession, GlobalOptions } from '../runtime.js';

/**
 * Wraps a command's action: opens the session, resolves `--as`, runs the work inside a persistence context,
 * then prints either the JSON document (`--json`) or the human text. Errors propagate to the entry point,
 * which prints one line and sets the exit code.
 */
export function action<A extends unknown[]>(
  runtime: CliRuntime,
  work: (context: ActionContext, ...args: A) => Promise<{ json: unknown; text: string }>,
) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals<GlobalOptions>();
    const session = await runtime.connect();
    const result = await session.scope(async () => {
      const actor = await actingUser(session, options.as);
      return work({ session, actor, options, io: runtime.io }, ...(args.slice(0, -1) as A));
    });
    runtime.io.out(options.json ? JSON.stringify(result.json) : result.text);
  };
}

async function actingUser(session: CliSession, login: string | undefined): Promise<ActingUser> {
  const user = await session.useCases.users.byLogin(login ?? SYSTEM_LOGIN);
  if (!user) throw new NotFound(`user ${login}`);
  return { id: user.id, login: user.login, role: user.role };
}

/** A positive whole-number argument (an id), or an invalid-input error naming it. */
export function idArgument(value: string, name: string): number {
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2_147_483_647) {
    throw new InvalidInput(name, `${name} must be a positive whole number, got "${value}"`);
  }
  return Number(value);
}

export function integerOption(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d{1,10}$/.test(value)) throw new InvalidInput(name, `${name} must be a whole number, got "${value}"`);
  return Number(value);
}

/**
 * Destructive commands ask first, but only on a terminal: a script (stdin not a terminal) is never asked,
 * and `--yes` skips the question.
 */
export async function confirmed(context: ActionContext, question: string): Promise<void> {
  if (context.options.yes || !context.io.stdinIsTerminal) return;
  if (!(await context.io.confirm(`${question} [y/N] `))) throw new Error('cancelled');
}

export const OK_RESULT = (text: string) => ({ json: { ok: 1 }, text });

export function positiveSeconds(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value) || Number(value) < 1)
    throw new InvalidInput('expires-in', 'expires-in must be a positive number of seconds');
  return Number(value);
}

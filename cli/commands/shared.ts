import type { Command } from 'commander';
import { Forbidden, InvalidInput, NotFound } from '../../src/domain/shared/errors.js';
import { Id, read, readReason, wholeNumber } from '../../src/application/inputs.js';
import { requireAdmin, SYSTEM_LOGIN, type ActingUser } from '../../src/application/actor.js';
import type { ActionContext, CliRuntime, CliSession, GlobalOptions } from '../runtime.js';
import { type Printable, render } from '../output.js';

/**
 * Wraps a command's action: opens the session, resolves `--as`, runs the work inside a persistence context,
 * then prints either the JSON document (`--json`) or the human text. Errors propagate to the entry point,
 * which prints one line and sets the exit code.
 */
export function action<A extends unknown[]>(
  runtime: CliRuntime,
  work: (context: ActionContext, ...args: A) => Promise<{ json: unknown; text: Printable }>,
) {
  return async (...args: unknown[]): Promise<void> => {
    const command = args[args.length - 1] as Command;
    const options = command.optsWithGlobals<GlobalOptions>();
    const session = await runtime.connect();
    const result = await session.scope(async () => {
      const actor = await actingUser(session, options.as);
      return work({ session, actor, options, io: runtime.io }, ...(args.slice(0, -1) as A));
    });
    runtime.io.out(options.json ? JSON.stringify(result.json) : render(result.text, runtime.io.stdoutIsTerminal));
  };
}

/**
 * The HTTP API's policy for what the API leaves to administrators (maintenance, apps, the database): forumctl
 * `--as` a member may do there what the member may over HTTP, which is nothing (exit 3). Without `--as`, the
 * system moderator is an administrator.
 */
export function requireAdministrator(context: ActionContext, what: string): ActingUser {
  if (context.actor.role !== 'admin') throw denied(context, `${what} is for administrators`);
  return requireAdmin(context.actor);
}

const ROLE_NAMES = { admin: 'an administrator', member: 'a member', blocked: 'blocked' } as const;

/**
 * A refusal that says which permission was missing and what the actor is: `Access denied: banning topics is for
 * administrators; bob is a member` (exit 3, as every refusal).
 */
export function denied(context: ActionContext, needs: string): Forbidden {
  return new Forbidden(`Access denied: ${needs}; ${context.actor.login} is ${ROLE_NAMES[context.actor.role]}`);
}

/**
 * Runs a use case whose refusal the command can name: the use case decides (the one policy), and a refusal
 * says what was needed instead of a bare `Access denied`.
 */
export async function needing<T>(context: ActionContext, needs: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof Forbidden) throw denied(context, needs);
    throw error;
  }
}

/** An administrator, or the user themself (`--as alice` about alice). */
export function isSelfOrAdministrator(context: ActionContext, userId: number): boolean {
  return context.actor.role === 'admin' || context.actor.id === userId;
}

/**
 * A list cut at a page: the rest is named on stderr (never on stdout, which scripts read), with the option that
 * shows it.
 */
export function noteMore(context: ActionContext, more: boolean, what: string, next: string): void {
  if (more) context.io.err(`note: more ${what} than shown; ${next}`);
}

export async function actingUser(session: CliSession, login: string | undefined): Promise<ActingUser> {
  const user = await session.useCases.users.byLogin(login ?? SYSTEM_LOGIN);
  if (!user) throw new NotFound(`user ${login}`);
  return { id: user.id, login: user.login, role: user.role };
}

/*
 * Arguments and options are read with the same schemas as the API's parameters (src/application/inputs.ts):
 * an id is an id wherever it comes from, and a bad one is the same invalid-input error (exit 2).
 */

/** A positive whole-number argument (an id). */
export function idArgument(value: string, name: string): number {
  return read(Id, value, name);
}

/** A whole-number option within [min, max] (any 32-bit integer unless told otherwise); absent stays absent. */
export function integerOption(value: string | undefined, name: string, min = -2_147_483_648, max = 2_147_483_647) {
  return value === undefined ? undefined : read(wholeNumber(min, max), value, name);
}

/**
 * Destructive commands ask first, but only on a terminal: a script (stdin not a terminal) is never asked,
 * and `--yes` skips the question.
 */
export async function confirmed(context: ActionContext, question: string): Promise<void> {
  if (context.options.yes || !context.io.stdinIsTerminal) return;
  if (!(await context.io.confirm(`${question} [y/N] `))) throw new Error('cancelled');
}

/** `--reason`, on every command the audit log records (contract §14). */
export const REASON_FLAGS = '--reason <text>';
export const REASON_HELP = 'why: kept with the act in the audit log (at most 500 characters)';

export function reasonOf(options: { reason?: string }): string | null {
  return readReason(options.reason);
}

/**
 * What a command that changed a topic prints: the topic as the API shows it (to the actor), deleted or not, as
 * JSON with `--json`; `text` otherwise.
 */
export async function topicResult(context: ActionContext, id: number, text: string) {
  const found = await context.session.useCases.topics.detailInAnyState(id);
  if (!found) throw new NotFound(`topic ${id}`);
  const topic = context.session.wire.topicDetail(found.topic, context.actor);
  return { json: found.deleted ? { ...topic, deleted: true } : topic, text };
}

/** The same for a reply (a deleted one shows no text, as in the API). */
export async function replyResult(context: ActionContext, id: number, text: string) {
  const reply = await context.session.useCases.replies.detailInAnyState(id);
  if (!reply) throw new NotFound(`reply ${id}`);
  return { json: context.session.wire.replyDetail(reply, context.actor), text };
}

/** A lifetime in seconds: at least one second, at most ten years. */
export function positiveSeconds(value: string | undefined): number | undefined {
  return integerOption(value, 'expires-in', 1, 10 * 365 * 86_400);
}

/**
 * Work on one record named by its id, whose not-found (the use case's, which says only `what`) names the id, as
 * forumctl's other commands do: `error: review item 12 not found`.
 */
export async function namingNotFound<T>(what: string, id: number, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof NotFound && error.what === what ? new NotFound(`${what} ${id}`) : error;
  }
}

/**
 * A secret from the environment variable an option names (`--client-secret-env`, `--secret-env`): what forumctl
 * offers instead of the secret as an argument, which a process list and a shell's history would keep.
 */
export function secretFromEnvironment(variable: string, option: string): string {
  const value = process.env[variable];
  if (!value) throw new InvalidInput(option, `the environment variable ${variable} is empty or not set`);
  return value;
}

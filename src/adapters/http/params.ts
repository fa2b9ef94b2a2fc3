import type { Context, Next } from 'koa';
import { z } from 'zod';
import { InvalidInput } from '../../domain/shared/errors.js';

export type Params = Record<string, unknown>;

const MAX_INT = 2_147_483_647;

/** `ids[]` (Rails style) and `ids` name the same parameter. */
function normalizeKeys(source: Record<string, unknown>): Params {
  const params: Params = {};
  for (const [key, value] of Object.entries(source)) params[key.endsWith('[]') ? key.slice(0, -2) : key] = value;
  return params;
}

/**
 * Query string, form body and JSON body merged into `ctx.state.params` (the body wins), as the contract says.
 * A JSON body must be an object.
 */
export async function mergeParams(ctx: Context, next: Next): Promise<void> {
  const body = (ctx.request as { body?: unknown }).body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new InvalidInput('body', 'The request body must be a JSON object');
  }
  ctx.state.params = { ...normalizeKeys(ctx.query), ...normalizeKeys((body as Record<string, unknown>) ?? {}) };
  await next();
}

const WHOLE = 'must be a whole number';
const TEXT = 'must be a string';

/** Blank means absent for optional parameters (`node_id=` lists every node). */
const blankIsAbsent = (value: unknown) => (value === '' || value === null ? undefined : value);

const integer = z
  .union(
    [
      z.number({ error: WHOLE }),
      z
        .string({ error: WHOLE })
        .trim()
        .regex(/^[+-]?\d{1,12}$/, { error: WHOLE }),
    ],
    { error: WHOLE },
  )
  .transform(Number)
  .pipe(z.number().int({ error: WHOLE }).min(-MAX_INT, { error: 'is out of range' }).max(MAX_INT, { error: 'is out of range' }));

const identifier = integer.pipe(z.number().min(1, { error: 'must be a positive id' }));

/** Text fields accept JSON strings and numbers (clients send `"title": 123`); nothing else. */
const text = z.union([z.string({ error: TEXT }), z.number({ error: TEXT }).transform(String)], { error: TEXT });

export const param = {
  optionalInteger: z.preprocess(blankIsAbsent, integer.optional()),
  optionalId: z.preprocess(blankIsAbsent, identifier.optional()),
  optionalText: text.optional(),
};

/** Parses request parameters; the first problem becomes a ParameterInvalid error that names the parameter. */
export function parseParams<S extends z.ZodType>(schema: S, params: Params): z.output<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? 'parameters');
  throw new InvalidInput(name, `${name} ${issue.message}`);
}

/**
 * A path id. An id that cannot exist is passed on as 0, which no record has: the use case then answers in
 * the contract's order (401 before 404).
 */
export function pathId(raw: string | undefined): number {
  if (raw === undefined || !/^\d{1,10}$/.test(raw)) return 0;
  const id = Number(raw);
  return id <= MAX_INT ? id : 0;
}

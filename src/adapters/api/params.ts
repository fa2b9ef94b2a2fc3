import type { Context, Next } from 'koa';
import { z } from 'zod';
import { InvalidInput } from '../../domain/shared/errors.js';
import { Id, Reason } from '../../application/inputs.js';

export type Params = Record<string, unknown>;

const MAX_INT = 2_147_483_647;

/** Moderation endpoints take an optional `reason`, which the audit log keeps (contract §14). */
export const ReasonParam = Reason.meta({
  description: 'why, for the audit log when this is a moderation act (at most 500 characters)',
  example: 'spam',
});
export const ReasonQuery = z.object({ reason: ReasonParam });

/** The `:id` of a path, as the document describes it (the route reads it with pathId). */
export const IdPath = z.object({ id: Id });

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
export function mergeParams(ctx: Context, next: Next): Promise<void> {
  const body = (ctx.request as { body?: unknown }).body;
  if (body !== undefined && (typeof body !== 'object' || body === null || Array.isArray(body))) {
    throw new InvalidInput('body', 'The request body must be a JSON object');
  }
  ctx.state.params = { ...normalizeKeys(ctx.query), ...normalizeKeys((body as Record<string, unknown>) ?? {}) };
  return next();
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

import { z } from 'zod';
import { InvalidInput } from '../domain/shared/errors.js';

/**
 * The one vocabulary for values that come in from outside (HTTP query strings, forms and JSON bodies, forumctl's
 * arguments), as zod schemas. The use cases read their parameters with them, at the point the contract's order
 * of checks puts them (authentication, the record, then parameters); the HTTP adapter builds the OpenAPI
 * document from the same schemas, so what is documented is what is checked.
 *
 * Query strings and forms carry numbers as text: a whole number written out is read as one. Clients send
 * `"title": 123`: a number is read as its text. Absent is a parameter error; present but blank is left to the
 * record's own validation (contract §2 tells the two apart).
 */

export const MAX_ID = 2_147_483_647;
const WHOLE = /^\s*[+-]?\d{1,12}\s*$/;

const asNumber = (value: unknown) => (typeof value === 'string' && WHOLE.test(value) ? Number(value) : value);
const asText = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : value);
/** Blank means absent for optional parameters (`node_id=` lists every node). */
const blankIsAbsent = (value: unknown) => (value === '' || value === null ? undefined : value);

const WHOLE_NUMBER = 'must be a whole number';

/**
 * What refinements check, as the OpenAPI document says it (JSON Schema patterns; a refinement itself is invisible
 * to the document): text without NUL; text with something besides whitespace (`trim()`'s), and without NUL.
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
export const NOT_BLANK_PATTERN = '^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$';

/** Text (titles, bodies, tokens): a string, never with NUL, which PostgreSQL text cannot hold. */
export const Text = z
  .preprocess(
    asText,
    z.string({ error: 'must be a string' }).refine((text) => !text.includes('\u0000'), 'must not contain NUL characters'),
  )
  .meta({ pattern: NO_NUL_PATTERN });

/** A record id: a positive whole number that fits PostgreSQL's integer. */
export const Id = z.preprocess(
  asNumber,
  z
    .number({ error: 'must be a positive id' })
    .int({ error: 'must be a positive id' })
    .min(1, { error: 'must be a positive id' })
    .max(MAX_ID, { error: 'must be a positive id' }),
);

/**
 * A reference to a record that is looked up, where naming none is "not found" (contract §6: a `node_id` of 0 or
 * below is a node that does not exist, like any other unknown id): a whole number that fits PostgreSQL's integer,
 * of either sign. Only a value that is not a whole number is a parameter error.
 */
export const Ref = z.preprocess(
  asNumber,
  z
    .number({ error: 'must be a whole number' })
    .int({ error: 'must be a whole number' })
    .min(-MAX_ID, { error: 'must be a whole number' })
    .max(MAX_ID, { error: 'must be a whole number' }),
);

/** A whole number within [min, max]. */
export function wholeNumber(min: number, max: number) {
  return z.preprocess(
    asNumber,
    z
      .number({ error: WHOLE_NUMBER })
      .int({ error: WHOLE_NUMBER })
      .min(min, { error: `must be between ${min} and ${max}` })
      .max(max, { error: `must be between ${min} and ${max}` }),
  );
}

/** An optional parameter: blank or absent gives `fallback`. */
export function optional<S extends z.ZodType, D extends z.output<S>>(schema: S, fallback: D) {
  return z.preprocess(blankIsAbsent, schema.optional()).transform((value) => (value ?? fallback) as z.output<S>);
}

/** An optional parameter with no default: blank or absent is `undefined`. */
export function maybe<S extends z.ZodType>(schema: S) {
  return z.preprocess(blankIsAbsent, schema.optional());
}

/** Paging, as every list of the contract takes it: `offset` ≥ 0 (default 0), `limit` in [min, max]. */
export const Offset = optional(wholeNumber(0, MAX_ID), 0).meta({ description: 'how many to skip', example: 0 });

export function limit(min: number, max: number, fallback: number) {
  return optional(wholeNumber(min, max), fallback).meta({ description: `how many, ${min} to ${max}`, example: fallback });
}

/** One of a closed set of words, in any case. */
export function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? value.toLowerCase() : value),
    z.enum(values, { error: `must be one of ${values.join(', ')}` }),
  );
}

/** The page size of most lists of the contract. */
export const ListLimit = limit(1, 150, 20);

/** The paging parameters of a list: `offset`, and `limit` by `limitSchema` (the contract's 1..150 unless the list says otherwise). */
export function pageParams<L extends z.ZodType<number>>(limitSchema: L) {
  return z.object({ offset: Offset, limit: limitSchema });
}

/** The paging parameters of most lists of the contract (`readAll(PageParams, input)` is a Page). */
export const PageParams = pageParams(ListLimit);

/** One of a closed set of words, in any case, where anything else (absent included) means `fallback`. */
export function oneOfOr<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.preprocess((value) => {
    const lowered = typeof value === 'string' ? value.toLowerCase() : value;
    return (values as readonly unknown[]).includes(lowered) ? lowered : fallback;
  }, z.enum(values).default(fallback));
}

/** Why a moderator acted, kept by the audit log: optional text, at most 500 characters; blank is none. */
export const Reason = maybe(
  Text.pipe(z.string().trim().max(500, { error: 'must be at most 500 characters' })).transform((text) => text || undefined),
).meta({ maxLength: 500 });

/** A `reason` parameter as the use cases take it: the text, or null for none. */
export function readReason(value: unknown): string | null {
  return read(Reason, value, 'reason') ?? null;
}

/** A list of ids: a JSON array, or repeated `ids[]=` / `ids=` form keys. */
export const Ids = z.array(Id, { error: 'must be an array of ids' }).max(1000, { error: 'may list at most 1000 ids' });

/**
 * Reads one parameter: its value, or InvalidInput naming it (`title is missing`, `limit must be between 1 and
 * 150`). Blank text is no error here (the record's validation decides).
 */
export function read<S extends z.ZodType>(schema: S, value: unknown, name: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  if (value === undefined || value === null) throw new InvalidInput(name, `${name} is missing`);
  throw new InvalidInput(name, `${name} ${result.error.issues[0]!.message}`);
}

/** Reads an object of parameters at once; the first problem names its parameter. */
export function readAll<S extends z.ZodType>(schema: S, values: unknown): z.output<S> {
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const name = String(issue.path[0] ?? 'parameters');
  const value = (values as Record<string, unknown> | null)?.[name];
  if (value === undefined || value === null) throw new InvalidInput(name, `${name} is missing`);
  throw new InvalidInput(name, `${name} ${issue.message}`);
}

/** A parameter as it arrives, before it is read. */
export type RawParam = unknown;

import type { Context, Next } from 'koa';
import { z } from 'zod';
import { readAll } from '../../application/inputs.js';
import { SecondFactorFirst } from '../../application/actor.js';
import { AccountNotActive } from '../../application/oauth/password-login.js';
import { Forbidden, InvalidInput, NotFound, RuleViolated, TooManyRequests } from '../../domain/shared/errors.js';
import { DENIED } from '../../domain/shared/policy.js';
import type { RefusalWords } from '../presentation/words/index.js';

/**
 * Forms, and the one way a page says no.
 *
 * A page reads its form through a zod schema: the object schema of parameters its use case exports (made of
 * application/inputs.ts), extended with the page's own fields (its CSRF token, a checkbox), the same schema its
 * operation documents. Reading it registers how the page shows the form again.
 *
 * Whatever then refuses the form — the schema, a use case (a domain error: a rule, a throttle, a forbidden invite;
 * an account that may not sign in yet), or the page itself (`refuse`: two passwords that differ, a box not
 * ticked) — is caught in one place, the `refusals` middleware in front of every page, and the form is shown again,
 * with the refusal in the reader's language and what the person typed (never a password). Anything else goes on
 * up to the service's error mapper.
 */

/** Where an administrator held back by REQUIRE_2FA sets up a second factor (views/two-factor.tsx). */
const SECOND_FACTOR_SETUP = '/account/settings/two-factor';

/** A request's parameters: its query and its body, merged (the body wins) for every request of the service. */
export type Params = Record<string, unknown>;

/** The parameters of this request (src/server merges them before any route runs). */
export function paramsOf(ctx: Context): Params {
  return ctx.state.params as Params;
}

/** What a person typed into a form, as text: each field trimmed, but passwords and the page's own tokens as sent. */
export type Typed = Partial<Record<string, string>>;

/** Fields whose every character counts: passwords, and the tokens the page put in the form. */
const AS_SENT = /password|^csrf_token$|^token$/;

function typedOf(params: Params): Typed {
  const typed: Typed = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'string') typed[name] = AS_SENT.test(name) ? value : value.trim();
  }
  return typed;
}

/** A refusal, as a page shows it beside its form. */
export interface Refusal {
  status: number;
  /** In the reader's language. */
  message: string;
  /** The right password for an account whose address is not confirmed: a sign-in form offers the mail again. */
  unverified: boolean;
}

/** How a page shows its form again when it is refused. */
export interface FormPage {
  /** The words the refusal is said in (the page's language's). */
  words: RefusalWords;
  /** The form again, with the refusal and what was typed (no password: a page never shows one). */
  again(refusal: Refusal, typed: Typed): void | Promise<void>;
  /** What a forbidden act means on this form (sign-up: the invite code is not valid). */
  forbidden?: string;
  /** What a field the schema requires, left out, means on this form (fill in the fields). */
  missing?: string;
  /**
   * What the form chooses (`node`: the node a topic goes to): that it is not found is the form's mistake, said on
   * it, not a page that is not there.
   */
  chosen?: string[];
}

/** A refusal the page itself makes; `status` 200 for one that only asks to try again (a wrong password). */
class PageRefused extends Error {
  constructor(
    readonly said: string,
    readonly status: number,
  ) {
    super(said);
  }
}

/** Refuses the form being handled, with these words (already in the reader's language). */
export function refuse(said: string, status = 400): never {
  throw new PageRefused(said, status);
}

const FORM = Symbol('form');
type WithForm = { [FORM]?: FormPage };

/** What was typed into this request's form (or its query), as text. */
export function typedIn(ctx: Context): Typed {
  return typedOf(paramsOf(ctx));
}

/** Registers `page` to show this request's form again if it is refused (a form with nothing to read but its token). */
export function handleForm(ctx: Context, page: FormPage): void {
  (ctx.state as WithForm)[FORM] = page;
}

/**
 * Reads the form of this request with `schema` and registers `page` to show it again if it is refused; a field
 * that does not pass the schema refuses it at once.
 */
export function readForm<S extends z.ZodObject>(ctx: Context, schema: S, page: FormPage): z.output<S> {
  handleForm(ctx, page);
  const params = paramsOf(ctx);
  const values = { ...params, ...typedOf(params) };
  const read = schema.safeParse(values);
  if (read.success) return read.data;
  const name = String(read.error.issues[0]!.path[0] ?? '');
  if (page.missing && (values[name] === undefined || values[name] === null)) refuse(page.missing);
  return readAll(schema, values); // throws the parameter's InvalidInput, named as the API names it
}

const isChosen = (page: FormPage, error: NotFound) => page.chosen?.some((what) => error.what.startsWith(what)) ?? false;

/**
 * Whether what was not found is what this request's form chose (its refusal, then, not a page that is not there):
 * the pages' not-found page leaves it to the refusal path.
 */
export function formChose(ctx: Context, error: NotFound): boolean {
  const page = (ctx.state as WithForm)[FORM];
  return page !== undefined && isChosen(page, error);
}

/** What a refusal says, and its status; null for an error that is no refusal of a form. */
function refusalOf(error: unknown, page: FormPage, ctx: Context): Refusal | null {
  const { words } = page;
  const refusal = (status: number, message: string, unverified = false): Refusal => ({ status, message, unverified });
  if (error instanceof PageRefused) return refusal(error.status, error.said);
  if (error instanceof AccountNotActive) {
    const said = {
      unverified: () => words.notConfirmed,
      pending: () => words.awaitingApproval,
      suspended: () => words.suspended(error.until!.toISOString()),
      // No password opens an account that left: should one ever be refused so, it is told as a wrong password.
      left: () => words.wrongLogin,
    }[error.state]();
    // The password was right: the page answers as to a wrong one (200), with what the account waits for.
    return refusal(200, said, error.state === 'unverified');
  }
  if (error instanceof RuleViolated || error instanceof InvalidInput) return refusal(400, words.rule(error.message));
  if (error instanceof NotFound && isChosen(page, error)) return refusal(400, words.rule(error.message));
  if (error instanceof TooManyRequests) {
    ctx.set('Retry-After', String(error.retryAfterSeconds));
    return refusal(429, words.tooMany(error.retryAfterSeconds));
  }
  if (error instanceof Forbidden) {
    const said = deniedIn(words, error.publicMessage, page.forbidden);
    return said === undefined ? null : refusal(403, said);
  }
  return null;
}

const DENIED_KEYS = Object.keys(DENIED) as (keyof typeof DENIED)[];

/**
 * What a page says of a forbidden act. The API keeps homeland's words for some refusals (`The current user does not
 * have permission to …`, DENIED), which are no sentence to show a person: a page says what the form's refusal means
 * (`forbidden`), else the words for it in the reader's language. A sentence the core wrote for people (a silence, a
 * move out of a moderator's nodes) is shown as it is; a refusal without words means what the form says it means.
 */
function deniedIn(words: RefusalWords, message: string | undefined, forbidden: string | undefined): string | undefined {
  const homeland = DENIED_KEYS.find((key) => DENIED[key] === message);
  if (homeland) return forbidden ?? words.denied[homeland];
  return message ?? forbidden;
}

/**
 * The one refusal path: in front of every page, it shows a refused form again (see above). An administrator held
 * back by REQUIRE_2FA=admins (SecondFactorFirst) is sent to set up two-factor sign-in instead, whatever the page.
 */
export async function refusals(ctx: Context, next: Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    if (error instanceof SecondFactorFirst) {
      ctx.status = 303;
      ctx.set('Cache-Control', 'no-store');
      return ctx.redirect(`${SECOND_FACTOR_SETUP}?required=admins`);
    }
    const page = (ctx.state as WithForm)[FORM];
    const refusal = page ? refusalOf(error, page, ctx) : null;
    if (!page || !refusal) throw error;
    const typed = Object.entries(typedOf(paramsOf(ctx))).filter(([name]) => !name.includes('password'));
    await page.again(refusal, Object.fromEntries(typed));
  }
}

/**
 * A mailed link's token, as its page reads it: a value that is not text is no token, and the page says the link
 * cannot be used.
 */
const LinkToken = z.object({ token: z.string().catch('') });

export function linkTokenOf(ctx: Context): string {
  return LinkToken.parse(paramsOf(ctx)).token;
}

import type { Context } from 'koa';
import { localeOf } from '../presentation/locale.js';
import { type Words, wordsOf } from '../presentation/words/index.js';
import type { Frame } from './views/layout.js';

/**
 * The page's language (`lang`, else Accept-Language) and, for a page that was asked for (GET), its place: its path
 * and query without `lang`, for the link to it in the other language.
 */
export function frameOf(ctx: Context): Readonly<Frame> {
  // Asked for several times a page (its reader, its words, its cache key): made once, as it cannot change.
  const state = ctx.state as { [FRAME]?: Readonly<Frame> };
  return (state[FRAME] ??= Object.freeze(frameMadeFor(ctx)));
}
const FRAME = Symbol('frame');

function frameMadeFor(ctx: Context): Frame {
  if (ctx.method !== 'GET') return { locale: localeOf(ctx) };
  // Most pages are asked for without a query: no need to parse one (URLSearchParams costs microseconds).
  if (ctx.querystring === '') return { locale: localeOf(ctx), here: ctx.path };
  const query = new URLSearchParams(ctx.querystring);
  query.delete('lang');
  const rest = query.toString();
  return { locale: localeOf(ctx), here: rest ? `${ctx.path}?${rest}` : ctx.path };
}

/** The words of the reader's language. */
export function wordsIn(ctx: Context): Words {
  return wordsOf(localeOf(ctx));
}

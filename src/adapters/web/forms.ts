import type { Context } from 'koa';

/** A request's parameters: its query and its body, merged (the body wins) for every request of the service. */
export type Params = Record<string, unknown>;

/** The parameters of this request (src/server merges them before any route runs). */
export function paramsOf(ctx: Context): Params {
  return ctx.state.params as Params;
}

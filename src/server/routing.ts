import type Router from '@koa/router';
import type Koa from 'koa';

/** Routers mounted as one middleware; `routers` lists them (what the OpenAPI test reads the served routes from). */
export type MountedRouters = Koa.Middleware & { readonly routers: readonly Router[] };

/**
 * Where a route with a parameter may match: paths beginning with `head` and, unless its pattern can span segments
 * (a wildcard, an optional part, a group), of exactly `segments` segments (a parameter matches within one).
 */
interface Head {
  head: string;
  segments: number | null;
}

/** How a router's paths begin: paths it could serve match one of `heads` or are one of `exact`. */
interface Heads {
  heads: Head[];
  exact: Set<string>;
}

const PARAMETER = /[:*({?]/;
const SPANNING = /[*({?]/;

/** A path's segments, as a route's pattern counts them: its slashes, less the trailing ones (they match either way). */
function segmentsOf(path: string): number {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  let segments = 0;
  for (let i = 0; i < end; i++) if (path.charCodeAt(i) === 47) segments++;
  return segments;
}

const serves = (head: Head, path: string, segments: number) =>
  path.startsWith(head.head) && (head.segments === null || head.segments === segments);

/**
 * What every path a router serves begins with, lower-cased (its routes match regardless of case, and with or without
 * a trailing slash). A route with no parameter is its whole path; one with a parameter, the part before it and its
 * number of segments; a regular expression, anything. Middleware layers (`router.use`) count for nothing: a router
 * runs them only for a path one of its routes matched.
 */
function headsOf(router: Router): Heads {
  const heads = new Map<string, Head>();
  const exact = new Set<string>();
  for (const layer of router.stack) {
    if (layer.methods.length === 0) continue;
    if (typeof layer.path !== 'string') {
      heads.set('|', { head: '', segments: null });
      continue;
    }
    const path = layer.path.toLowerCase();
    const parameter = path.search(PARAMETER);
    if (parameter >= 0) {
      const head = { head: path.slice(0, parameter), segments: SPANNING.test(path) ? null : segmentsOf(path) };
      heads.set(`${head.head}|${head.segments}`, head);
    } else {
      const bare = path.replace(/\/+$/, '');
      exact.add(bare || '/');
      exact.add(`${bare}/`);
    }
  }
  // A head that another covers (beginning it, for any number of segments or the same) adds nothing; nor does a path
  // one covers.
  const all = [...heads.values()];
  const kept = all.filter(
    (each) =>
      !all.some(
        (other) =>
          other !== each && each.head.startsWith(other.head) && (other.segments === null || other.segments === each.segments),
      ),
  );
  return {
    heads: kept,
    exact: new Set([...exact].filter((path) => !kept.some((head) => serves(head, path, segmentsOf(path))))),
  };
}

function mayServe(heads: Heads, path: string, segments: number): boolean {
  if (heads.exact.has(path)) return true;
  for (const head of heads.heads) if (serves(head, path, segments)) return true;
  return false;
}

/** The path as the routers compare it: lower-cased, made only for a path with a capital (they are rare). */
const comparable = (path: string) => (/[A-Z]/.test(path) ? path.toLowerCase() : path);

/**
 * `routers`, in their order, each asked only about the paths it has a route for. @koa/router asks every route of a
 * router in turn, a regular expression each, and reads the Host header on each pass: the API's resources alone are
 * over a hundred routes, tested in full by every request, down to the lightest read (docs/performance.md). Here a
 * request's path picks the routers that have a route beginning as it does (with as many segments, where its
 * pattern fixes them), by a few string comparisons; a path none of them knows goes on untouched. What a router answers is unchanged: the same routers see the same requests,
 * less the ones they could not have matched.
 */
export function routersFor(routers: readonly Router[]): MountedRouters {
  const mounted = routers.map((router) => ({ heads: headsOf(router), middleware: router.routes() as Koa.Middleware }));
  // The chain for each combination of routers a path picks, made once (a handful in all).
  const chains = new Map<string, Koa.Middleware>();
  const dispatch = (ctx: Koa.Context, next: Koa.Next) => {
    const path = comparable(ctx.path);
    const segments = segmentsOf(path);
    let first = -1;
    // Only a path that more than one router may serve (rare) makes a list.
    let picked: number[] | null = null;
    for (let i = 0; i < mounted.length; i++) {
      if (!mayServe(mounted[i]!.heads, path, segments)) continue;
      if (first === -1) first = i;
      else (picked ??= [first]).push(i);
    }
    if (first === -1) return next();
    if (picked === null) return mounted[first]!.middleware(ctx, next);
    const key = picked.join(',');
    let chain = chains.get(key);
    if (!chain) {
      const list = picked.map((i) => mounted[i]!.middleware);
      chain = (ctx, next) => {
        const from = (k: number): Promise<void> =>
          k === list.length ? next() : Promise.resolve(list[k]!(ctx, () => from(k + 1)));
        return from(0);
      };
      chains.set(key, chain);
    }
    return chain(ctx, next);
  };
  return Object.assign(dispatch, { routers });
}

import Router from '@koa/router';
import { z } from 'zod';
import { type SearchContent, SearchParams } from '../../../application/search/search.js';
import { actorOf } from '../auth.js';
import type { Params } from '../params.js';
import type { Wire } from '../../presentation/wire.js';
import { SearchResultSchema } from '../../presentation/schemas.js';
import type { ApiDescription } from '../openapi/describe.js';
import { examples } from '../openapi/examples.js';

/** What the search route calls. */
export interface SearchRouteUseCases {
  search: SearchContent;
}
export const SearchRouteUseCases = Symbol.for('SearchRouteUseCases');

export function searchRoutes(app: SearchRouteUseCases, wire: Wire, docs: ApiDescription, prefix: string): Router {
  const router = new Router();

  docs.route(
    router,
    prefix,
    {
      method: 'get',
      path: '/search',
      summary: 'Search topics and replies',
      description:
        'Every word of `q` must match (Chinese, Japanese and Korean text is cut into words; Latin ' +
        'words match by stem: `databases` finds `database`). Best first: topics whose title matches, then the ' +
        'other matches, newest first within each. Deleted content and content of hidden nodes is never found; ' +
        'with a token, neither is content of the caller’s blocked nodes and users.',
      tag: 'Search',
      access: 'public',
      query: SearchParams,
      response: {
        schema: z.strictObject({ results: z.array(SearchResultSchema) }),
        example: { results: [examples.search] },
        description: 'A page of results',
      },
      errors: [400],
    },
    async (ctx) => {
      const actor = await actorOf(ctx);
      const results = await app.search.execute(actor, ctx.state.params as Params);
      ctx.body = { results: results.map((result) => wire.searchResult(result, actor)) };
    },
  );

  return router;
}

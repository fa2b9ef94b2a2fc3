import Router from '@koa/router';
import { expect } from 'chai';
import Koa from 'koa';
import request from 'supertest';
import { routersFor } from '../../src/server/routing.js';

/**
 * Routers asked only about the paths they have a route for (the API's hottest reads pay for a hundred route tests
 * otherwise): what they answer must be what they answered mounted one after another.
 */
describe('routersFor: each router asked only where it has routes', () => {
  // Which routers were asked, in order, for the last request.
  let asked: string[] = [];
  const watched = (name: string, router: Router) => {
    const routes = router.routes.bind(router);
    router.routes = () => {
      const dispatch = routes() as unknown as Koa.Middleware;
      const counted: Koa.Middleware = (ctx, next) => {
        asked.push(name);
        return dispatch(ctx, next);
      };
      return Object.assign(counted, { router }) as unknown as ReturnType<Router['routes']>;
    };
    return router;
  };

  function app(): Koa {
    const topics = new Router().prefix('/api/v3');
    topics.get('/topics', (ctx) => (ctx.body = 'topics'));
    topics.get('/topics/:id', (ctx) => (ctx.body = `topic ${ctx.params.id}`));
    const replies = new Router().prefix('/api/v3');
    replies.get('/topics/:id/replies', (ctx) => (ctx.body = `replies of ${ctx.params.id}`));
    replies.post('/replies/:id', (ctx) => (ctx.body = 'edited'));
    const service = new Router();
    service.get('/', (ctx) => (ctx.body = 'root'));
    service.get('/healthz', (ctx) => (ctx.body = 'ok'));
    const pages = new Router();
    pages.get('/t/:slug', (ctx) => (ctx.body = 'page'));
    // A wildcard spans segments: its router is asked for a path of any length under its head.
    const files = new Router();
    files.get('/files/*path', (ctx) => (ctx.body = `file ${String(ctx.params.path)}`));

    const koa = new Koa();
    koa.use(async (ctx, next) => {
      asked = [];
      await next();
    });
    koa.use(
      routersFor([
        watched('service', service),
        watched('topics', topics),
        watched('replies', replies),
        // A middleware layer with no path runs only where one of the router's routes matched: it widens nothing.
        watched(
          'pages',
          pages.use((ctx, next) => next()),
        ),
        watched('files', files),
      ]),
    );
    koa.use((ctx) => {
      ctx.status = 404;
      ctx.body = `unrouted (${((ctx as { matched?: unknown[] }).matched ?? []).length} matched)`;
    });
    return koa;
  }

  it('answers as the routers did, asking only those with a route beginning as the path does, with as many segments', async () => {
    const server = app().callback();
    const cases: [string, string, number, string, string[]][] = [
      ['GET', '/api/v3/topics', 200, 'topics', ['topics']],
      ['GET', '/api/v3/topics/7', 200, 'topic 7', ['topics']],
      // The topics router's `/topics/:id` begins as this path does, but has a segment fewer: it is not asked.
      ['GET', '/api/v3/topics/7/replies', 200, 'replies of 7', ['replies']],
      ['GET', '/api/v3/topics/7/', 200, 'topic 7', ['topics']],
      ['GET', '/t/hello/there', 404, 'unrouted (0 matched)', []],
      ['GET', '/files/a/b/c.png', 200, 'file a/b/c.png', ['files']],
      ['POST', '/api/v3/replies/3', 200, 'edited', ['replies']],
      ['GET', '/', 200, 'root', ['service']],
      ['GET', '/healthz', 200, 'ok', ['service']],
      // Routes match regardless of case and of a trailing slash: so do the routers' heads.
      ['GET', '/HEALTHZ/', 200, 'ok', ['service']],
      ['GET', '/API/V3/Topics', 200, 'topics', ['topics']],
      ['GET', '/t/hello', 200, 'page', ['pages']],
      ['GET', '/nowhere', 404, 'unrouted (0 matched)', []],
    ];
    for (const [method, path, status, body, routers] of cases) {
      const res = await request(server)[method === 'GET' ? 'get' : 'post'](path);
      expect([res.status, res.text], `${method} ${path}`).to.deep.equal([status, body]);
      expect(asked, `${method} ${path}: routers asked`).to.deep.equal(routers);
    }
  });

  it('leaves what no router knows to the next middleware, with the layers that matched the path (for 405)', async () => {
    const server = app().callback();
    const res = await request(server).delete('/api/v3/topics/7');
    expect(res.status).to.equal(404);
    // The topics router's layers matched the path, if not the method: the app's `unrouted` answers 405 from them.
    expect(res.text).to.match(/^unrouted \([1-9]\d* matched\)$/);
  });

  it('lists the routers it mounts (the OpenAPI test reads the served routes from them)', () => {
    const one = new Router();
    one.get('/a', (ctx) => (ctx.body = 'a'));
    expect(routersFor([one]).routers).to.deep.equal([one]);
  });

  it('mounts as many routers as an app has (40 here), a path two of them serve going through both in order', async () => {
    const many = Array.from({ length: 40 }, (_, i) => {
      const router = new Router();
      // The first passes `?pass` on to what comes after it.
      router.get(`/r${i}`, (ctx, next) => (i === 0 && ctx.query.pass ? next() : (ctx.body = `r${i}`)));
      return router;
    });
    // The last one also serves the first's path, after it: it answers only when the first passes it on.
    many[39]!.get('/r0', (ctx) => (ctx.body = 'r39 for r0'));
    const koa = new Koa();
    koa.use(routersFor(many));
    const server = koa.callback();
    expect((await request(server).get('/r38')).text).to.equal('r38');
    expect((await request(server).get('/r0')).text).to.equal('r0');
    expect((await request(server).get('/r0?pass=1')).text).to.equal('r39 for r0');
  });
});

import { validate } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import type Router from '@koa/router';
import { openApiPath } from '../../src/adapters/api/openapi/describe.js';
import { api } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { currentDocument } from '../support/openapi.js';

type Doc = ReturnType<typeof currentDocument> & {
  openapi: string;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, { type: string; flows?: object }> };
  paths: Record<string, Record<string, OperationObject>>;
};
interface OperationObject {
  summary?: string;
  tags?: string[];
  security?: object[];
  responses: Record<string, { content?: Record<string, { schema?: unknown; example?: unknown }> }>;
}

/** Every route the app's routers serve, as OpenAPI paths: read from the routers themselves, not from the document. */
function servedRoutes(): Set<string> {
  const routes = new Set<string>();
  for (const middleware of testEnv().app.middleware as ((...args: unknown[]) => unknown)[]) {
    const { router, routers } = middleware as { router?: Router; routers?: Router[] };
    for (const layer of (routers ?? (router ? [router] : [])).flatMap((each) => each.stack)) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue; // answered wherever GET is
        routes.add(`${method.toLowerCase()} ${openApiPath(String(layer.path))}`);
      }
    }
  }
  return routes;
}

describe('the OpenAPI document', () => {
  const doc = () => currentDocument() as Doc;

  it('is served at /api/v3/openapi.json and validates as OpenAPI 3.1', async () => {
    const res = await api()
      .get('/api/v3/openapi.json')
      .expect(200)
      .expect('Content-Type', /application\/json/);
    expect(res.body.openapi).to.equal('3.1.0');
    const result = await validate(structuredClone(res.body));
    expect(result.valid, JSON.stringify(result)).to.equal(true);
  });

  it('has an operation for every route the routers serve, and a route for every operation', () => {
    const served = servedRoutes();
    const documented = new Set(
      Object.entries(doc().paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`)),
    );
    expect(served.size).to.be.greaterThan(50);
    expect(
      [...served].filter((route) => !documented.has(route)),
      'routes without an operation',
    ).to.deep.equal([]);
    expect(
      [...documented].filter((route) => !served.has(route)),
      'operations without a route',
    ).to.deep.equal([]);
  });

  it('gives every operation a summary, a tag, security, a 200 with an example (or a form’s 303, a moved path’s 301), and the errors every request can meet', () => {
    for (const [path, methods] of Object.entries(doc().paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const name = `${method.toUpperCase()} ${path}`;
        expect(operation.summary, name).to.be.a('string').and.not.equal('');
        expect(operation.tags, name).to.have.length(1);
        expect(operation.security, name).to.be.an('array').that.is.not.empty;
        const ok = operation.responses['200'];
        if (ok) {
          const [media] = Object.values(ok.content ?? {});
          expect(media, name).to.have.property('example');
        } else {
          // A form posted and then shown (sign-up), or a path that moved (homeland's): the success is a redirect, with
          // no body to give an example of.
          const redirect = operation.responses['303'] ?? operation.responses['301'];
          expect(redirect, `${name}: a 303 or a 301`).to.not.equal(undefined);
          expect(redirect!.content, name).to.equal(undefined);
        }
        expect(operation.responses, name).to.include.keys('500', '503');
        const needsUser =
          operation.security!.every((requirement) => Object.keys(requirement).length > 0) &&
          !JSON.stringify(operation.security).includes('clientBasic');
        if (needsUser) expect(operation.responses, `${name} needs a user`).to.include.keys('401');
      }
    }
  });

  it('has examples that its own schemas accept', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(structuredClone(doc()) as object, 'doc');
    let checked = 0;
    for (const [path, methods] of Object.entries(doc().paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const json = operation.responses['200']?.content?.['application/json'];
        if (!json) continue;
        const pointer = ['paths', path, method, 'responses', '200', 'content', 'application/json', 'schema']
          .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
          .join('/');
        const check = ajv.compile({ $ref: `doc#/${pointer}` });
        expect(check(json.example), `${method.toUpperCase()} ${path}: ${ajv.errorsText(check.errors)}`).to.equal(true);
        checked++;
      }
    }
    expect(checked).to.be.greaterThan(50);
  });

  it('describes bearer tokens, the access_token parameter and the OAuth 2.0 flows', () => {
    const schemes = doc().components.securitySchemes;
    expect(schemes.bearerAuth).to.include({ type: 'http' });
    expect(schemes.accessToken).to.include({ type: 'apiKey' });
    expect(schemes.oauth2!.flows).to.have.all.keys('authorizationCode', 'password', 'clientCredentials');
    expect(schemes.webSession).to.include({ type: 'apiKey', in: 'cookie', name: 'forum_session' });
  });
});

describe('GET /docs and GET /', () => {
  it('/ is the forum’s front page (contract §21a), which links to the API’s page', async () => {
    const res = await api()
      .get('/')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    expect(res.text).to.include('href="/docs"');
  });

  it('serves a page that loads only this service’s own files', async () => {
    const res = await api()
      .get('/docs')
      .expect(200)
      .expect('Content-Type', /text\/html/);
    // What the page loads (scripts, stylesheets), not where its links lead.
    const sources = [...res.text.matchAll(/<(?:script|link)[^>]* (?:src|href)="([^"]+)"/g)]
      .map((match) => match[1]!)
      .filter((source) => !source.startsWith('data:'));
    expect(sources.length).to.be.greaterThan(2);
    for (const source of sources) {
      expect(source.startsWith('/docs/'), source).to.equal(true);
      const file = await api().get(source).expect(200);
      expect(Number(file.headers['content-length'] ?? file.text?.length ?? 1)).to.be.greaterThan(0);
    }
    expect(res.headers['content-security-policy']).to.include("default-src 'self'");
    const initializer = await api().get('/docs/initializer.js').expect(200);
    expect(initializer.text).to.include("url: '/api/v3/openapi.json'").and.include('validatorUrl: null');
    await api().get('/docs/assets/../../package.json').expect(404);
  });

  it('is the forum’s page: its own title and heading, no Swagger top bar', async () => {
    const res = await api().get('/docs').expect(200);
    expect(res.text).to.include('<title>forum API reference</title>').and.include('<h1>forum API reference</h1>');
    expect(res.text).not.to.include('standalone-preset');
    expect(res.text, 'no inline script (the CSP allows none)').not.to.match(/<script(?![^>]* src=)[^>]*>/);
    expect(res.headers['content-security-policy']).to.include("script-src 'self'").and.not.include("script-src 'self' 'unsafe");
    const initializer = await api().get('/docs/initializer.js').expect(200);
    expect(initializer.text).to.include("layout: 'BaseLayout'").and.not.include('Standalone');
    await api().get('/docs/assets/swagger-ui-standalone-preset.js').expect(404);
  });

  it('never sends its reader to our contract: no description cites "contract §"', async () => {
    const res = await api().get('/api/v3/openapi.json').expect(200);
    expect(JSON.stringify(res.body)).not.to.match(/contract\s*§/i);
  });
});

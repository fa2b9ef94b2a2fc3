import type Koa from 'koa';
import supertest from 'supertest';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/**
 * The service's own OpenAPI document, as the suite checks responses against it: every response an HTTP test
 * receives must be one the document lists for that operation and status, with a body its schema accepts.
 * Problems are collected here and fail the test that caused them (see hooks.ts).
 */

export interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> }>>;
  components: { schemas: Record<string, unknown> };
}

interface Operation {
  method: string;
  template: string;
  pattern: RegExp;
}

let document: OpenApiDocument | null = null;
let operations: Operation[] = [];
let ajv: Ajv2020 | null = null;
const validators = new Map<string, ValidateFunction>();

/** Loads the document (once per run) from an app that serves it. */
export async function loadDocument(app: Koa): Promise<OpenApiDocument> {
  if (document) return document;
  const res = await supertest(app.callback()).get('/api/v3/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/v3/openapi.json answered ${res.status}`);
  document = res.body as OpenApiDocument;
  operations = Object.entries(document.paths).flatMap(([template, methods]) =>
    Object.keys(methods).map((method) => ({
      method,
      template,
      pattern: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    })),
  );
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  ajv.addSchema(document as object, 'openapi');
  return document;
}

export function currentDocument(): OpenApiDocument {
  if (!document) throw new Error('the OpenAPI document is not loaded');
  return document;
}

/** The operation a request is for, by method and path (a `.json` suffix is the same path, as the service has it). */
export function operationFor(method: string, url: string): { template: string; method: string } | null {
  // The path as the service sees it: Node does not resolve `..` (a URL object would), so neither does this.
  const path = url.replace(/^[a-z]+:\/\/[^/]+/i, '').split(/[?#]/)[0]!;
  const unsuffixed =
    path.endsWith('.json') && path !== '/api/v3/openapi.json' && !path.endsWith('/.json') ? path.slice(0, -5) : path;
  // The router is not strict about one trailing slash (`/topics/` is `/topics`), as Rails is not.
  const plain = unsuffixed.length > 1 && unsuffixed.endsWith('/') ? unsuffixed.slice(0, -1) : unsuffixed;
  const verb = method.toLowerCase() === 'head' ? 'get' : method.toLowerCase();
  const found = operations.find((op) => op.method === verb && op.pattern.test(plain));
  return found ? { template: found.template, method: found.method } : null;
}

function pointer(...parts: string[]): string {
  return parts.map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
}

/** What is wrong with this response by the document, or an empty list. */
export function responseProblems(
  method: string,
  url: string,
  status: number,
  contentType: string | undefined,
  body: unknown,
): string[] {
  const doc = currentDocument();
  const where = `${method} ${url} → ${status}`;
  // OPTIONS (CORS preflights, Allow) is HTTP's own business, not an operation of the API.
  if (method.toUpperCase() === 'OPTIONS') return [];
  const operation = operationFor(method, url);
  if (!operation) {
    // Routes that do not exist answer 404 or 405, in the contract's error format.
    if (status === 404 && (body as { error?: string })?.error === 'ResourceNotFound') return [];
    // Outside the API's and the service's own paths, what no route serves is the forum's not-found page.
    if (status === 404 && contentType?.startsWith('text/html') && !url.split('?', 1)[0]!.startsWith('/api/')) return [];
    if (status === 405 && (body as { error?: string })?.error === 'MethodNotAllowed') return [];
    // Requests the HTTP layer refuses before any route (a body too large, an encoding it cannot read).
    if ([400, 413, 415].includes(status) && typeof (body as { error?: string })?.error === 'string') return [];
    return [`${where}: no operation in the document for this request`];
  }
  const responses = doc.paths[operation.template]![operation.method]!.responses;
  const response = responses[String(status)];
  if (!response) return [`${where}: the document lists no ${status} for ${operation.method.toUpperCase()} ${operation.template}`];
  if (method.toUpperCase() === 'HEAD' || !response.content) return [];
  if (!contentType?.startsWith('application/json')) {
    if (response.content && !response.content['application/json']) return [];
    return [`${where}: answered ${contentType ?? 'no body'} where the document says JSON`];
  }
  const key = `${operation.method} ${operation.template} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const ref = `openapi#/${pointer('paths', operation.template, operation.method, 'responses', String(status), 'content', 'application/json', 'schema')}`;
    validate = ajv!.compile({ $ref: ref });
    validators.set(key, validate);
  }
  if (validate(body)) return [];
  return [`${where}: body does not match the document: ${ajv!.errorsText(validate.errors, { separator: '; ' })}`];
}

type Agent = ReturnType<typeof supertest>;

/**
 * supertest on an app, with every response checked against the document: a response the document does not
 * describe fails the request (after the test's own expectations). Use it for every app a test builds. With
 * `cookies`, it keeps the cookies it is given and sends them back, as a browser does.
 */
export function checkedApi(app: Koa, options: { cookies?: boolean } = {}): Agent {
  const agent = options.cookies ? (supertest.agent(app.callback()) as unknown as Agent) : supertest(app.callback());
  return new Proxy(agent, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        const test = value.apply(target, args) as supertest.Test;
        const method = String(property).toUpperCase();
        const url = String(args[0] ?? '/');
        const end = test.end.bind(test);
        test.end = (callback) => {
          test.expect((res: supertest.Response) => {
            if (!document) return;
            const found = responseProblems(method, url, res.status, res.headers['content-type'], res.body);
            if (found.length > 0) throw new Error(`a response the OpenAPI document does not describe: ${found.join('; ')}`);
          });
          return end(callback);
        };
        return test;
      };
    },
  });
}

import fc from 'fast-check';
import type supertest from 'supertest';
import type { OpenApiDocument } from './openapi.js';

/**
 * fast-check arbitraries made from the OpenAPI document's JSON Schemas: values a schema accepts, and values it
 * (or the service) should refuse. Enough of JSON Schema for what the document uses: $ref, anyOf/oneOf, enum,
 * const, type (one or several), numeric and length bounds, patterns, formats, objects, arrays. And the document's
 * operations, and requests made of their parameters, as the fuzzer and the documented-is-checked tests send them.
 */

export type Schema = Record<string, unknown>;

export interface ParameterObject {
  name: string;
  in: 'path' | 'query';
  required?: boolean;
  schema: Schema;
}
export interface OperationObject {
  parameters?: ParameterObject[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses?: Record<string, unknown>;
  security?: Record<string, string[]>[];
}
export interface Target {
  method: string;
  /** The OpenAPI path (`/api/v3/topics/{id}`). */
  path: string;
  operation: OperationObject;
}

/** Every operation of the document, but the streams (one that opened never ends). */
export function documentOperations(doc: OpenApiDocument): Target[] {
  const paths = doc.paths as unknown as Record<string, Record<string, OperationObject>>;
  const streams = (operation: OperationObject) => JSON.stringify(operation.responses ?? {}).includes('text/event-stream');
  return Object.entries(paths).flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([, operation]) => !streams(operation))
      .map(([method, operation]) => ({ method, path, operation })),
  );
}

/** Values that break parsers, limits and assumptions, whatever the parameter. */
export const HOSTILE: unknown[] = [
  '',
  ' ',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e309',
  '99999999999999999999',
  '2147483648',
  '\u0000',
  'a\u0000b',
  'x'.repeat(5000),
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' or 1=1 --",
  '%zz',
  '😀',
  '\u202Eevil',
  -1,
  0,
  1.5,
  2 ** 31,
  Number.MAX_SAFE_INTEGER,
  true,
  null,
  [],
  [1, 2],
  {},
  { a: 1 },
];

export function resolve(schema: Schema, components: Record<string, Schema>): Schema {
  const ref = schema.$ref;
  if (typeof ref === 'string') return resolve(components[ref.split('/').pop()!]!, components);
  return schema;
}

/** Values that `schema` describes (the document's idea of a valid value). */
export function valid(raw: Schema, components: Record<string, Schema>, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(raw, components);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]).filter((value) => value !== null));
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) return fc.oneof(...variants.map((variant) => valid(variant, components, depth + 1)));
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type) => type !== 'null') as string[];
  const type = types[0];
  switch (type) {
    case 'integer': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : -1000;
      const max = typeof schema.maximum === 'number' ? Math.min(schema.maximum, min + 1_000_000) : min + 1000;
      // Small ids exist in the fixtures: lean towards them.
      return fc.oneof(fc.integer({ min, max: Math.min(max, min + 30) }), fc.integer({ min, max }));
    }
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.array(valid((schema.items as Schema) ?? {}, components, depth + 1), {
            maxLength: Math.min(Number(schema.maxItems ?? 5), 5),
          });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      const entries = Object.entries(properties).map(([key, value]) => [key, valid(value, components, depth + 1)] as const);
      if (depth > 3 || entries.length === 0) return fc.constant({});
      return fc.record(Object.fromEntries(entries), {
        requiredKeys: [...required].filter((key) => key in properties),
      }) as fc.Arbitrary<unknown>;
    }
    case 'string':
    default: {
      if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
      if (schema.format === 'uri') return fc.webUrl();
      if (schema.format === 'binary')
        return fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes).toString('latin1'));
      const maxLength = Math.min(Number(schema.maxLength ?? 40), 40);
      const minLength = Math.min(Number(schema.minLength ?? 0), maxLength);
      const text = fc.string({ minLength, maxLength });
      if (typeof schema.pattern !== 'string') return text;
      const pattern = new RegExp(schema.pattern, 'u');
      return text.filter((value) => pattern.test(value));
    }
  }
}

/** A value for a parameter: mostly valid, sometimes hostile, sometimes absent (`undefined`). */
export function parameter(schema: Schema, components: Record<string, Schema>): fc.Arbitrary<unknown> {
  return fc.oneof(
    { arbitrary: valid(schema, components), weight: 7 },
    { arbitrary: fc.constantFrom(...HOSTILE), weight: 2 },
    { arbitrary: fc.constant(undefined), weight: 1 },
  );
}

/** `?a=1&b=x`, with arrays as repeated keys and absent values left out. */
export function queryString(values: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value])
      search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** `test` with `body` as its body, in `media` (one of the operation's request media types); absent fields left out. */
export function withBody(test: supertest.Test, media: string | null, body: unknown): supertest.Test {
  const fields = Object.fromEntries(Object.entries((body ?? {}) as object).filter(([, value]) => value !== undefined));
  if (media === 'application/json') return test.send(fields);
  if (media === 'application/x-www-form-urlencoded') return test.type('form').send(fields);
  if (media === 'multipart/form-data') {
    const { file, ...rest } = fields as { file?: unknown };
    if (file !== undefined) test = test.attach('file', Buffer.isBuffer(file) ? file : Buffer.from(String(file)), 'upload.png');
    // An array as a form carries it, Rails' way: one `name[]` field per element.
    for (const [key, value] of Object.entries(rest)) {
      if (Array.isArray(value)) for (const element of value) test = test.field(`${key}[]`, String(element));
      else test = test.field(key, String(value));
    }
  }
  return test;
}

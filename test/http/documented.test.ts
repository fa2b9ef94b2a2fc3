import { expect } from 'chai';
import fc from 'fast-check';
import type supertest from 'supertest';
import { CreateApp } from '../../src/application/oauth/clients.js';
import { api, makeNode, makeReply, makeTopic, makeUser, type TestUser } from '../support/builders.js';
import { testEnv } from '../support/env.js';
import { currentDocument } from '../support/openapi.js';
import { type Schema, type Target, documentOperations, queryString, resolve, valid, withBody } from '../support/fuzz.js';

/**
 * Documented is checked (issue 30): what the OpenAPI document says of an operation's body and query is what the
 * service's validation does, in both directions. A request that leaves out a parameter the document requires is
 * refused (400, naming it), for every operation of the document but those listed below. A request whose
 * parameters the document's schemas accept is never refused as a parameter error (ParameterInvalid), for every
 * operation of the API (the application reads their parameters with the schemas the document is made of): a
 * rule may still refuse the record (RecordInvalid), a record may be missing (404). Sent in each media type the
 * operation lists, by a caller who may do it (an administrator; a confidential client), on records that exist.
 * Seeded (FUZZ_SEED) like the fuzzer, whose machinery (test/support/fuzz.ts) makes the values.
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
/** Document-valid requests per operation. */
const RUNS = Number(process.env.DOCUMENTED_RUNS ?? 10);

/**
 * Operations whose parameters are not read with the application's schemas but by the OAuth rules, which answer a
 * missing parameter their own way, as the operation's description says. Each entry is checked to still exist.
 */
/** The forum pages' forms (contract §21b) answer who is asking before what they ask. */
const FORUM_FORM = 'a page’s form: without a session, 303 to the sign-in page; then the CSRF token (403)';
const NOT_REFUSED_WITH_400: Record<string, string> = {
  'post /oauth/revoke': 'RFC 7009: always 200, whatever is sent, so that it reveals nothing',
  'post /oauth/introspect': 'RFC 7662: anything not live, an absent token included, is {"active":false}',
  'get /oauth/authorize':
    'RFC 6749 §4.1.2.1: a refusal goes back to the application as a redirect once its redirect URI is known',
  'post /oauth/authorize': 'the form of the sign-in and consent pages: its CSRF token is checked first (403), then as GET',
  'post /oauth/sign-out': 'the sign-out form: its CSRF token is checked first (403)',
  'get /account/verify': 'a page: a link without its token is a link that cannot be used (404 page)',
  'get /account/password/reset': 'a page: a link without its token is a link that cannot be used (404 page)',
  'post /account/sign-up': 'a page’s form: its CSRF token is checked first (403), then the form is shown again',
  'post /account/verification': 'a page’s form: its CSRF token is checked first (403)',
  'post /account/verify': 'a page’s form: its CSRF token is checked first (403)',
  'post /account/password/forgot': 'a page’s form: its CSRF token is checked first (403), then the form is shown again',
  'post /account/password/reset': 'a page’s form: its CSRF token is checked first (403)',
  'post /account/sign-in': 'a page’s form: its CSRF token is checked first (403), then the form is shown again',
  'post /account/sign-out': 'a page’s form: signing out a browser that is not signed in needs nothing',
  'post /account/settings': 'a page’s forms: without a session, 303 to the sign-in page; then the CSRF token (403)',
  'post /account/auth/{provider}/login': 'a page’s form: its CSRF token is checked first (403), then the form is shown again',
  'post /account/auth/{provider}/link': FORUM_FORM,
  'post /account/auth/{provider}/unlink': FORUM_FORM,
  'post /account/settings/two-factor': 'a page’s forms: without a session, 303 to the sign-in page; then the CSRF token (403)',
  'post /account/sign-in/code': 'a page’s form: its CSRF token is checked first (403), then the form is shown again',
  'post /account/sign-in/passkey-options': 'the passkey script’s request: the pending sign-in and CSRF token first (403)',
  'post /account/settings/two-factor/passkey-options': 'the passkey script’s request: the session and CSRF token first (403)',
  'get /account/unsubscribe': 'a page: a link without its key is a link that cannot be used (404 page)',
  'post /account/unsubscribe':
    'RFC 8058’s one-click POST: a key that is missing or not ours is a link that cannot be used (404 page)',
  'post /topics': FORUM_FORM,
  'post /topics/{id}/replies': FORUM_FORM,
  'post /topics/{id}/like': FORUM_FORM,
  'post /topics/{id}/unlike': FORUM_FORM,
  'post /topics/{id}/follow': FORUM_FORM,
  'post /topics/{id}/unfollow': FORUM_FORM,
  'post /topics/{id}/favorite': FORUM_FORM,
  'post /topics/{id}/unfavorite': FORUM_FORM,
  'post /notifications/{id}/delete': FORUM_FORM,
  'post /topics/{id}/flag': FORUM_FORM,
  'post /topics/{id}/edit': FORUM_FORM,
  'post /topics/{id}/replies/{replyId}/edit': FORUM_FORM,
  'post /{login}/follow': FORUM_FORM,
  'post /{login}/unfollow': FORUM_FORM,
  'post /{login}/block': FORUM_FORM,
  'post /{login}/unblock': FORUM_FORM,
  'post /topics/{id}/replies/{replyId}/flag': FORUM_FORM,
  'post /topics/{id}/delete': FORUM_FORM,
  'post /topics/{id}/replies/{replyId}/delete': FORUM_FORM,
  'post /notifications/clear': FORUM_FORM,
  'post /topics/{id}/moderate': FORUM_FORM,
  'post /admin/users/{login}': FORUM_FORM,
  'post /admin/review/{id}': FORUM_FORM,
  'post /nodes/{id}/block': FORUM_FORM,
  'post /nodes/{id}/unblock': FORUM_FORM,
  'post /photos': FORUM_FORM,
  'post /messages': FORUM_FORM,
  'post /messages/{id}/replies': FORUM_FORM,
  'post /messages/{id}/participants': FORUM_FORM,
  'post /messages/{id}/leave': FORUM_FORM,
};
/**
 * Outside the API, parameters are read by the OAuth library and the authorization pages, by RFC 6749's rules (a
 * parameter one grant requires and another does not, say), which the document describes in words.
 */
const readByTheApplication = (target: Target) => target.path.startsWith('/api/v3/');

/** A 1×1 PNG: what a `format: binary` photo is documented to be (the service judges the bytes). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

interface Records {
  admin: TestUser;
  topicId: number;
  replyId: number;
  nodeId: number;
  /** An item of the review queue: a member's topic the admin flagged. */
  reviewId: number;
  client: { clientId: string; clientSecret: string };
}

async function makeRecords(): Promise<Records> {
  const env = testEnv();
  const admin = await makeUser('root', 'admin');
  const nodeId = await makeNode('General');
  const topicId = await makeTopic(admin, nodeId, 'A topic', 'A body');
  const replyId = await makeReply(admin, topicId, 'A reply');
  const createApp = env.container.get(CreateApp);
  const { app, clientSecret } = await env.scope(() => createApp.execute(admin, { name: 'Documented' }));
  const member = await makeUser('member');
  const flagged = await makeTopic(member, nodeId, 'A flagged topic', 'Its body');
  await api().post(`/api/v3/topics/${flagged}/flag`).set(admin.auth).send({ reason: 'spam' }).expect(200);
  const [item] = await env.sql<{ id: number }>('select id from review_items');
  return {
    admin,
    topicId,
    replyId,
    nodeId,
    reviewId: item!.id,
    client: { clientId: app.clientId, clientSecret: clientSecret! },
  };
}

/** The operation's path with the records' ids: `{id}` by the resource it follows, `{login}` the admin's. */
function pathOf(target: Target, records: Records): string {
  return target.path.replace(/\{(\w+)\}/g, (_, name: string, offset: number) => {
    if (name === 'login') return records.admin.login;
    const resource = target.path.slice(0, offset);
    if (resource.endsWith('/topics/')) return String(records.topicId);
    if (resource.endsWith('/replies/')) return String(records.replyId);
    if (resource.endsWith('/nodes/')) return String(records.nodeId);
    if (resource.endsWith('/admin/review/')) return String(records.reviewId);
    return '1';
  });
}

/** A request as the document's security says: the admin's token, or a confidential client's HTTP Basic. */
function authorized(test: supertest.Test, target: Target, records: Records): supertest.Test {
  const schemes = (target.operation.security ?? []).flatMap((requirement) => Object.keys(requirement));
  if (schemes.includes('clientBasic')) return test.auth(records.client.clientId, records.client.clientSecret);
  if (schemes.includes('bearerAuth')) return test.set(records.admin.auth);
  return test;
}

interface Parameters {
  components: Record<string, Schema>;
  media: string[];
  /** The body's schema (the same for every media type the operation lists), or null. */
  body: Schema | null;
  query: { name: string; required: boolean; schema: Schema }[];
}

function parametersOf(target: Target): Parameters {
  const components = currentDocument().components.schemas as Record<string, Schema>;
  const content = target.operation.requestBody?.content ?? {};
  const media = Object.keys(content);
  return {
    components,
    media,
    body: media.length > 0 ? resolve(content[media[0]!]!.schema, components) : null,
    query: (target.operation.parameters ?? [])
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => ({ name: parameter.name, required: parameter.required === true, schema: parameter.schema })),
  };
}

const propertiesOf = (schema: Schema | null) => (schema?.properties ?? {}) as Record<string, Schema>;
const requiredOf = (schema: Schema | null) => new Set((schema?.required ?? []) as string[]);

/** Values the document accepts for the body and the query (the binary photo as the image it is documented to be). */
function documentValid(
  parameters: Parameters,
): fc.Arbitrary<{ body: Record<string, unknown> | null; query: Record<string, unknown> }> {
  const { components, body } = parameters;
  const bodyValues = body
    ? (valid(body, components) as fc.Arbitrary<Record<string, unknown>>).map((values) => {
        for (const [name, property] of Object.entries(propertiesOf(body)))
          if (property.format === 'binary' && name in values) values[name] = PNG;
        return values;
      })
    : fc.constant(null);
  const query = fc.record(
    Object.fromEntries(
      parameters.query.map((parameter) => {
        const value = valid(parameter.schema, components);
        return [parameter.name, parameter.required ? value : fc.option(value, { nil: undefined })];
      }),
    ),
  );
  return fc.record({ body: bodyValues, query });
}

/**
 * The media a body is sent in: the one chosen, unless that cannot carry it (a form has no way to send an empty
 * list, nor a nested object), when the operation's JSON does.
 */
function mediaFor(chosen: string, body: Record<string, unknown> | null, media: string[]): string {
  if (chosen !== 'application/x-www-form-urlencoded' || !body) return chosen;
  const formable = Object.values(body).every((value) =>
    Array.isArray(value) ? value.length > 0 && value.every((item) => typeof item !== 'object') : typeof value !== 'object',
  );
  return formable || !media.includes('application/json') ? chosen : 'application/json';
}

/**
 * A form writes a list with the contract's `ids[]=` keys, which carry a list of one too (a lone `ids=` key is one
 * value, not a list: contract §1 has lists as a JSON array or repeated keys).
 */
function formFields(body: Record<string, unknown> | null): Record<string, unknown> | null {
  return (
    body && Object.fromEntries(Object.entries(body).map(([name, value]) => [Array.isArray(value) ? `${name}[]` : name, value]))
  );
}

function send(
  target: Target,
  records: Records,
  media: string | null,
  body: Record<string, unknown> | null,
  query: Record<string, unknown>,
) {
  const url = pathOf(target, records) + queryString(query);
  const test = authorized(api()[target.method as 'get'](url), target, records);
  return { url, response: withBody(test, media, media === 'application/x-www-form-urlencoded' ? formFields(body) : body) };
}

describe('documented is checked: what the OpenAPI document says of parameters is what validation does', function () {
  this.timeout(120_000);

  it('lists, as not refusing a missing parameter with 400, only operations the document has', () => {
    const operations = new Set(documentOperations(currentDocument()).map((target) => `${target.method} ${target.path}`));
    for (const operation of Object.keys(NOT_REFUSED_WITH_400)) expect(operations, operation).to.include(operation);
  });

  it('refuses a request that leaves out a parameter the document requires: 400, naming it', async () => {
    const records = await makeRecords();
    let checked = 0;
    for (const target of documentOperations(currentDocument())) {
      const name = `${target.method} ${target.path}`;
      if (NOT_REFUSED_WITH_400[name]) continue;
      const parameters = parametersOf(target);
      const required = [
        ...[...requiredOf(parameters.body)].map((field) => ({ field, in: 'body' as const })),
        ...parameters.query
          .filter((parameter) => parameter.required)
          .map((parameter) => ({ field: parameter.name, in: 'query' as const })),
      ];
      if (required.length === 0) continue;
      const [complete] = fc.sample(documentValid(parameters), { seed: SEED, numRuns: 1 });
      for (const { field, in: where } of required) {
        for (const media of parameters.media.length > 0 ? parameters.media : [null]) {
          const body = complete!.body && { ...complete!.body };
          const query = { ...complete!.query };
          if (where === 'body') delete body![field];
          else delete query[field];
          const sent = send(target, records, media && mediaFor(media, body, parameters.media), body, query);
          const res = await sent.response;
          const what = `${target.method.toUpperCase()} ${sent.url} (${media ?? 'no body'}) without ${field}: ${res.status} ${res.text?.slice(0, 200)}`;
          expect(res.status, what).to.equal(400);
          expect(res.text, what).to.include(field);
          checked++;
        }
      }
    }
    expect(checked).to.be.greaterThan(20);
  });

  it('never refuses as a parameter error a request whose body and query the document accepts', async () => {
    let operations = 0;
    for (const target of documentOperations(currentDocument()).filter(readByTheApplication)) {
      const parameters = parametersOf(target);
      if (!parameters.body && parameters.query.length === 0) continue;
      await testEnv().reset();
      const records = await makeRecords();
      const media = parameters.media.length > 0 ? fc.constantFrom(...parameters.media) : fc.constant(null);
      await fc.assert(
        fc.asyncProperty(documentValid(parameters), media, async ({ body, query }, chosen) => {
          const sent = send(target, records, chosen && mediaFor(chosen, body, parameters.media), body, query);
          const res = await sent.response;
          const what = `${target.method.toUpperCase()} ${sent.url} (${chosen ?? 'no body'}) ${JSON.stringify(body)}: ${res.status} ${res.text?.slice(0, 200)}`;
          expect(res.status, what).to.be.below(500);
          expect(res.status === 400 && res.body?.error === 'ParameterInvalid', what).to.equal(false);
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
      operations++;
    }
    expect(operations).to.be.greaterThan(20);
  });
});

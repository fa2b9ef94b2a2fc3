import { expect } from 'chai';
import fc from 'fast-check';
import { api, makeNode, makeReply, makeTopic, makeUser } from '../support/builders.js';
import { currentDocument } from '../support/openapi.js';
import {
  type ParameterObject,
  type Schema,
  documentOperations,
  parameter,
  queryString,
  resolve,
  valid,
  withBody,
} from '../support/fuzz.js';

/**
 * Requests generated from the OpenAPI document, for every operation, valid and hostile, from anonymous and
 * signed-in callers. Every response must be one the document describes (checked by `api()`), never a 5xx, and
 * every 4xx must carry the contract's error format. Seeded and reproducible: FUZZ_SEED picks the sequence,
 * FUZZ_RUNS how many requests (2,000 by default; more for a long run), FUZZ_REPORT=1 prints the statuses seen.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 2000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

describe('the API under generated requests (fast-check, from the OpenAPI document)', function () {
  this.timeout(Math.max(120_000, RUNS * 100));

  it(`answers ${RUNS} generated requests with no 5xx, as the document describes, and errors in the contract's format`, async () => {
    const alice = await makeUser('alice');
    const root = await makeUser('root', 'admin');
    const troll = await makeUser('troll', 'blocked');
    const general = await makeNode('General');
    await makeNode('Hidden', { hidden: true });
    for (let i = 0; i < 5; i++) {
      const topicId = await makeTopic(i % 2 ? root : alice, general, `topic ${i}`, `body @alice @root ${i}`);
      await makeReply(i % 2 ? alice : root, topicId, `reply @alice ${i}`);
    }
    const callers: Record<string, string | null> = {
      anonymous: null,
      member: alice.auth.Authorization,
      admin: root.auth.Authorization,
      blocked: troll.auth.Authorization,
      unknown: 'Bearer not-a-token',
      loggedOut: 'Bearer null',
    };

    const components = currentDocument().components.schemas as Record<string, Schema>;
    // A stream that opened never ends: test/http/notification-stream.test.ts covers its answers instead.
    const targets = documentOperations(currentDocument());

    const values = (parameters: ParameterObject[]) =>
      fc.record(Object.fromEntries(parameters.map((p) => [p.name, parameter(p.schema, components)])));

    const request = fc.constantFrom(...targets).chain((target) => {
      const parameters = target.operation.parameters ?? [];
      const content = target.operation.requestBody?.content ?? {};
      const media = Object.keys(content);
      return fc.record({
        target: fc.constant(target),
        caller: fc.constantFrom(...Object.keys(callers)),
        path: values(parameters.filter((p) => p.in === 'path')),
        query: values(parameters.filter((p) => p.in === 'query')),
        media: media.length > 0 ? fc.constantFrom(...media) : fc.constant(null),
        body:
          media.length > 0
            ? fc.oneof(
                { arbitrary: valid(resolve(content[media[0]!]!.schema, components), components), weight: 3 },
                {
                  arbitrary: fc.dictionary(
                    fc.constantFrom(
                      ...Object.keys((resolve(content[media[0]!]!.schema, components).properties ?? {}) as object),
                      'x',
                    ),
                    fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.array(fc.integer()), fc.constant('\u0000')),
                  ),
                  weight: 2,
                },
              )
            : fc.constant(undefined),
      });
    });

    let sent = 0;
    const statuses: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(request, async ({ target, caller, path, query, media, body }) => {
        const url =
          target.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(path[name] ?? 'x'))) +
          queryString(query);
        let test = api()[target.method as 'get'](url);
        const authorization = callers[caller];
        if (authorization) test = test.set('Authorization', authorization);
        const res = await withBody(test, media, body);
        sent++;
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        expect(res.status, `${target.method.toUpperCase()} ${url}: ${res.text?.slice(0, 200)}`).to.be.below(500);
        if (res.status >= 400 && res.headers['content-type']?.startsWith('application/json')) {
          expect(res.body, `${target.method.toUpperCase()} ${url}`).to.have.property('error').that.is.a('string');
        }
      }),
      { seed: SEED, numRuns: RUNS, endOnFailure: true },
    );
    expect(sent).to.equal(RUNS);
    if (process.env.FUZZ_REPORT) console.log(`statuses of ${sent} requests: ${JSON.stringify(statuses)}`);
  });
});

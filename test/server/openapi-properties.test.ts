/**
 * A generated property test of the whole published interface: for every operation of
 * generated/openapi.json, requests generated from its own schemas — valid ones, ones invalid in
 * each way the schemas forbid, with and without a key, with odd Accept values — against a server
 * whose every upstream source is a fake that answers by turns an empty JSON object, a 404, a 500
 * and a body that is not JSON. Every answer's status must be documented for its operation and its
 * JSON body must match the documented schema; no answer is a 500; every invalid request is a 4xx.
 * Every other method on a documented address is 405 with an `Allow` naming the documented ones.
 *
 * FUZZ_RUNS sets the generated requests per operation (25 by default: a fraction of a second per
 * operation; e.g. FUZZ_RUNS=500 for a longer run), FUZZ_SEED replays a run: a failure prints the seed
 * and the path of the smallest failing request (fast-check's report).
 */
import { expect } from 'chai';
import fc, { type Arbitrary } from 'fast-check';
import type { Knex } from 'knex';
import openapi from '../../generated/openapi.json' with { type: 'json' };
import { sources } from '../../generated/tools.ts';
import { migrateToLatest, openDatabase } from '../../src/database/index.ts';
import { variableId } from '../../src/upstream/sources.ts';
import { testEngines } from '../support/databases.ts';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { SchemaArbitraries, type Schema } from '../support/schema-arbitraries.ts';
import { documentationAddress, newCaller, startServer, type TestServer } from '../support/server.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

const document = openapi as unknown as Schema;
const arbitraries = new SchemaArbitraries(document);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Methods sent to every address besides its own: the five above, and two that no address serves. */
const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];
const ACCEPTS = [
  '*/*',
  'application/json',
  'application/json; charset=utf-8',
  'application/*;q=0.9, text/plain;q=0.1',
  'text/html',
  'application/xml',
  'image/png, */*;q=0.1',
  'application/x-bibtex; charset=utf-8',
  'application/x-research-info-systems',
  'application/vnd.citationstyles.csl+json',
  'application/json; charset=latin1',
  'nonsense',
];

interface Operation {
  operationId: string;
  security?: unknown[];
  parameters?: Schema[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, Schema>;
}

/** One generated request and what the test knows of it. */
interface GeneratedRequest {
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Why the request breaks the document, when it does: its answer must be a 4xx. */
  invalid?: string;
  /** The key is missing or wrong: 401 (or 406 first, where Accept is checked first). */
  unauthenticated?: boolean;
  /** Meant to be valid but missed its schema: not sent. */
  skip?: boolean;
}

const follow = (node: Schema): Schema => {
  let current = node;
  while (typeof current.$ref === 'string') {
    current = (current.$ref as string)
      .replace(/^#\//, '')
      .split('/')
      .reduce((at: Schema, part) => at[part] as Schema, document);
  }
  return current;
};

/** A generated value as the text of a path or query parameter. */
const asText = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value));

/** A path parameter's value as a path segment: text a client can send as one (not empty, not a dot segment). */
function pathValue(schema: Schema): Arbitrary<string> {
  return arbitraries
    .candidates(schema)
    .map(asText)
    .map((value) => (value === '' || value === '.' || value === '..' ? 'x' : value))
    .map(encodeURIComponent);
}

function requestArbitrary(template: string, operation: Operation, key: string): Arbitrary<GeneratedRequest> {
  const pathParameters = (operation.parameters ?? []).map(follow).filter((parameter) => parameter.in === 'path');
  const queryParameters = (operation.parameters ?? []).map(follow).filter((parameter) => parameter.in === 'query');
  const secured = (operation.security ?? []).length > 0;
  const bodySchema = operation.requestBody?.content['application/json']?.schema;

  const path = fc
    .tuple(...pathParameters.map((parameter) => pathValue(parameter.schema as Schema).map((value) => [parameter.name as string, value] as const)))
    .map((values) => values.reduce((built, [name, value]) => built.replace(`{${name}}`, value), template));
  const query = fc.tuple(
    ...queryParameters.map((parameter) =>
      fc.oneof(
        fc.constant(undefined),
        fc.oneof(arbitraries.candidates(parameter.schema as Schema), arbitraries.invalid(parameter.schema as Schema)).map((value) => {
          // A query value is text: the value sent is that text, valid or not as the schema says of it.
          const sent = asText(value);
          return {
            name: parameter.name as string,
            value: sent,
            invalid: arbitraries.matches(parameter.schema as Schema, sent) ? undefined : `query ${parameter.name as string}`,
          };
        }),
      ),
    ),
  );
  const auth = secured ? fc.constantFrom('valid', 'valid', 'valid', 'missing', 'wrong') : fc.constant('none');
  const accept = fc.option(fc.constantFrom(...ACCEPTS), { nil: undefined, freq: 2 });
  // A candidate that misses its schema (rare: a pattern and a length together) is skipped, not sent as valid.
  const candidate = (schema: Schema) => arbitraries.candidates(schema).map((value) => ({ value, skip: !arbitraries.matches(schema, value) }));
  const body: Arbitrary<{ text?: string; contentType?: string; invalid?: string; skip?: boolean }> = bodySchema
    ? fc.oneof(
        { weight: 3, arbitrary: candidate(bodySchema).map(({ value, skip }) => ({ text: JSON.stringify(value), skip })) },
        { weight: 3, arbitrary: arbitraries.invalid(bodySchema).map((value) => ({ text: JSON.stringify(value), invalid: 'body' })) },
        { weight: 1, arbitrary: fc.constant({ text: '{"unfinished":', invalid: 'body: not JSON' }) },
        {
          weight: 1,
          arbitrary: arbitraries.candidates(bodySchema).map((value) => ({ text: JSON.stringify(value), contentType: 'text/plain', invalid: 'content type' })),
        },
        ...(operation.requestBody?.required ? [] : [{ weight: 1, arbitrary: fc.constant({}) }]),
      )
    : fc.constant({});
  const idempotencyKey = operation.parameters?.some((parameter) => parameter.$ref === '#/components/parameters/IdempotencyKey')
    ? fc.option(fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/), { nil: undefined, freq: 3 })
    : fc.constant(undefined);

  return fc.record({ path, query, auth, accept, body, idempotencyKey }).map((drawn) => {
    const headers: Record<string, string> = { 'x-forwarded-for': documentationAddress() };
    if (drawn.auth === 'valid') headers.authorization = `Bearer ${key}`;
    if (drawn.auth === 'wrong') headers.authorization = 'Bearer sm_notakey0000000000000000000000000000';
    if (drawn.accept !== undefined) headers.accept = drawn.accept;
    if (drawn.idempotencyKey !== undefined) headers['idempotency-key'] = drawn.idempotencyKey;
    if (drawn.body.text !== undefined) headers['content-type'] = drawn.body.contentType ?? 'application/json';
    const search = new URLSearchParams(drawn.query.flatMap((entry) => (entry ? [[entry.name, entry.value]] : []))).toString();
    const invalid = [drawn.body.invalid, ...drawn.query.map((entry) => entry?.invalid)].find(Boolean);
    return {
      path: search ? `${drawn.path}?${search}` : drawn.path,
      headers,
      body: drawn.body.text,
      invalid,
      unauthenticated: drawn.auth === 'missing' || drawn.auth === 'wrong',
      skip: drawn.body.skip,
    };
  });
}

interface Received {
  status: number;
  headers: Headers;
  text: string;
}

async function send(baseUrl: string, method: string, request: GeneratedRequest): Promise<Received> {
  const answer = await fetch(`${baseUrl}${request.path}`, { method: method.toUpperCase(), headers: request.headers, body: request.body });
  return { status: answer.status, headers: answer.headers, text: await answer.text() };
}

/** What every answer must be, whatever was asked. */
function expectDocumented(method: string, template: string, operation: Operation, request: GeneratedRequest, answer: Received): void {
  const where = `${method.toUpperCase()} ${request.path} (${JSON.stringify(request.headers)} ${request.body ?? ''}) answered ${answer.status} ${answer.text.slice(0, 300)}`;
  expect(answer.status, `no 500: ${where}`).to.not.equal(500);
  expect(Object.keys(operation.responses), `status documented for ${method.toUpperCase()} ${template}: ${where}`).to.include(String(answer.status));
  const documented = follow(operation.responses[String(answer.status)]!);
  const type = (answer.headers.get('content-type') ?? '').split(';')[0]!.trim();
  if (method !== 'head' && answer.text !== '') {
    expect(Object.keys(documented.content ?? {}), `content type documented: ${where}`).to.include(type);
    if (type === 'application/json') {
      const schema = documented.content['application/json'].schema as Schema;
      expect(arbitraries.matches(schema, JSON.parse(answer.text)), `body matches the documented schema: ${where}`).to.equal(true);
    }
  }
  for (const header of Object.keys((documented.headers ?? {}) as object)) {
    if (header === 'Retry-After') expect(answer.headers.get(header), `${header}: ${where}`).to.match(/^\d+$/);
  }
  if (request.invalid) expect(answer.status, `invalid (${request.invalid}) is a 4xx: ${where}`).to.be.within(400, 499);
  // With an Idempotency-Key, a key reused with another body (422) or still running (409) comes first.
  if (request.invalid && !request.unauthenticated && request.headers.accept === undefined && request.headers['idempotency-key'] === undefined) {
    expect(answer.status, `invalid (${request.invalid}) with a key is a 400: ${where}`).to.equal(400);
  }
  if (request.unauthenticated && request.headers.accept === undefined) expect(answer.status, `no valid key: ${where}`).to.equal(401);
}

describe(`every operation of generated/openapi.json answers generated requests as documented (${RUNS} per operation; FUZZ_RUNS, FUZZ_SEED)`, function () {
  this.timeout(Math.max(60_000, RUNS * 5_000));
  let db: Knex;
  let upstream: FakeUpstream;
  let server: TestServer;
  before(async function () {
    db = openDatabase(testEngines()[0]!.url);
    await migrateToLatest(db);
    upstream = await startFakeUpstream();
    upstream.otherwise(
      { body: '{}' },
      { status: 404, body: '{"error":"not found"}' },
      { status: 500, body: '{"error":"down"}', headers: { 'retry-after': '0' } },
      { body: '<html>not json</html>', contentType: 'text/html' },
    );
    const sourceSettings = Object.keys(sources).flatMap((source) => [
      [`SOURCE_${variableId(source)}_URL`, `${upstream.url}/${source}`],
      [`SOURCE_${variableId(source)}_KEY`, 'fuzz-key'],
    ]);
    server = await startServer(db, {
      rateLimitPerMinute: 1_000_000,
      env: { ...Object.fromEntries(sourceSettings), KEY_CREATIONS_PER_HOUR: '1000000' },
      // Figures are drawn by a stand-in that answers at once: this test is about the HTTP contract, not about drawing.
      figureRenderer: { render: async () => ({ png: Buffer.from('89504e470d0a1a0a', 'hex'), width: 1, height: 1 }) },
    });
  });
  after(async function () {
    await server?.close();
    await upstream?.close();
    await db?.destroy();
  });

  for (const [template, item] of Object.entries(document.paths as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      it(`${method.toUpperCase()} ${template} (${operation.operationId})`, async function () {
        // Each operation on an account of its own: switching packs off or deleting keys stays within it.
        const caller = await newCaller(db, 1_000_000);
        await fc.assert(
          fc.asyncProperty(requestArbitrary(template, operation, caller.key), async (request) => {
            fc.pre(!request.skip);
            expectDocumented(method, template, operation, request, await send(server.baseUrl, method, request));
          }),
          { numRuns: RUNS, seed: SEED },
        );
      });
    }
    it(`any other method on ${template} is 405 method_not_allowed with Allow naming the documented methods`, async function () {
      const documented = METHODS.filter((method) => item[method]).map((method) => method.toUpperCase());
      const allow = documented.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])).join(', ');
      const example = template
        .replace(/\{key_id\}/, 'key_none')
        .replace(/\{pack\}/, 'general')
        .replace(/\{[^}]+\}/g, 'x');
      const others = OTHER_METHODS.filter((other) => !documented.includes(other));
      const answers = await Promise.all(
        others.map((method) => send(server.baseUrl, method, { path: example, headers: { 'x-forwarded-for': documentationAddress() } })),
      );
      for (const [index, answer] of answers.entries()) {
        const method = others[index]!;
        const where = `${method} ${example}: ${answer.status} ${answer.text.slice(0, 200)}`;
        expect([answer.status, answer.headers.get('allow')], where).to.deep.equal([405, allow]);
        expect(arbitraries.matches({ $ref: '#/components/schemas/Error' }, JSON.parse(answer.text)), where).to.equal(true);
        expect(JSON.parse(answer.text).error.code, where).to.equal('method_not_allowed');
      }
    });
  }
});

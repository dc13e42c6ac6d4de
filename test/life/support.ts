/**
 * Helpers of the life-sciences tests over real HTTP: the app on loopback with every source of the
 * pack pointed at one fake upstream under its own path prefix (`<fake>/uniprot/…`), a fresh app (and
 * so a fresh response cache) per test, and calls charged to a new account.
 */
import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { variableId } from '../../src/upstream/sources.ts';
import { fixture, recording } from '../connectors/recordings.ts';
import type { EngineUnderTest } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream, type Reply, type Responder } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { nullPaths } from '../tools/support.ts';

export const LIFE_SOURCES = [
  'ncbi-gene',
  'uniprot',
  'ensembl',
  'reactome',
  'string',
  'interpro',
  'rcsb-pdb',
  'alphafold',
  'clinicaltrials',
  'chembl',
  'openfda',
  'gtex',
  'geo',
] as const;
export type LifeSource = (typeof LIFE_SOURCES)[number];

export const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** A real recording served as JSON. */
export const recorded = (source: string, file: string, extra: Parameters<typeof json>[1] = {}): Reply => json(recording(source, file), extra);
/** One of the project's own (hand-made) fixtures served as JSON. */
export const own = (source: string, file: string, extra: Parameters<typeof json>[1] = {}): Reply => json(fixture(source, file), extra);
/** A failing upstream: 503 that asks to retry at once, so the retries end quickly. */
export const down: Reply = { status: 503, body: '{"error":"service unavailable"}', contentType: 'application/json', headers: { 'retry-after': '0' } };

export interface SourcesHarness<Source extends string> {
  fake: FakeUpstream;
  server: () => TestServer;
  /** Serves `reply` at `path` of `source` (its prefix added). */
  on(source: Source, path: string, ...replies: Array<Reply | Responder>): void;
  hits(source: Source, path: string): ReturnType<FakeUpstream['hitsOn']>;
  charged(tool: string, body: unknown): Promise<{ answer: Awaited<ReturnType<typeof call>>; balance: number; ledger: number }>;
}
export type LifeHarness = SourcesHarness<LifeSource>;

/** Suite hooks: one fake upstream for the suite, a fresh app per test. */
export function lifeHarness(engine: EngineUnderTest): LifeHarness {
  return sourcesHarness(engine, LIFE_SOURCES);
}

/** The same for any sources, each under its own path prefix of the fake; `env` adds settings such as keys. */
export function sourcesHarness<Source extends string>(
  engine: EngineUnderTest,
  sources: readonly Source[],
  env: Record<string, string> = {},
): SourcesHarness<Source> {
  let fake: FakeUpstream;
  let server: TestServer | undefined;
  before(async () => {
    fake = await startFakeUpstream();
  });
  after(async () => fake?.close());
  beforeEach(async () => {
    fake.reset();
    const urls = Object.fromEntries(sources.map((source) => [`SOURCE_${variableId(source)}_URL`, `${fake.url}/${source}`]));
    server = await startServer(engine.db, { env: { ...urls, ...env } });
  });
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  return {
    get fake() {
      return fake;
    },
    server: () => server!,
    on: (source, path, ...replies) => fake.on(`/${source}${path}`, ...replies),
    hits: (source, path) => fake.hitsOn(`/${source}${path}`),
    async charged(tool, body) {
      const caller = await newCaller(engine.db, 10);
      const answer = await call(server!.baseUrl, `/api/v1/${tool}`, { method: 'POST', key: caller.key, body });
      return { answer, balance: await getBalance(engine.db, caller.accountId), ledger: await ledgerSum(engine.db, caller.accountId) };
    },
  };
}

/** 200, one credit charged and recorded in the ledger, no null anywhere, records with ISO retrievedAt. */
export function expectCharged(result: Awaited<ReturnType<SourcesHarness<string>['charged']>>, keys = ['summary', 'records', 'credits_used', 'call_id']): void {
  expect(result.answer.status, result.answer.text).to.equal(200);
  expect(Object.keys(result.answer.body)).to.deep.equal(keys);
  expect([result.answer.body.credits_used, result.balance, result.ledger]).to.deep.equal([1, 9, 9]);
  expect(nullPaths(result.answer.body)).to.deep.equal([]);
  for (const record of result.answer.body.records) expect(record.retrievedAt).to.match(ISO_MS);
}

/** 502 upstream_error, nothing charged. */
export function expectNotCharged(result: Awaited<ReturnType<SourcesHarness<string>['charged']>>, status = 502, code = 'upstream_error'): void {
  expect(result.answer.status, result.answer.text).to.equal(status);
  expect(result.answer.body.error.code).to.equal(code);
  expect([result.balance, result.ledger]).to.deep.equal([10, 10]);
}

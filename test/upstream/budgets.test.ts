/**
 * Budgets and circuit breakers in the upstream layer, with fake upstreams and a fast-forward clock:
 * what is sent, what is refused and why, what the cache still answers, and what a spent signal does.
 * Two clients sharing one state play two server processes (the shared stores are tested across
 * real stores in test/server/upstream-budgets.test.ts).
 */
import { expect } from 'chai';
import type { SourceOverride } from '../../src/config.ts';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { MemoryUpstreamState, type SharedUpstreamState } from '../../src/upstream/shared-state/index.ts';
import { FastForwardClock } from '../support/clock.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';

const DAY = 86_400_000;

/** Waits (on the wall clock, which the breakers' pause follows) until the probe time an open breaker's message names. */
async function untilProbe(skipped: UpstreamError): Promise<void> {
  const probeAt = Date.parse(/tried again after (\S+)$/.exec(skipped.message)![1]!);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, probeAt - Date.now()) + 20));
}

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(UpstreamError);
    return error as UpstreamError;
  }
  throw new Error('expected the request to fail');
}

/** A clock at `iso` (UTC) that skips waits. */
function clockAt(iso: string): FastForwardClock {
  const clock = new FastForwardClock();
  clock.skippedMs = Date.parse(iso) - Date.now();
  return clock;
}

describe('upstream budgets and circuit breakers', () => {
  let fake: FakeUpstream;
  let clock: FastForwardClock;
  before(async () => {
    fake = await startFakeUpstream(() => clock.now());
  });
  after(async () => fake.close());
  beforeEach(() => {
    fake.reset();
    clock = clockAt('2026-05-01T10:00:00Z');
  });

  function client(
    sources: Record<string, SourceOverride>,
    shared: SharedUpstreamState = new MemoryUpstreamState(),
    breaker = { failures: 3, pauseMs: 60_000 },
  ) {
    return new UpstreamClient({ sources, cache: new MemoryCache(), retry: { baseDelayMs: 5 }, clock, shared, breaker });
  }

  describe('a budget in money by request kind (OpenAlex, with an operator limit of $0.01 a day)', () => {
    const sources = () => ({ OPENALEX: { url: fake.url, key: 'test-key-123', timeoutMs: 2000, budgets: { day: 0.01 } } });
    const search = (upstream: UpstreamClient, n: number) => upstream.getJson('openalex', { path: '/works', searchParams: { search: `q${n}` }, kind: 'search' });

    it('sends ten searches at $0.001, refuses the eleventh unsent, naming the budget and the next midnight UTC', async () => {
      fake.on('/works', json({ results: [] }));
      const upstream = client(sources());
      for (let n = 0; n < 10; n += 1) await search(upstream, n);
      const refused = await failure(search(upstream, 10));
      expect(refused.kind).to.equal('budget_spent');
      expect(refused.message).to.equal(
        'openalex was not asked: its daily budget (UTC day) of $0.01 is spent ($0.01 used); it resets at 2026-05-02T00:00:00.000Z',
      );
      expect(fake.hits).to.have.length(10);
    });
    it('still sends free singletons, answers a repeat from the cache, and sends searches again after midnight', async () => {
      fake.on('/works', json({ results: [] }));
      fake.on('/works/W1', json({ id: 'W1' }));
      const upstream = client(sources());
      for (let n = 0; n < 10; n += 1) await search(upstream, n);
      await upstream.getJson('openalex', { path: '/works/W1', kind: 'singleton' });
      expect((await search(upstream, 3)).fromCache).to.equal(true);
      expect(fake.hits).to.have.length(11);
      clock.skippedMs += Date.parse('2026-05-02T00:00:01Z') - clock.now();
      await search(upstream, 11);
      expect(fake.hits).to.have.length(12);
    });
    it('counts an untagged request as the dearest kind', async () => {
      fake.on('/works', json({ results: [] }));
      const upstream = client(sources());
      for (let n = 0; n < 10; n += 1) await upstream.getJson('openalex', { path: '/works', searchParams: { filter: `x:${n}` } });
      expect((await failure(upstream.getJson('openalex', { path: '/works', searchParams: { filter: 'x:10' }, kind: 'list' }))).kind).to.equal('budget_spent');
      expect(fake.hits).to.have.length(10);
    });
    it("marks the day spent on OpenAlex's 429 although the count disagrees: later requests are not sent, until midnight", async () => {
      fake.on('/works', { status: 429, body: '{"error":"Daily limit exceeded"}', contentType: 'application/json' });
      const upstream = client(sources());
      const said = await failure(search(upstream, 0));
      expect(said.message).to.equal(
        'openalex answered that its daily budget (UTC day) is spent (HTTP 429: Daily limit exceeded); it is not asked again until 2026-05-02T00:00:00.000Z',
      );
      const refused = await failure(upstream.getJson('openalex', { path: '/works/W2', kind: 'singleton' }));
      expect(refused.message).to.equal('openalex was not asked: openalex said its daily budget (UTC day) is spent; it resets at 2026-05-02T00:00:00.000Z');
      expect(fake.hits).to.have.length(1);
      fake.on('/works', json({ results: [] }));
      clock.skippedMs += Date.parse('2026-05-02T00:00:00Z') - clock.now();
      await search(upstream, 1);
      expect(fake.hits).to.have.length(2);
    });
  });

  describe("BLS's daily queries", () => {
    const overQuota = json({
      status: 'REQUEST_NOT_PROCESSED',
      responseTime: 1,
      message: ['No Data Available. The daily threshold for total number of requests allocated to the user has been reached.'],
      Results: {},
    });

    it('allows 25 a rolling day without a key: two clients sharing the count send 25 together, the rest fail unsent', async () => {
      fake.on('/timeseries/data/CUUR0000SA0', json({ status: 'REQUEST_SUCCEEDED', message: [], Results: { series: [] } }));
      const shared = new MemoryUpstreamState();
      const processes = [client({ BLS: { url: fake.url } }, shared), client({ BLS: { url: fake.url } }, shared)];
      const outcomes = await Promise.allSettled(
        Array.from({ length: 40 }, (_, n) => processes[n % 2]!.getJson('bls', { path: '/timeseries/data/CUUR0000SA0', searchParams: { startyear: 1900 + n } })),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).to.have.length(25);
      expect(fake.hits).to.have.length(25);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult;
      expect((refused.reason as UpstreamError).message).to.match(
        /^bls was not asked: its budget for 24 hours of 25 requests is spent \(25 requests used\); it resets at 2026-05-02T1\d:\d\d:\d\d\.\d{3}Z$/,
      );
    });
    it('takes the status-200 REQUEST_NOT_PROCESSED refusal as the day spent, never caches it, and asks again a day later', async () => {
      fake.on('/timeseries/data/CUUR0000SA0', overQuota, json({ status: 'REQUEST_SUCCEEDED', message: [], Results: { series: [] } }));
      const upstream = client({ BLS: { url: fake.url, key: 'bls-key' } });
      const request = { path: '/timeseries/data/CUUR0000SA0', searchParams: { startyear: 2000 } };
      expect((await failure(upstream.getJson('bls', request))).kind).to.equal('budget_spent');
      expect((await failure(upstream.getJson('bls', { ...request, searchParams: { startyear: 2001 } }))).kind).to.equal('budget_spent');
      expect(fake.hits).to.have.length(1);
      clock.skippedMs += DAY + DAY / 20;
      const again = await upstream.getJson('bls', request);
      expect(again.fromCache).to.equal(false);
      expect(fake.hits).to.have.length(2);
    });
  });

  describe('a short window', () => {
    it('makes a request wait for its reset when that comes before the deadline: one request a second goes out', async () => {
      fake.on('/data', { body: 'a,b\n1,2\n', contentType: 'text/csv' });
      const upstream = client({ OECD: { url: fake.url, timeoutMs: 5000, budgets: { hour: 'off', second: 1 } } });
      for (let n = 0; n < 4; n += 1) await upstream.getText('oecd', { path: '/data', searchParams: { n }, kind: 'data' });
      const gaps = fake.hits.slice(1).map((hit, index) => hit.at - fake.hits[index]!.at);
      expect(gaps.every((gap) => gap >= 1000)).to.equal(true, `gaps between requests: ${gaps.join(', ')} ms`);
      expect(fake.hits).to.have.length(4);
    });
    it("does not count OECD's structure queries against its hourly data downloads", async () => {
      fake.on('/data', { body: 'a\n1\n', contentType: 'text/csv' });
      fake.on('/dataflow', { body: '<x/>', contentType: 'application/xml' });
      const upstream = client({ OECD: { url: fake.url, budgets: { hour: 2 } } });
      for (let n = 0; n < 5; n += 1) await upstream.getText('oecd', { path: '/dataflow', searchParams: { n }, kind: 'structure' });
      await upstream.getText('oecd', { path: '/data', searchParams: { n: 1 }, kind: 'data' });
      await upstream.getText('oecd', { path: '/data', searchParams: { n: 2 }, kind: 'data' });
      expect((await failure(upstream.getText('oecd', { path: '/data', searchParams: { n: 3 }, kind: 'data' }))).kind).to.equal('budget_spent');
      expect(fake.hits).to.have.length(7);
    });
  });

  describe('circuit breakers', () => {
    it('after three failed requests in a row, skips the source without asking it; after the pause exactly one probe goes out', async () => {
      fake.on('/fred/series/search', { status: 503, body: 'down', contentType: 'text/plain' });
      const upstream = client({ FRED: { url: `${fake.url}/fred`, key: 'test-key-123', timeoutMs: 300 } }, new MemoryUpstreamState(), {
        failures: 3,
        pauseMs: 150,
      });
      const ask = (n: number) => upstream.getJson('fred', { path: '/series/search', searchParams: { n } });
      for (let n = 0; n < 3; n += 1) expect((await failure(ask(n))).kind).to.equal('http_error');
      const sentBeforeOpen = fake.hits.length;
      const skipped = await failure(ask(3));
      expect(skipped.kind).to.equal('circuit_open');
      expect(skipped.message).to.match(/^fred was skipped: its last 3 requests failed \(last: fred answered HTTP 503: down\); it is tried again after \d{4}-/);
      expect(fake.hits.length).to.equal(sentBeforeOpen);
      expect(upstream.breakers.stateOf('fred')).to.equal('open');
      await untilProbe(skipped);
      const results = await Promise.allSettled([ask(10), ask(11), ask(12)]);
      const kinds = results.map((result) => (result.status === 'rejected' ? (result.reason as UpstreamError).kind : 'ok'));
      expect(kinds).to.deep.equal(['http_error', 'circuit_open', 'circuit_open']);
      expect(fake.hits.length).to.equal(sentBeforeOpen + 1);
      expect(upstream.breakers.stateOf('fred')).to.equal('open');
    });
    it('a probe is a single attempt, even where a retry would fit in the time the request may take', async () => {
      fake.on('/openalex/works', { fault: 'no_answer' });
      const upstream = client({ OPENALEX: { url: `${fake.url}/openalex`, key: 'test-key-123', timeoutMs: 300 } }, new MemoryUpstreamState(), {
        failures: 2,
        pauseMs: 150,
      });
      const ask = (n: number) => upstream.getJson('openalex', { path: '/works', searchParams: { n } });
      for (let n = 0; n < 2; n += 1) expect((await failure(ask(n))).kind).to.equal('timeout');
      // Before the breaker opened, each request was tried again after its first timeout (300 of its 600 ms used, 5 ms back-off).
      expect(fake.hits.length).to.equal(4);
      await untilProbe(await failure(ask(2)));
      expect((await failure(ask(3))).kind).to.equal('timeout');
      expect(fake.hits.length).to.equal(5);
      expect(upstream.breakers.stateOf('openalex')).to.equal('open');
    });
    it('closes again when the probe succeeds', async () => {
      fake.on('/fred/series/search', { status: 500, body: 'x', contentType: 'text/plain' });
      const upstream = client({ FRED: { url: `${fake.url}/fred`, key: 'test-key-123', timeoutMs: 300 } }, new MemoryUpstreamState(), {
        failures: 2,
        pauseMs: 100,
      });
      const ask = (n: number) => upstream.getJson('fred', { path: '/series/search', searchParams: { n } });
      for (let n = 0; n < 2; n += 1) await failure(ask(n));
      fake.on('/fred/series/search', json({ seriess: [] }));
      await untilProbe(await failure(ask(2)));
      await ask(20);
      await ask(21);
      expect(upstream.breakers.stateOf('fred')).to.equal('closed');
    });
    it("another host of a source (BLS's LABSTAT files) has a breaker of its own: it is skipped while the source's API still answers", async () => {
      const labstat = await startFakeUpstream(() => clock.now());
      try {
        labstat.on('/ce/ce.series', { status: 503, body: 'down', contentType: 'text/plain' });
        fake.on('/timeseries/data/', json({ status: 'REQUEST_SUCCEEDED', Results: { series: [] } }));
        const shared = new MemoryUpstreamState();
        const upstream = client({ BLS: { url: fake.url, timeoutMs: 5000 } }, shared, { failures: 2, pauseMs: 60_000 });
        const list = () => upstream.getText('bls', { baseUrl: labstat.url, path: '/ce/ce.series', kind: 'catalogue' });
        for (let n = 0; n < 2; n += 1) expect((await failure(list())).kind).to.equal('http_error');
        const listHits = labstat.hits.length;
        const skipped = await failure(list());
        const labstatHost = new URL(labstat.url).host;
        const api = await upstream.getJson('bls', { path: '/timeseries/data/' });
        expect([skipped.kind, labstat.hits.length, api.body, fake.hits.length]).to.deep.equal([
          'circuit_open',
          listHits,
          { status: 'REQUEST_SUCCEEDED', Results: { series: [] } },
          1,
        ]);
        expect(skipped.message).to.match(
          new RegExp(
            `^bls \\(${labstatHost}\\) was skipped: its last 2 requests failed \\(last: bls answered HTTP 503: down\\); it is tried again after \\d{4}-`,
          ),
        );
        expect([upstream.breakers.stateOf('bls'), upstream.breakers.stateOf('bls', labstatHost)]).to.deep.equal(['closed', 'open']);
        const { state, otherHost } = (await shared.readStatuses()).bls!.breaker!;
        expect({ state, otherHost }).to.deep.equal({ state: 'open', otherHost: labstatHost });
      } finally {
        await labstat.close();
      }
    });
    it('does not count answers that are not outages (a 404) and records the last failure in the shared state', async () => {
      fake.on('/fred/series/search', { status: 404, body: 'no', contentType: 'text/plain' });
      const shared = new MemoryUpstreamState();
      const upstream = client({ FRED: { url: `${fake.url}/fred`, key: 'test-key-123' } }, shared, { failures: 2, pauseMs: 60_000 });
      for (let n = 0; n < 4; n += 1)
        expect((await failure(upstream.getJson('fred', { path: '/series/search', searchParams: { n } }))).kind).to.equal('http_error');
      expect(upstream.breakers.stateOf('fred')).to.equal('closed');
      expect((await shared.readStatuses()).fred!.lastFailure!.message).to.equal('fred answered HTTP 404: no');
    });
  });

  describe("NCBI's pace", () => {
    it('is 3 requests a second without keys and 10 once its three sources have keys', () => {
      const without = client({ PUBMED: { url: fake.url } });
      const withKeys = client({ PUBMED: { url: fake.url, key: 'e' }, NCBI_GENE: { key: 'e' }, GEO: { key: 'e' } });
      expect(without.source('pubmed').budget!.windows[0]!.limit).to.equal(3_000_000);
      expect(withKeys.source('geo').budget!.windows[0]!.limit).to.equal(10_000_000);
    });
  });
});

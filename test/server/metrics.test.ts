import { expect } from 'chai';
import parsePrometheus from 'parse-prometheus-text-format';
import { expectBalance } from '../ledger/ledger-assertions.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, documentationAddress, newCaller, startServer, type TestServer } from '../support/server.ts';
import { fixture } from '../connectors/recordings.ts';

type Families = ReturnType<typeof parsePrometheus>;
interface Scrape {
  families: Families;
  text: string;
}

/** A counter's value; 0 when the series does not exist yet. */
function value({ families }: Scrape, name: string, labels: Record<string, string>): number {
  const family = families.find((candidate) => candidate.name === name);
  const sample = family?.metrics.find((metric) => Object.entries(labels).every(([label, wanted]) => metric.labels?.[label] === wanted));
  return Number(sample?.value ?? 0);
}

/** A histogram's observation count for one label (read from its `_count` line: the parser keeps no histogram labels). */
function observations({ text }: Scrape, name: string, label: string, wanted: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${name}_count{`) && candidate.includes(`${label}="${wanted}"`));
  return Number(line?.split(' ').at(-1) ?? 0);
}

describeOnEachEngine('GET /metrics', (engine) => {
  let fake: FakeUpstream;
  let server: TestServer;
  const TOKEN = 'metrics-test-token';
  before(async function () {
    fake = await startFakeUpstream();
    server = await startServer(engine.db, { rateLimitPerMinute: 3, env: { SOURCE_USGS_EARTHQUAKES_URL: fake.url, METRICS_TOKEN: TOKEN } });
  });
  after(async function () {
    await server.close();
    await fake.close();
  });

  async function scrape(): Promise<Scrape> {
    const answer = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
    const text = await answer.text();
    return { families: parsePrometheus(text), text };
  }

  it('is refused without the METRICS_TOKEN, as a JSON error', async function () {
    const answer = await call(server.baseUrl, '/metrics');
    expect([answer.status, answer.body.error.code]).to.deep.equal([401, 'unauthorized']);
  });

  it('meets the failed-key limit per address: 10 wrong tokens are 401, the 11th 429; the right token still works from there', async function () {
    const clientAddress = documentationAddress();
    const statuses = [];
    for (let index = 0; index < 11; index += 1) {
      statuses.push((await call(server.baseUrl, '/metrics', { clientAddress, headers: { authorization: `Bearer guess-${index}` } })).status);
    }
    expect(statuses).to.deep.equal([...Array(10).fill(401), 429]);
    const right = await fetch(`${server.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}`, 'x-forwarded-for': clientAddress } });
    expect(right.status).to.equal(200);
  });

  it('moves its counters by exactly what a scripted sequence of calls did: a success, a cached repeat, a failure refunded, a rate-limit refusal', async function () {
    this.timeout(60_000);
    const before = await scrape();
    const caller = await newCaller(engine.db, 10);
    const window = { start: '2025-01-01', end: '2025-01-31' };
    fake.on('/query', json(fixture('usgs-earthquakes', 'hand-made-two-events.json')));
    const first = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: window });
    const repeat = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: window });
    fake.on('/query', { status: 500, body: '{"error":"down"}', contentType: 'application/json', headers: { 'retry-after': '0' } });
    const failed = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: { start: '2024-01-01', end: '2024-01-31' } });
    const refused = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: window });
    expect([first.status, repeat.status, failed.status, refused.status]).to.deep.equal([200, 200, 502, 429]);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string>) => value(after, name, labels) - value(before, name, labels);
    expect({
      ok: moved('research_tools_tool_calls_total', { tool: 'search_earthquakes', status: 'ok' }),
      upstreamError: moved('research_tools_tool_calls_total', { tool: 'search_earthquakes', status: 'upstream_error' }),
      rateLimited: moved('research_tools_tool_calls_total', { tool: 'search_earthquakes', status: 'rate_limited' }),
      timed:
        observations(after, 'research_tools_tool_call_duration_seconds', 'tool', 'search_earthquakes') -
        observations(before, 'research_tools_tool_call_duration_seconds', 'tool', 'search_earthquakes'),
      debited: moved('research_tools_credits_total', { movement: 'debited' }),
      returned: moved('research_tools_credits_total', { movement: 'returned' }),
      requests2xx: moved('research_tools_upstream_requests_total', { source: 'usgs-earthquakes', outcome: '2xx' }),
      requests5xx: moved('research_tools_upstream_requests_total', { source: 'usgs-earthquakes', outcome: '5xx' }),
      upstreamErrors: moved('research_tools_upstream_errors_total', { source: 'usgs-earthquakes', kind: 'http_error' }),
      cacheHits: moved('research_tools_upstream_cache_lookups_total', { source: 'usgs-earthquakes', result: 'hit' }),
      cacheMisses: moved('research_tools_upstream_cache_lookups_total', { source: 'usgs-earthquakes', result: 'miss' }),
      refusals: moved('research_tools_rate_limit_refusals_total', { limit: 'per_key' }),
    }).to.deep.equal({
      ok: 2,
      upstreamError: 1,
      rateLimited: 1,
      timed: 4,
      debited: 3,
      returned: 1,
      requests2xx: 1,
      requests5xx: fake.hits.length - 1,
      upstreamErrors: 1,
      cacheHits: 1,
      cacheMisses: 2,
      refusals: 1,
    });
    expect(fake.hits.length).to.equal(4); // one answer, then three attempts at the failing window
    expect(after.families.find((family) => family.name === 'research_tools_figure_queue_depth')?.type).to.equal('GAUGE');
  });

  it('a charged call answered from the cache takes one ledger transaction (hold, capture, call row), one that waits for its upstream two; a refused one sends nothing upstream', async function () {
    const caller = await newCaller(engine.db, 2);
    const window = { start: '2025-02-01', end: '2025-02-28' };
    fake.on('/query', json(fixture('usgs-earthquakes', 'hand-made-two-events.json'), { delayMs: 50 }));
    const transactions = async (): Promise<number> => value(await scrape(), 'research_tools_ledger_transactions_total', {});
    const hitsBefore = fake.hits.length;
    const atStart = await transactions();
    const first = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: window });
    const afterFirst = await transactions();
    const repeat = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: window });
    const afterRepeat = await transactions();
    // The balance is 0 now; this window is not cached: its handler starts while the hold is written, but must not reach upstream.
    const refused = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: { start: '2025-03-01', end: '2025-03-31' } });
    expect([first.status, repeat.status, refused.status, refused.body.error?.code]).to.deep.equal([200, 200, 402, 'insufficient_credits']);
    expect([afterFirst - atStart, afterRepeat - afterFirst, fake.hits.length - hitsBefore]).to.deep.equal([2, 1, 1]);
    const rows = await engine.db('ledger_entries').where({ account_id: caller.accountId }).whereNotNull('call_id').orderBy('id').select('call_id', 'kind');
    expect(rows.map((row: { kind: string }) => row.kind)).to.deep.equal(['hold', 'capture', 'hold', 'capture']);
    // The two answered calls' rows were written before their answers (the refused call's comes after its answer).
    expect(await engine.db('calls').where({ account_id: caller.accountId, status: 'ok' }).pluck('credits')).to.deep.equal([1, 1]);
    await expectBalance(engine.db, caller.accountId, 0);
  });
});

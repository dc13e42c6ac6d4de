/**
 * `sources status` and /metrics show what the servers counted and saw: a budget's use (across
 * processes, from the shared store), the last breaker change and the last failure.
 */
import { expect } from 'chai';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { runAdmin } from '../../src/admin/commands.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';

const nextMidnight = () => new Date(Math.ceil((Date.now() + 1) / 86_400_000) * 86_400_000).toISOString();

describeOnEachEngine('sources status and the upstream gauges', (engine) => {
  let fake: FakeUpstream;
  let server: TestServer;
  let env: Record<string, string>;
  before(async () => {
    fake = await startFakeUpstream();
    fake.on('/openalex/works', json({ results: [] }));
    fake.on('/fred/series/search', { status: 503, body: 'maintenance', contentType: 'text/plain' });
    env = {
      SOURCE_OPENALEX_URL: `${fake.url}/openalex`,
      SOURCE_OPENALEX_KEY: 'openalex-status-key',
      SOURCE_FRED_URL: `${fake.url}/fred`,
      SOURCE_FRED_KEY: 'fred-status-key',
      UPSTREAM_BREAKER_FAILURES: '1',
    };
    server = await startServer(engine.db, { env });
    const { key } = await newCaller(engine.db, 100);
    for (const query of ['first', 'second', 'third']) await call(server.baseUrl, '/api/v1/search_papers', { key, body: { query, sources: ['openalex'] } });
    await call(server.baseUrl, '/api/v1/find_series', { key, body: { query: 'oil', sources: ['fred'] } });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });

  const status = async (source: string) => {
    const result = await runAdmin(['sources', 'status', '--source', source], { env: { ...env, DATABASE_URL: engine.url } });
    expect(result.stderr).to.equal('');
    return JSON.parse(result.stdout) as Array<Record<string, unknown>>;
  };

  // Breaker changes and failures are kept per source id; the MySQL database is shared with other suites, whose OpenAlex and FRED fakes fail too.
  const ownDatabase = engine.name === 'sqlite';

  it("prints OpenAlex's day: $0.003 of three searches used, the rest left, resetting at midnight UTC; no breaker change, no failure", async () => {
    const [openalex] = await status('openalex');
    expect(openalex!.budget).to.deep.equal([
      { per: 'day', reset: 'midnight_utc', unit: 'usd', limit: 1, used: 0.003, left: 0.997, resetsAt: nextMidnight(), origin: 'manifest' },
    ]);
    if (ownDatabase) expect([openalex!.source, openalex!.breaker, openalex!.lastFailure]).to.deep.equal(['openalex', null, null]);
  });

  it("prints FRED's per-minute budget, the breaker this server opened and its last failure", async () => {
    const [fred] = await eventually(
      () => status('fred'),
      ([entry]) => entry!.lastFailure !== null && entry!.breaker !== null,
    );
    expect(fred!.budget).to.have.length(1);
    // One request with its two retries: three requests counted.
    expect((fred!.budget as Array<Record<string, unknown>>)[0]).to.deep.include({
      per: 'minute',
      reset: 'rolling',
      unit: 'requests',
      limit: 120,
      used: 3,
      left: 117,
    });
    if (!ownDatabase) return;
    expect(fred!.breaker).to.deep.include({ state: 'open' });
    expect((fred!.lastFailure as { message: string }).message).to.equal('fred answered HTTP 503: maintenance');
  });

  it('refuses an unknown source with a usage error naming the sources', async () => {
    const result = await runAdmin(['sources', 'status', '--source', 'nowhere'], { env: { ...env, DATABASE_URL: engine.url } });
    expect(result.exitCode).to.equal(2);
    expect(JSON.parse(result.stderr).error.message).to.match(
      /^option '--source <id>' argument 'nowhere' is invalid\. Unknown source; the sources are alphafold, arxiv,/,
    );
  });

  it('/metrics has the budget gauges, the breaker state and the time of the last failure', async () => {
    const text = (await call(server.baseUrl, '/metrics')).text;
    const families = parsePrometheusTextFormat(text);
    const sample = (name: string, labels: Record<string, string>) =>
      families
        .find((family) => family.name === name)
        ?.metrics.find((metric) =>
          Object.entries(labels).every(([label, value]) => (metric as { labels?: Record<string, string> }).labels?.[label] === value),
        ) as { value: string } | undefined;
    expect(sample('research_tools_upstream_budget_used', { source: 'openalex', window: 'day', unit: 'usd' })?.value).to.equal('0.003');
    expect(sample('research_tools_upstream_budget_left', { source: 'openalex', window: 'day', unit: 'usd' })?.value).to.equal('0.997');
    expect(sample('research_tools_upstream_breaker_state', { source: 'fred' })?.value).to.equal('2');
    expect(Number(sample('research_tools_upstream_last_failure_timestamp_seconds', { source: 'fred' })?.value)).to.be.within(
      Date.now() / 1000 - 600,
      Date.now() / 1000 + 1,
    );
  });
});

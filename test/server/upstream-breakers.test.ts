/**
 * A source that hangs, over HTTP: once its circuit breaker opens (after three calls that waited out
 * its timeout), a call over it and FRED answers with it in failedSources without asking it at all;
 * after the pause exactly one probe reaches it. Structural: requests the hung fake received are
 * counted, no time is measured (bench/breaker-skip.ts measures the wall-clock figure).
 */
import { expect } from 'chai';
import { recording } from '../connectors/recordings.ts';
import { realClock } from '../../src/clock.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';

describeOnEachEngine('a hung source behind its circuit breaker', (engine) => {
  let fred: FakeUpstream;
  let worldBank: FakeUpstream;
  let server: TestServer;
  let key: string;
  before(async () => {
    [fred, worldBank] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
    fred.on('/series/search', json(recording('fred', 'series-search-oil.json')));
    worldBank.on('/sources/2/indicators', { fault: 'no_answer' });
    server = await startServer(engine.db, {
      env: {
        SOURCE_FRED_URL: fred.url,
        SOURCE_FRED_KEY: 'test-fred-key',
        SOURCE_WORLD_BANK_URL: worldBank.url,
        SOURCE_WORLD_BANK_TIMEOUT_MS: '150',
        UPSTREAM_BREAKER_FAILURES: '3',
        UPSTREAM_BREAKER_PAUSE_MS: '1000',
      },
      // Timeouts and the breaker's pause are real here; a fast-forward clock would let FRED's pacing waits eat World Bank's deadline.
      clock: realClock,
    });
    key = (await newCaller(engine.db, 100)).key;
  });
  after(async () => {
    await server.close();
    await Promise.all([fred.close(), worldBank.close()]);
  });

  const findSeries = (query: string) => call(server.baseUrl, '/api/v1/find_series', { key, body: { query, sources: ['fred', 'world-bank'] } });
  const failed = (body: { failedSources?: Array<{ source: string; error: string }> }) =>
    body.failedSources?.find((entry) => entry.source === 'world-bank')?.error;

  it('after the breaker opens, answers with FRED and the hung source in failedSources, without asking it; after the pause one probe goes out', async function () {
    this.timeout(60_000);
    for (const query of ['oil price', 'crude oil', 'oil production']) {
      const answer = await findSeries(query);
      expect(answer.status).to.equal(200);
      expect(failed(answer.body)).to.match(/^world-bank did not answer within \d+ ms$/);
    }
    const askedBeforeOpen = worldBank.hits.length;

    const skipped = await findSeries('oil reserves');
    expect(skipped.status).to.equal(200);
    expect(skipped.body.partial).to.equal(true);
    expect(skipped.body.records.length).to.be.greaterThan(0);
    expect(failed(skipped.body)).to.match(
      /^world-bank was skipped: its last 3 requests failed \(last: world-bank did not answer within \d+ ms\); it is tried again after \S+$/,
    );
    expect(worldBank.hits.length).to.equal(askedBeforeOpen);

    const probeAt = Date.parse(/tried again after (\S+)$/.exec(failed(skipped.body)!)![1]!);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, probeAt - Date.now()) + 20));
    // World Bank has no search: every find_series asks it for the same indicator list, so two calls at once share one request.
    const [first, second] = await Promise.all([findSeries('oil exports'), findSeries('oil imports')]);
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    expect(worldBank.hits.length).to.equal(askedBeforeOpen + 1);
    expect(failed(first.body)).to.match(/^world-bank did not answer within \d+ ms$/);
    const reopened = await findSeries('oil consumption');
    expect(failed(reopened.body)).to.match(/was skipped/);
    expect(worldBank.hits.length).to.equal(askedBeforeOpen + 1);
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { expect } from 'chai';
import { getBalance } from '../../src/ledger/index.ts';
import { describeRecordings, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';

const QUAKES = json({ type: 'FeatureCollection', metadata: { count: 0 }, features: [] });

/** Resident memory of a process in bytes (VmRSS), or the most it has held since its peak was last reset (VmHWM), from /proc/<pid>/status. */
function residentBytes(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match![1]) * 1024;
}

/** Resets the process's peak resident memory (VmHWM) to what it holds now (Linux: 5 into /proc/<pid>/clear_refs). */
function resetPeakResident(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

describeOnEachEngine('upstream faults seen through the API', (engine) => {
  describe('redirects and error reasons (one server in this process)', () => {
    let upstream: FakeUpstream; // usgs-earthquakes and crossref
    let openalex: FakeUpstream;
    let elsewhere: FakeUpstream;
    let server: TestServer;
    before(async () => {
      [upstream, openalex, elsewhere] = await Promise.all([startFakeUpstream(), startFakeUpstream(), startFakeUpstream()]);
      const env = {
        SOURCE_OPENALEX_KEY: 'test-openalex-key',
        SOURCE_OPENALEX_URL: openalex.url,
        SOURCE_USGS_EARTHQUAKES_URL: upstream.url,
        SOURCE_CROSSREF_URL: upstream.url,
      };
      server = await startServer(engine.db, { env });
    });
    after(async () => {
      await server.close();
      await Promise.all([upstream.close(), openalex.close(), elsewhere.close()]);
    });
    beforeEach(() => {
      for (const fake of [upstream, openalex, elsewhere]) fake.reset();
    });

    async function charged(tool: string, body: unknown) {
      const caller = await newCaller(engine.db, 10);
      const answer = await call(server.baseUrl, `/api/v1/${tool}`, { method: 'POST', key: caller.key, body });
      return { answer, balance: await getBalance(engine.db, caller.accountId) };
    }

    it('a 302 to another host is a 502 without a single request reaching that host, and not charged', async () => {
      elsewhere.on('/query', { body: 'SECRET PAGE OF ANOTHER HOST', contentType: 'text/plain' });
      upstream.on('/query', { status: 302, body: 'moved', contentType: 'text/plain', headers: { location: `${elsewhere.url}/query` } });
      const { answer, balance } = await charged('search_earthquakes', { min_magnitude: 5 });
      expect([answer.status, answer.body.error.code, balance]).to.deep.equal([502, 'upstream_error', 10]);
      expect(answer.body.error.message).to.equal(
        `no source answered: usgs-earthquakes answered HTTP 302: redirected to another host (${new URL(elsewhere.url).host}), which is never followed`,
      );
      expect([upstream.hits.length, elsewhere.hits.length]).to.deep.equal([1, 0]);
    });

    describeRecordings('crossref', () => {
      it("Crossref's reason for a 400 is in the 502 message, short and plain", async () => {
        upstream.on('/works', { status: 400, body: recording('crossref', 'error-400-validation-failure.json'), contentType: 'application/json' });
        const { answer, balance } = await charged('search_papers', { query: 'ecology', sources: ['crossref'] });
        expect([answer.status, balance]).to.deep.equal([502, 10]);
        expect(answer.body.error.message).to.equal(
          'no source answered: crossref answered HTTP 400: Integer specified as 200 but must be a positive integer less than or equal to 100.',
        );
      });
    });

    describeRecordings('openalex', () => {
      it("OpenAlex's reason for a 400 is in failedSources, cut to 200 characters", async () => {
        openalex.on('/works', { status: 400, body: recording('openalex', 'error-400-invalid-filter.json'), contentType: 'application/json' });
        upstream.on('/works', json(recording('crossref', 'works-query-ecology-rows2.json')));
        const { answer, balance } = await charged('search_papers', { query: 'ecology', sources: ['openalex', 'crossref'], limit: 2 });
        expect([answer.status, answer.body.partial, balance]).to.deep.equal([200, true, 9]);
        expect(answer.body.failedSources).to.have.length(1);
        const { source, error } = answer.body.failedSources[0];
        expect(source).to.equal('openalex');
        expect(error).to.match(/^openalex answered HTTP 400: Invalid query parameters error: DOESNTEXIST is not a valid field\. Valid fields are /);
        expect(error.replace('openalex answered HTTP 400: ', '')).to.have.length(200);
      });
    });
  });

  describe('bodies too large to read (a separate server process, its memory measured)', () => {
    let upstream: FakeUpstream;
    let server: ServerProcess;
    before(async function () {
      this.timeout(60_000);
      upstream = await startFakeUpstream();
      server = await startServerProcess('test/support/serve.ts', {
        DATABASE_URL: engine.url,
        SOURCE_USGS_EARTHQUAKES_URL: upstream.url,
        SOURCE_USGS_EARTHQUAKES_TIMEOUT_MS: '60000',
      });
    });
    after(async () => {
      await server.stop();
      await upstream.close();
    });

    it('a 1 GiB gzip bomb, an endless body and a 50 MiB JSON answer are each a 502 after one request, not charged; peak memory grows < 100 MB; /healthz answers meanwhile', async function () {
      this.timeout(120_000);
      const caller = await newCaller(engine.db, 10);
      const quakes = (minMagnitude: number) =>
        call(server.baseUrl, '/api/v1/search_earthquakes', { method: 'POST', key: caller.key, body: { min_magnitude: minMagnitude } });
      // Warm up: the code paths of a successful call are loaded before the baseline is taken.
      upstream.on('/query', QUAKES);
      expect((await quakes(1)).status).to.equal(200);
      upstream.reset();
      // The kernel keeps the process's peak from here on, between any two samples a test could take.
      resetPeakResident(server.pid);
      const baseline = residentBytes(server.pid);

      upstream.on('/query', { fault: 'gzip_bomb', expandsTo: 1024 ** 3 }, { fault: 'endless' }, { fault: 'huge_json', bytes: 50 * 1024 ** 2 });
      const health: number[] = [];
      let done = false;
      const calls = Promise.all([quakes(2), quakes(3), quakes(4)]).finally(() => (done = true));
      while (!done) health.push((await call(server.baseUrl, '/healthz')).status);
      const answers = await calls;
      const peak = residentBytes(server.pid, 'VmHWM');

      expect(answers.map((answer) => [answer.status, answer.body.error.message])).to.deep.equal(
        Array(3).fill([502, 'no source answered: usgs-earthquakes answered with more than 8 MiB, the most read from it; ask for fewer results']),
      );
      expect(upstream.hitsOn('/query')).to.have.length(3);
      expect(await getBalance(engine.db, caller.accountId)).to.equal(9);
      expect(health.length).to.be.at.least(1);
      expect(health.every((status) => status === 200)).to.equal(true);
      const growthMb = (peak - baseline) / 1e6;
      expect(growthMb, `resident memory grew ${growthMb.toFixed(1)} MB`).to.be.below(100);
    });
  });
});

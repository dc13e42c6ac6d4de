/**
 * A catalogue read by one server process serves the others through Redis: two server instances
 * sharing Redis (as two processes on two machines would, ../server/upstream-budgets.test.ts says
 * why in-process instances stand for them), BLS's series lists served by a fake LABSTAT. The first
 * find_series downloads each list once, indexing it as it streams and keeping it in Redis; the
 * second server's search reads the lists back from Redis, in pieces, and finds the same series.
 */
import { expect } from 'chai';
import { recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';

const redisUrl = process.env.TEST_REDIS_URL;
const LISTS = { ce: 'labstat-ce-series-first-999.tsv', cu: 'labstat-cu-series-first-100.tsv', ln: 'labstat-ln-series-first-6.tsv' };

describeOnEachEngine('catalogues shared between server processes through Redis', (engine) => {
  let fake: FakeUpstream;
  let servers: TestServer[] = [];
  before(async function () {
    if (!redisUrl) {
      if (process.env.CI) throw new Error('CI expects a Redis at TEST_REDIS_URL');
      this.skip();
    }
    fake = await startFakeUpstream();
    for (const [survey, file] of Object.entries(LISTS))
      fake.on(`/bls/labstat/${survey}/${survey}.series`, { body: recording('bls', file), contentType: 'text/plain' });
    const env = { SOURCE_BLS_URL: `${fake.url}/bls`, REDIS_URL: redisUrl! };
    servers = await Promise.all([0, 1].map(() => startServer(engine.db, { env, rateLimitPerMinute: 1_000_000 })));
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await fake?.close();
  });

  it("downloads BLS's series lists once: the other server's find_series reads them from Redis and finds the same series", async () => {
    const caller = await newCaller(engine.db, 10);
    const search = (server: TestServer) =>
      call(server.baseUrl, '/api/v1/find_series', { key: caller.key, body: { query: 'average hourly earnings of all employees', sources: ['bls'], limit: 3 } });
    const first = await search(servers[0]!);
    const second = await search(servers[1]!);
    const ids = (answer: { body: { records: Array<{ id: string }> } }) => answer.body.records.map((record) => record.id);
    expect([first.status, second.status]).to.deep.equal([200, 200]);
    expect(ids(second)).to.deep.equal(ids(first));
    expect(ids(first)).to.deep.equal(['bls:CES0500000003', 'bls:CES1011330003', 'bls:CES2000000003']);
    expect(Object.keys(LISTS).map((survey) => fake.hitsOn(`/bls/labstat/${survey}/${survey}.series`).length)).to.deep.equal([1, 1, 1]);
  });
});

/**
 * A 2025-era client's cancellation across server processes: the notifications/cancelled POST of a
 * client of the official SDK 1.x reaches another process than the one running the call (two
 * processes behind a load balancer), which tells it through Redis (REDIS_URL).
 */
import { fileURLToPath } from 'node:url';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { getBalance } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { call, documentationAddress, newCaller } from '../support/server.ts';

const ENTRY = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const redisUrl = process.env.TEST_REDIS_URL;

describeOnEachEngine('an MCP cancellation sent to another server process than the one running the call', (engine) => {
  let crossref: FakeUpstream;
  let openalex: FakeUpstream;
  let running: ServerProcess;
  let other: ServerProcess;
  before(async function () {
    if (!redisUrl) {
      if (process.env.CI) throw new Error('TEST_REDIS_URL is not set, and CI expects it');
      console.log('Skipped: cancellations across processes need Redis; set TEST_REDIS_URL=redis://127.0.0.1:6379 to run them.');
      this.skip();
    }
    this.timeout(60_000);
    [crossref, openalex] = await Promise.all([startFakeUpstream(), startFakeUpstream()]);
    const env = {
      DATABASE_URL: engine.url,
      REDIS_URL: redisUrl!,
      FIGURE_WORKERS: '0',
      FILES_DIR: 'off',
      SOURCE_CROSSREF_URL: crossref.url,
      SOURCE_OPENALEX_URL: openalex.url,
      SOURCE_OPENALEX_KEY: 'test-key',
    };
    [running, other] = await Promise.all([startServerProcess(ENTRY, env), startServerProcess(ENTRY, env)]);
  });
  after(async () => {
    await Promise.all([running, other].map((server) => server?.stop()));
    await Promise.all([crossref, openalex].map((fake) => fake?.close()));
  });

  it('reaches the call through Redis: its requests are cut off, the call log says cancelled, nothing is charged', async function () {
    this.timeout(60_000);
    // The indexes hold every answer: the call waits on them until it is cancelled.
    crossref.on('/works', json({ status: 'ok', message: { items: [] } }));
    openalex.on('/works', json({ meta: { count: 0 }, results: [] }));
    crossref.hold();
    openalex.hold();
    const caller = await newCaller(engine.db, 10);
    // The client's POSTs go to the process running the call, except its cancellation, which the balancer sends to the other.
    const toOther: typeof fetch = (url, init) =>
      fetch(String(init?.body ?? '').includes('"notifications/cancelled"') ? String(url).replace(running.baseUrl, other.baseUrl) : url, init);
    const client = new ClientV1({ name: 'research-tools-test-v1', version: '1.0.0' });
    const headers = { authorization: `Bearer ${caller.key}`, 'x-forwarded-for': documentationAddress() };
    await client.connect(new StreamableHTTPClientTransportV1(new URL(`${running.baseUrl}/mcp`), { requestInit: { headers }, fetch: toOther }));
    try {
      const cancel = new AbortController();
      const references = ['Smith J. A first study of tests. J Tests. 2020;1:1-2.', 'Jones K. A second study of tests. J Tests. 2021;2:3-4.'];
      const calling = client.callTool({ name: 'verify_references', arguments: { references } }, undefined, { signal: cancel.signal }).then(
        () => 'answered',
        () => 'failed',
      );
      await eventually(
        async () => crossref.hits.length + openalex.hits.length,
        (count) => count > 0,
      );
      cancel.abort();
      expect(await calling).to.equal('failed');

      const calls = await eventually(
        async () => (await call(other.baseUrl, '/api/v1/account', { key: caller.key })).body.recent_calls as Array<{ status: string; credits: number }>,
        (rows) => rows.length > 0,
      );
      expect(calls.map(({ status, credits }) => ({ status, credits }))).to.deep.equal([{ status: 'cancelled', credits: 0 }]);
      const hits = () => [...crossref.hits, ...openalex.hits];
      await eventually(
        async () => hits().every((hit) => hit.abandoned),
        (done) => done,
      );
      expect(hits().every((hit) => hit.abandoned)).to.equal(true);
      expect(await getBalance(engine.db, caller.accountId)).to.equal(10);
    } finally {
      crossref.release();
      openalex.release();
      await client.close();
    }
  });
});

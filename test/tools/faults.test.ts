import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { fixture } from '../connectors/recordings.ts';
import { FastForwardClock } from '../support/clock.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream, type Reply } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { fakeSourceEnv } from './support.ts';

const GAIA_TIMEOUT_MS = 300;

describeOnEachEngine('upstream faults through the server', (engine) => {
  let fake: FakeUpstream;
  let server: TestServer;
  // The server's waits skip ahead on this clock, and the fake upstream stamps each request with it.
  const clock = new FastForwardClock();
  before(async () => {
    fake = await startFakeUpstream(() => clock.now());
    server = await startServer(engine.db, { env: fakeSourceEnv(fake.url, { SOURCE_GAIA_TIMEOUT_MS: String(GAIA_TIMEOUT_MS) }), clock });
  });
  after(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => fake.reset());

  let distinct = 0;
  /**
   * A call with arguments no other test used, so no cached answer can interfere: query_gaia (whose
   * source has a short timeout here) for the timeouts, search_exoplanets (the manifest's timeout,
   * so every retry fits in the time allowed) for the other faults.
   */
  async function faultyCall(tool: 'query_gaia' | 'search_exoplanets') {
    const caller = await newCaller(engine.db, 5);
    distinct += 1;
    const body = tool === 'query_gaia' ? { ra: distinct, dec: 0, radius_deg: 0.1 } : { max_distance_pc: distinct };
    const answer = await call(server.baseUrl, `/api/v1/${tool}`, { method: 'POST', key: caller.key, body });
    return { answer, balance: await getBalance(engine.db, caller.accountId), ledger: await ledgerSum(engine.db, caller.accountId) };
  }

  const timeouts: Array<{ name: string; replies: Reply[] }> = [
    { name: 'no answer at all', replies: [{ fault: 'no_answer' }] },
    { name: 'a body that stalls half-way', replies: [{ fault: 'slow_body', body: fixture('gaia', 'hand-made-cone-3rows.json'), firstBytes: 40 }] },
  ];
  for (const fault of timeouts) {
    it(`${fault.name}: 502 upstream_error naming the time allowed, nothing charged, and the server keeps serving`, async () => {
      fake.on('/sync', ...fault.replies);
      const failed = await faultyCall('query_gaia');
      expect([failed.answer.status, failed.answer.body]).to.deep.equal([
        502,
        { error: { code: 'upstream_error', message: `no source answered: gaia did not answer within ${GAIA_TIMEOUT_MS} ms` } },
      ]);
      expect([failed.balance, failed.ledger]).to.deep.equal([5, 5]);
      fake.on('/sync', json(fixture('gaia', 'hand-made-cone-3rows.json')));
      const next = await faultyCall('query_gaia');
      expect([next.answer.status, next.answer.body.credits_used, next.balance]).to.deep.equal([200, 1, 4]);
    });
  }

  const faults: Array<{ name: string; replies: Reply[]; message: string | RegExp; attempts: number }> = [
    {
      name: 'a 429 whose Retry-After is longer than the call may take',
      replies: [json({ error: 'rate limited' }, { status: 429, headers: { 'retry-after': '3600' } })],
      message: 'no source answered: exoplanet-archive answered HTTP 429: rate limited; it asked to wait 3600 s, longer than this call may take',
      attempts: 1,
    },
    {
      name: 'HTTP 500 every time',
      replies: [{ status: 500, body: 'Internal Server Error', contentType: 'text/plain' }],
      message: 'no source answered: exoplanet-archive answered HTTP 500: Internal Server Error',
      attempts: 3,
    },
    {
      name: 'a reset connection every time',
      replies: [{ fault: 'reset' }],
      message: /^no source answered: exoplanet-archive (closed the connection|broke off the answer) \(/,
      attempts: 3,
    },
    {
      name: 'a truncated JSON body',
      replies: [{ body: fixture('exoplanet-archive', 'hand-made-pscomppars-trappist.json').slice(0, 200), contentType: 'application/json' }],
      message:
        'no source answered: exoplanet-archive answered with a body that is not valid JSON (truncated or another format), beginning "[ {"pl_name": "TRAPPIST-1 e", "hostname": "TRAPPIST-1", "dis"',
      attempts: 1,
    },
    {
      name: 'garbage bytes',
      replies: [{ body: '\u0000\u00ff\u0001%%garbage', contentType: 'application/octet-stream' }],
      message: 'no source answered: exoplanet-archive answered with a body that is not valid JSON (truncated or another format), beginning "ÿ %%garbage"',
      attempts: 1,
    },
    {
      name: 'an HTML page with status 200',
      replies: [
        { body: '<html><head><title>Service down</title></head><body><pre>Traceback (most recent call last)</pre></body></html>', contentType: 'text/html' },
      ],
      message: 'no source answered: exoplanet-archive answered with an HTML page instead of JSON',
      attempts: 1,
    },
  ];

  for (const fault of faults) {
    it(`${fault.name}: 502 upstream_error with a useful message, nothing charged, and the server keeps serving`, async () => {
      fake.on('/TAP/sync', ...fault.replies);
      const failed = await faultyCall('search_exoplanets');
      expect(failed.answer.status).to.equal(502);
      expect(Object.keys(failed.answer.body)).to.deep.equal(['error']);
      expect(failed.answer.body.error.code).to.equal('upstream_error');
      if (typeof fault.message === 'string') expect(failed.answer.body.error.message).to.equal(fault.message);
      else expect(failed.answer.body.error.message).to.match(fault.message);
      expect(failed.answer.text).not.to.match(/<html|Traceback|at .*\.ts:\d+/);
      expect([failed.balance, failed.ledger]).to.deep.equal([5, 5]);
      expect(fake.hitsOn('/TAP/sync')).to.have.length(fault.attempts);

      fake.on('/TAP/sync', json(fixture('exoplanet-archive', 'hand-made-pscomppars-trappist.json')));
      const next = await faultyCall('search_exoplanets');
      expect([next.answer.status, next.answer.body.credits_used, next.balance]).to.deep.equal([200, 1, 4]);
    });
  }

  it('after a 429 with Retry-After: 1 the call waits as told, then succeeds and is charged once', async () => {
    fake.on(
      '/search',
      json({ error: 'slow down' }, { status: 429, headers: { 'retry-after': '1' } }),
      json(fixture('oeis', 'hand-made-bare-array-fibonacci.json')),
    );
    const caller = await newCaller(engine.db, 5);
    const answer = await call(server.baseUrl, '/api/v1/lookup_integer_sequence', { method: 'POST', key: caller.key, body: { query: 'fibonacci retry' } });
    expect([answer.status, answer.body.credits_used, await getBalance(engine.db, caller.accountId)]).to.deep.equal([200, 1, 4]);
    const hits = fake.hitsOn('/search');
    expect(hits).to.have.length(2);
    expect(hits[1]!.at - hits[0]!.at).to.be.at.least(1000);
  });
});

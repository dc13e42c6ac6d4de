import { expect } from 'chai';
import { getBalance } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';

describeOnEachEngine('a 502 says when to retry when the upstream said', (engine) => {
  let fake: FakeUpstream;
  let server: TestServer;
  before(async function () {
    fake = await startFakeUpstream();
    server = await startServer(engine.db, { env: { SOURCE_USGS_EARTHQUAKES_URL: fake.url } });
  });
  after(async function () {
    await server.close();
    await fake.close();
  });

  it('an upstream 429 asking for 120 s gives a 502 with Retry-After: 120 and retry_after_s 120, not charged, asked once', async function () {
    fake.on('/query', { status: 429, body: 'Too many requests', contentType: 'text/plain', headers: { 'retry-after': '120' } });
    const caller = await newCaller(engine.db, 5);
    const answer = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: { start: '2023-01-01', end: '2023-01-31' } });
    expect([answer.status, answer.headers.get('retry-after'), answer.body.error.retry_after_s]).to.deep.equal([502, '120', 120]);
    expect(answer.body.error.message).to.equal(
      'no source answered: usgs-earthquakes answered HTTP 429: Too many requests; it asked to wait 120 s, longer than this call may take',
    );
    expect(fake.hits).to.have.length(1);
    expect(await getBalance(engine.db, caller.accountId)).to.equal(5);
  });

  it('a 502 whose upstream gave no wait has neither', async function () {
    fake.on('/query', { status: 404, body: 'No such thing', contentType: 'text/plain' });
    const caller = await newCaller(engine.db, 5);
    const answer = await call(server.baseUrl, '/api/v1/search_earthquakes', { key: caller.key, body: { start: '2022-01-01', end: '2022-01-31' } });
    expect([answer.status, answer.headers.get('retry-after'), answer.body.error.retry_after_s]).to.deep.equal([502, null, undefined]);
  });
});

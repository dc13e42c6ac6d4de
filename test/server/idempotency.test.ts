import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { fixture } from '../connectors/recordings.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { call, newCaller, type Answer } from '../support/server.ts';

describeOnEachEngine('idempotent retries with Idempotency-Key across two server processes', (engine) => {
  let upstream: FakeUpstream;
  let servers: ServerProcess[] = [];
  const earthquakes = () => json(fixture('usgs-earthquakes', 'hand-made-two-events.json'), { delayMs: 300 });
  before(async function () {
    this.timeout(60_000);
    upstream = await startFakeUpstream();
    upstream.on('/query', earthquakes());
    const env = { DATABASE_URL: engine.url, RATE_LIMIT_PER_MINUTE: '10000', SOURCE_USGS_EARTHQUAKES_URL: upstream.url };
    servers = await Promise.all([startServerProcess('test/support/serve.ts', env), startServerProcess('test/support/serve.ts', env)]);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await upstream.close();
  });

  const post = (index: number, key: string, apiKey: string, body: unknown): Promise<Answer> =>
    call(servers[index % 2]!.baseUrl, '/api/v1/search_earthquakes', { method: 'POST', key: apiKey, body, headers: { 'idempotency-key': key } });
  const entries = async (accountId: string, kind: string): Promise<number> => (await engine.db('ledger_entries').where({ account_id: accountId, kind })).length;
  const holds = (accountId: string): Promise<number> => entries(accountId, 'hold');

  it('runs 20 concurrent identical POSTs with one key once: one upstream call, one debit, the same 200 or 409; a later repeat replays it free; another body is 422', async function () {
    this.timeout(60_000);
    const caller = await newCaller(engine.db, 10);
    const body = { min_magnitude: 4, limit: 2 };
    upstream.reset();
    upstream.on('/query', earthquakes());
    const answers = await Promise.all(Array.from({ length: 20 }, (_, index) => post(index, 'order-7f3a', caller.key, body)));

    const succeeded = answers.filter((answer) => answer.status === 200);
    const overlapping = answers.filter((answer) => answer.status === 409);
    expect(succeeded.length + overlapping.length).to.equal(20);
    expect(succeeded.length).to.be.greaterThan(0);
    expect(new Set(succeeded.map((answer) => answer.text)).size).to.equal(1);
    expect(new Set(overlapping.map((answer) => answer.body.error.code))).to.deep.equal(new Set(overlapping.length > 0 ? ['idempotency_in_progress'] : []));
    expect(upstream.hitsOn('/query')).to.have.length(1);
    expect(await holds(caller.accountId)).to.equal(1);
    expect([await getBalance(engine.db, caller.accountId), await ledgerSum(engine.db, caller.accountId)]).to.deep.equal([9, 9]);
    const first = succeeded[0]!;
    expect(first.body.credits_used).to.equal(1);
    expect(first.headers.get('x-credits-remaining')).to.equal('9');

    // Later, from the other process, with the body's keys in another order: the stored answer, not charged.
    const repeat = await call(servers[1]!.baseUrl, '/api/v1/search_earthquakes', {
      method: 'POST',
      key: caller.key,
      rawBody: '{ "limit": 2, "min_magnitude": 4 }',
      headers: { 'idempotency-key': 'order-7f3a' },
    });
    expect([repeat.status, repeat.text, repeat.headers.get('idempotent-replayed'), repeat.headers.get('x-credits-remaining')]).to.deep.equal([
      200,
      first.text,
      'true',
      '9',
    ]);
    expect(upstream.hitsOn('/query')).to.have.length(1);

    const other = await post(0, 'order-7f3a', caller.key, { min_magnitude: 5, limit: 2 });
    expect([other.status, other.body.error.code, other.headers.get('x-credits-remaining')]).to.deep.equal([422, 'idempotency_key_reused', '9']);
    expect([await holds(caller.accountId), await getBalance(engine.db, caller.accountId), await ledgerSum(engine.db, caller.accountId)]).to.deep.equal([
      1, 9, 9,
    ]);
  });

  it('keys are per account: another account with the same key runs its own call', async function () {
    this.timeout(30_000);
    const [one, two] = [await newCaller(engine.db, 5), await newCaller(engine.db, 5)];
    const body = { min_magnitude: 3, limit: 2 };
    const answers = [await post(0, 'shared-key', one.key, body), await post(1, 'shared-key', two.key, body)];
    expect(answers.map((answer) => answer.status)).to.deep.equal([200, 200]);
    expect(answers[0]!.body.call_id).not.to.equal(answers[1]!.body.call_id);
    expect([await getBalance(engine.db, one.accountId), await getBalance(engine.db, two.accountId)]).to.deep.equal([4, 4]);
  });

  it('stores a 400 and replays it, but never a 502: the retry after an upstream failure runs again and is charged once', async function () {
    this.timeout(60_000);
    const caller = await newCaller(engine.db, 5);
    const invalid = await post(0, 'bad-args', caller.key, { latitude: 10 });
    const invalidAgain = await post(1, 'bad-args', caller.key, { latitude: 10 });
    expect([invalid.status, invalid.body.error.code]).to.deep.equal([400, 'invalid_input']);
    expect([invalidAgain.status, invalidAgain.text, invalidAgain.headers.get('idempotent-replayed')]).to.deep.equal([400, invalid.text, 'true']);

    upstream.on('/query', { status: 500, body: 'down' });
    const failed = await post(0, 'after-failure', caller.key, { min_magnitude: 6, limit: 2 });
    expect([failed.status, failed.headers.get('x-credits-remaining')]).to.deep.equal([502, '5']);
    upstream.on('/query', earthquakes());
    const retried = await post(1, 'after-failure', caller.key, { min_magnitude: 6, limit: 2 });
    expect([retried.status, retried.headers.get('idempotent-replayed'), retried.headers.get('x-credits-remaining')]).to.deep.equal([200, null, '4']);
    // Held twice: the failed call's hold released, the retry's captured.
    expect([
      await entries(caller.accountId, 'release'),
      await entries(caller.accountId, 'capture'),
      await getBalance(engine.db, caller.accountId),
      await ledgerSum(engine.db, caller.accountId),
    ]).to.deep.equal([1, 1, 4, 4]);
  });

  it('refuses an Idempotency-Key longer than 255 characters with 400, charging nothing', async () => {
    const caller = await newCaller(engine.db, 5);
    const answer = await post(0, 'k'.repeat(256), caller.key, { limit: 2 });
    expect([answer.status, answer.body.error.code, await getBalance(engine.db, caller.accountId)]).to.deep.equal([400, 'invalid_input', 5]);
  });
});

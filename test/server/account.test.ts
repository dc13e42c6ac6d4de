import { expect } from 'chai';
import { runAdmin, type AdminResult } from '../../src/admin/commands.ts';
import { getBalance, setPackEnabled } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';

function printed(result: AdminResult): unknown {
  expect([result.exitCode, result.stderr]).to.deep.equal([0, '']);
  return JSON.parse(result.stdout);
}

describeOnEachEngine('GET /api/v1/account and X-Credits-Remaining', (engine) => {
  let server: TestServer;
  before(async () => {
    server = await startServer(engine.db, { handlers: stubHandlers() });
  });
  after(async () => server.close());

  const admin = async (...argv: string[]): Promise<unknown> => printed(await runAdmin(argv, { env: { DATABASE_URL: engine.url } }));
  const post = (tool: string, key: string, body: unknown) => call(server.baseUrl, `/api/v1/${tool}`, { method: 'POST', key, body });

  it('shows the account as the admin CLI does (accounts show and usage): balance, packs, the last 20 calls newest first', async function () {
    this.timeout(30_000);
    const caller = await newCaller(engine.db, 30);
    await setPackEnabled(engine.db, caller.accountId, 'astro', false);
    for (let index = 0; index < 21; index += 1) expect((await post('search_papers', caller.key, { query: `q${index}` })).status).to.equal(200);
    expect((await post('lookup_integer_sequence', caller.key, { query: '1,2,3' })).status).to.equal(502);

    const answer = await call(server.baseUrl, '/api/v1/account', { key: caller.key });
    expect(answer.status).to.equal(200);
    const shown = (await admin('accounts', 'show', caller.accountId)) as { id: string; name: string; credits: number; packs: Record<string, boolean> };
    const usage = await admin('usage', caller.accountId, '--limit', '20');
    expect(answer.body).to.deep.equal({ account: { id: shown.id, name: shown.name, balance: shown.credits, packs: shown.packs }, recent_calls: usage });
    expect([answer.body.account.balance, answer.body.account.packs.astro, answer.body.account.packs.general]).to.deep.equal([9, false, true]);
    expect(answer.body.recent_calls).to.have.length(20);
    expect(answer.body.recent_calls[0]).to.deep.include({ tool: 'lookup_integer_sequence', status: 'upstream_error', credits: 0 });
    expect(answer.body.recent_calls[1]).to.deep.include({ tool: 'search_papers', status: 'ok', credits: 1 });
    expect(answer.headers.get('x-credits-remaining')).to.equal('9');
  });

  it("is free and not counted by the key's rate limit of tool calls", async function () {
    this.timeout(30_000);
    const caller = await newCaller(engine.db, 3);
    for (let index = 0; index < 61; index += 1) expect((await call(server.baseUrl, '/api/v1/account', { key: caller.key })).status).to.equal(200);
    const toolCall = await post('search_papers', caller.key, { query: 'after' });
    expect([toolCall.status, toolCall.headers.get('ratelimit-remaining'), await getBalance(engine.db, caller.accountId)]).to.deep.equal([200, '59', 2]);
  });

  it('is 401 without a key or with a bad one', async () => {
    const missing = await call(server.baseUrl, '/api/v1/account');
    const bad = await call(server.baseUrl, '/api/v1/account', { key: 'sm_not_a_key' });
    expect([missing.status, missing.body.error.code, bad.status, bad.body.error.code]).to.deep.equal([401, 'unauthorized', 401, 'unauthorized']);
  });

  it('X-Credits-Remaining on every keyed answer equals the balance after the call: a charged 200, a 400, a 402, a 502', async () => {
    const caller = await newCaller(engine.db, 1);
    const answers = [
      await post('search_papers', caller.key, { query: 'charged' }),
      await post('search_papers', caller.key, {}),
      await post('search_papers', caller.key, { query: 'no credits left' }),
    ];
    expect(answers.map((answer) => [answer.status, answer.headers.get('x-credits-remaining')])).to.deep.equal([
      [200, '0'],
      [400, '0'],
      [402, '0'],
    ]);
    const richer = await newCaller(engine.db, 4);
    const failed = await post('lookup_integer_sequence', richer.key, { query: '1,2,3' });
    expect([failed.status, failed.headers.get('x-credits-remaining'), await getBalance(engine.db, richer.accountId)]).to.deep.equal([502, '4', 4]);
  });
});

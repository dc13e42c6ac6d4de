import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';
import { call, newCaller } from '../support/server.ts';

/** The tool calls a server process counted itself (its own GET /metrics), by outcome: what that process answered. */
async function callsCountedBy(server: ServerProcess, tool: string): Promise<Record<string, number>> {
  const text = (await call(server.baseUrl, '/metrics')).text;
  const counted: Record<string, number> = {};
  const line = new RegExp(`^research_tools_tool_calls_total\\{tool="${tool}",status="([a-z_]+)"\\} (\\d+)$`, 'gm');
  for (const [, status, count] of text.matchAll(line)) counted[status!] = Number(count);
  return counted;
}

/** What each process counted between `before` and `after`, outcome by outcome. */
function countedSince(before: Record<string, number>, after: Record<string, number>): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).flatMap(([status, count]) => (count > (before[status] ?? 0) ? [[status, count - (before[status] ?? 0)]] : [])),
  );
}

describeOnEachEngine('two server processes on one database', (engine) => {
  let servers: ServerProcess[] = [];
  before(async function () {
    this.timeout(60_000);
    // The earthquake source points at a closed loopback port, so its calls fail upstream without the network.
    const env = { DATABASE_URL: engine.url, RATE_LIMIT_PER_MINUTE: '10000', SOURCE_USGS_EARTHQUAKES_URL: 'http://127.0.0.1:9' };
    servers = await Promise.all([startServerProcess('test/support/serve.ts', env), startServerProcess('test/support/serve.ts', env)]);
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it('serve 200 parallel charged calls against 50 credits: exactly 50 succeed, 150 get 402, balance 0 equals the ledger sum', async function () {
    this.timeout(120_000);
    const caller = await newCaller(engine.db, 50);
    const countedBefore = await Promise.all(servers.map((server) => callsCountedBy(server, 'search_papers')));
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        call(servers[index % 2]!.baseUrl, '/api/v1/search_papers', { method: 'POST', key: caller.key, body: { query: `q${index}` } }),
      ),
    );
    const counts: Record<string, number> = {};
    for (const answer of answers) {
      const outcome = answer.status === 200 ? '200' : `${answer.status} ${answer.body?.error?.code}`;
      counts[outcome] = (counts[outcome] ?? 0) + 1;
    }
    expect(counts).to.deep.equal({ '200': 50, '402 insufficient_credits': 150 });
    const callIds = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.call_id as string);
    expect(new Set(callIds).size).to.equal(50);
    expect(await getBalance(engine.db, caller.accountId)).to.equal(0);
    expect(await ledgerSum(engine.db, caller.accountId)).to.equal(0);
    const debits = await engine.db('ledger_entries').where({ account_id: caller.accountId, kind: 'hold' }).select('call_id');
    expect(debits.map((row: { call_id: string }) => row.call_id).sort()).to.deep.equal([...callIds].sort());
    // Which process answered which call, as each process counted it itself: both answered some, and together all 200.
    const counted = await Promise.all(servers.map(async (server, index) => countedSince(countedBefore[index]!, await callsCountedBy(server, 'search_papers'))));
    const answeredBy = counted.map((outcomes) => Object.values(outcomes).reduce((sum, count) => sum + count, 0));
    expect(
      answeredBy.every((count) => count > 0),
      `calls each process answered: ${answeredBy.join(', ')}`,
    ).to.equal(true);
    expect([
      counted.reduce((sum, outcomes) => sum + (outcomes.ok ?? 0), 0),
      counted.reduce((sum, outcomes) => sum + (outcomes.insufficient_credits ?? 0), 0),
    ]).to.deep.equal([50, 150]);
  });

  it('leave the balance unchanged when a call fails upstream', async () => {
    const caller = await newCaller(engine.db, 7);
    const answer = await call(servers[1]!.baseUrl, '/api/v1/search_earthquakes', { method: 'POST', key: caller.key, body: {} });
    expect(answer.status).to.equal(502);
    expect(await getBalance(engine.db, caller.accountId)).to.equal(7);
    expect(await ledgerSum(engine.db, caller.accountId)).to.equal(7);
  });
});

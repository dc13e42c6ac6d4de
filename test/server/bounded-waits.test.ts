/**
 * One locked account cannot stall the others: while its row is held by another transaction,
 * other accounts' calls, free calls and /readyz answer, and its own charged call answers 503
 * temporarily_unavailable without being charged (a hold that lands after that answer is released).
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { openDatabase } from '../../src/database/index.ts';
import { openHolds } from '../ledger/ledger-assertions.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, newCaller, startServer, type Answer, type TestServer } from '../support/server.ts';
import { stubHandlers } from '../support/stub-handlers.ts';

describeOnEachEngine('bounded waits', (engine) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  async function expectBalance(accountId: string, credits: number): Promise<void> {
    expect(await getBalance(engine.db, accountId), 'balance').to.equal(credits);
    expect(await ledgerSum(engine.db, accountId), 'sum of ledger entries').to.equal(credits);
  }

  function expectUnavailable(answer: Answer): void {
    expect([answer.status, answer.body?.error?.code, answer.headers.get('retry-after')]).to.deep.equal([503, 'temporarily_unavailable', '1']);
  }

  if (engine.name === 'mysql') {
    it('with an account row held FOR UPDATE, other accounts, free calls and /readyz answer first; the locked account gets 503 and is not charged', async function () {
      server = await startServer(engine.db, { rateLimitPerMinute: 100_000, handlers: stubHandlers(), env: { CHARGE_WAIT_MS: '1000' } });
      const locked = await newCaller(engine.db, 5);
      const other = await newCaller(engine.db, 5);
      const lock = await engine.db.transaction();
      try {
        await lock('accounts').where({ id: locked.accountId }).forUpdate().select('id');
        const order: string[] = [];
        const follow = (name: string, answer: Promise<Answer>): Promise<Answer> => answer.then((settled) => (order.push(name), settled));
        // More calls of the locked account than it may have in the database at once.
        const lockedCalls = Array.from({ length: 4 }, () =>
          follow('locked', call(server!.baseUrl, '/api/v1/search_papers', { key: locked.key, body: { query: 'q' } })),
        );
        const others = await Promise.all([
          follow('readyz', call(server.baseUrl, '/readyz')),
          follow('other charged', call(server.baseUrl, '/api/v1/search_papers', { key: other.key, body: { query: 'q' } })),
          follow('other free', call(server.baseUrl, '/api/v1/list_capabilities', { key: other.key, body: {} })),
        ]);
        expect(others.map((answer) => answer.status)).to.deep.equal([200, 200, 200]);
        for (const answer of await Promise.all(lockedCalls)) expectUnavailable(answer);
        expect(order.slice(0, 3)).to.have.members(['readyz', 'other charged', 'other free']);
        expect(order.slice(3)).to.deep.equal(['locked', 'locked', 'locked', 'locked']);
      } finally {
        await lock.rollback();
      }
      // A hold still waiting for the lock when its call answered 503 may land once the lock is gone: it is then released.
      await server.settled();
      expect(await openHolds(engine.db, locked.accountId)).to.equal(0);
      await expectBalance(locked.accountId, 5);
      await expectBalance(other.accountId, 4);
    });
  } else {
    it('with the database file locked by another writer, /readyz answers and a charged call gets 503, not charged', async function () {
      server = await startServer(engine.db, { rateLimitPerMinute: 100_000, handlers: stubHandlers(), env: { CHARGE_WAIT_MS: '1000' } });
      const caller = await newCaller(engine.db, 5);
      expect((await call(server.baseUrl, '/api/v1/list_capabilities', { key: caller.key, body: {} })).status).to.equal(200);
      const writer: Knex = openDatabase(engine.url);
      const lock = await writer.transaction();
      try {
        await lock('accounts').where({ id: caller.accountId }).update({ name: 'locked' });
        expectUnavailable(await call(server.baseUrl, '/api/v1/search_papers', { key: caller.key, body: { query: 'q' } }));
        expect((await call(server.baseUrl, '/readyz')).status).to.equal(200);
      } finally {
        await lock.rollback();
        await writer.destroy();
      }
      await expectBalance(caller.accountId, 5);
    });
  }
});

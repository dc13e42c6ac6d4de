/**
 * A MySQL/MariaDB pool whose server refuses connections: once one connect has failed that way, the
 * callers waiting for a connection, and new ones, are refused at once with that failure (transient,
 * so the ledger retries), while one caller at a time tries to connect.
 */
import { expect } from 'chai';
import { databaseUnreachable } from '../../src/database/reachability.ts';
import { isTransient, openDatabase } from '../../src/database/index.ts';
import { sparePort } from '../support/private-mariadb.ts';

describe('a database pool while its server refuses connections', function () {
  it('refuses 20 waiting callers with the connect failure, then 20 more with at most one connect attempt between them', async function () {
    const db = openDatabase(`mysql://root@127.0.0.1:${await sparePort()}/none`);
    let connects = 0;
    (db.client as { pool: { on(event: string, listener: () => void): void } }).pool.on('createRequest', () => (connects += 1));
    const twenty = (): Promise<unknown[]> =>
      Promise.all(
        Array.from({ length: 20 }, () =>
          db.raw('select 1').then(
            () => 'answered',
            (error: unknown) => error,
          ),
        ),
      );
    try {
      expect(databaseUnreachable(db)).to.equal(false);
      const first = await twenty();
      expect(first.map((error) => [(error as { code?: string }).code, isTransient(error)])).to.deep.equal(first.map(() => ['ECONNREFUSED', true]));
      expect(databaseUnreachable(db)).to.equal(true);

      connects = 0;
      const second = await twenty();
      expect(second.map((error) => (error as { code?: string }).code)).to.deep.equal(second.map(() => 'ECONNREFUSED'));
      expect(connects, 'connect attempts for the second 20 callers').to.be.at.most(1);
    } finally {
      await db.destroy();
    }
  });
});

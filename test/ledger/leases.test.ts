import { expect } from 'chai';
import type { Knex } from 'knex';
import pino from 'pino';
import { ProcessLease, createAccount, hold, releaseHoldsOfExpiredLeases } from '../../src/ledger/index.ts';
import { newCallId } from '../../src/database/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { expectBalance } from './ledger-assertions.ts';

const logger = pino({ level: 'silent' });

describeOnEachEngine(
  'leases: the holds of a process that stopped renewing',
  (engine) => {
    async function kinds(callId: string): Promise<string[]> {
      return engine.db('ledger_entries').where({ call_id: callId }).orderBy('id').pluck('kind');
    }

    it("releases the open holds of an expired lease once, leaves a live lease's holds and holds without a lease alone, and deletes the expired lease", async function () {
      const { id } = await createAccount(engine.db, { name: 'Leases', credits: 10 });
      const crashed = new ProcessLease(engine.db, { timeoutMs: 60_000, renewMs: 1_000, logger });
      const alive = new ProcessLease(engine.db, { timeoutMs: 60_000, renewMs: 1_000, logger });
      await crashed.start();
      await alive.start();
      const ofCrashed = { callId: newCallId(), accountId: id, credits: 2 };
      const ofAlive = { callId: newCallId(), accountId: id, credits: 3 };
      const withoutLease = { callId: newCallId(), accountId: id, credits: 1 };
      await hold(engine.db, { ...ofCrashed, leaseId: crashed.id });
      await hold(engine.db, { ...ofAlive, leaseId: alive.id });
      await hold(engine.db, withoutLease);
      await alive.stop().then(() =>
        engine
          .db('leases')
          .where({ id: alive.id })
          .update({ expires_at: new Date(Date.now() + 60_000) }),
      );
      // The crashed process stops renewing; its lease expires.
      await engine
        .db('leases')
        .where({ id: crashed.id })
        .update({ expires_at: new Date(Date.now() - 1) });

      const released = await Promise.all([releaseHoldsOfExpiredLeases(engine.db, new Date()), releaseHoldsOfExpiredLeases(engine.db, new Date())]);
      expect(released[0] + released[1]).to.equal(1);
      expect([await kinds(ofCrashed.callId), await kinds(ofAlive.callId), await kinds(withoutLease.callId)]).to.deep.equal([
        ['hold', 'release'],
        ['hold'],
        ['hold'],
      ]);
      expect(await engine.db('leases').whereIn('id', [crashed.id, alive.id]).pluck('id')).to.deep.equal([alive.id]);
      await expectBalance(engine.db, id, 6);
    });

    it('a process whose lease was swept while it could not renew takes a new one at its next renewal', async function () {
      const lease = new ProcessLease(engine.db, { timeoutMs: 60_000, renewMs: 60_000, logger });
      await lease.start();
      const first = lease.id;
      await engine.db('leases').where({ id: first }).del();
      await lease.renewAndSweep();
      expect(lease.id).to.not.equal(first);
      expect(await engine.db('leases').where({ id: lease.id }).pluck('id')).to.deep.equal([lease.id]);
      await lease.stop();
    });

    it('a process back from a database outage sweeps the expired leases of others only after renewing for LEASE_TIMEOUT_MS: a live one renews first and keeps its holds', async function () {
      const { id } = await createAccount(engine.db, { name: 'Outage', credits: 10 });
      // The database as the returning process sees it: out of reach while `away`.
      let away = false;
      const reach = (): Knex => {
        if (away) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
        return engine.db;
      };
      const db = new Proxy(engine.db, {
        apply: (_target, thisArg, args) => Reflect.apply(reach(), thisArg, args),
        get: (_target, property) => Reflect.get(engine.db, property) as unknown,
      });
      const timeoutMs = 300;
      const back = new ProcessLease(db, { timeoutMs, renewMs: 60_000, logger });
      const live = new ProcessLease(engine.db, { timeoutMs: 60_000, renewMs: 60_000, logger });
      await back.start();
      await live.start();
      const owed = { callId: newCallId(), accountId: id, credits: 2 };
      await hold(engine.db, { ...owed, leaseId: live.id });
      // The outage: every lease expired, the live process's too; the returning process's renewal fails.
      await engine
        .db('leases')
        .where({ id: live.id })
        .update({ expires_at: new Date(Date.now() - 1) });
      away = true;
      await back.renewAndSweep();
      away = false;

      await back.renewAndSweep();
      expect(await kinds(owed.callId), 'right after the outage').to.deep.equal(['hold']);
      await live.renewAndSweep();
      await new Promise((resolve) => setTimeout(resolve, timeoutMs));
      await back.renewAndSweep();
      expect(await kinds(owed.callId), 'once the live process has renewed').to.deep.equal(['hold']);

      // A lease that stays expired is swept as before.
      await engine
        .db('leases')
        .where({ id: live.id })
        .update({ expires_at: new Date(Date.now() - 1) });
      await back.renewAndSweep();
      expect(await kinds(owed.callId), 'a lease left expired').to.deep.equal(['hold', 'release']);
      await back.stop();
      await expectBalance(engine.db, id, 10);
    });
  },
  // Sweeps every expired lease of the database.
  { ownDatabase: true },
);

/**
 * The per-process cache of verified keys, on a fake clock: a burst of calls reads the key once; an
 * entry is used for at most KEY_CACHE_MS from the start of its database read, so a key deleted or a
 * pack switched by any process counts everywhere within that bound; bad keys are never kept. While
 * the database cannot be read, a key verified within STALE_KEY_MS stands in; any other answers 503.
 */
import { expect } from 'chai';
import type { Knex } from 'knex';
import { ApiError } from '../../src/errors.ts';
import { createKey, deleteKey, setPackEnabled } from '../../src/ledger/index.ts';
import { openDatabase } from '../../src/database/index.ts';
import { KEY_CACHE_MS, KeyVerifier, STALE_KEY_MS } from '../../src/server/key-cache.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { newCaller } from '../support/server.ts';

describeOnEachEngine('the key cache', (engine) => {
  let clock = 0;
  let reads = 0;
  const countRead = (query: { sql: string }): void => {
    if (/api_keys/.test(query.sql) && /^select/i.test(query.sql)) reads += 1;
  };
  before(() => engine.db.on('query', countRead));
  beforeEach(() => {
    clock = 1_000_000;
    reads = 0;
  });
  const verifier = () => new KeyVerifier(engine.db, { now: () => clock });

  it('reads a key once for a burst of calls, and again once the entry is KEY_CACHE_MS old', async () => {
    const caller = await newCaller(engine.db, 1);
    const keys = verifier();
    for (let call = 0; call < 50; call += 1) expect((await keys.verify(caller.key))?.keyId).to.equal(caller.keyId);
    expect(reads).to.equal(1);
    clock += KEY_CACHE_MS - 1;
    await keys.verify(caller.key);
    expect(reads).to.equal(1);
    clock += 1;
    await keys.verify(caller.key);
    expect(reads).to.equal(2);
  });

  it('a key deleted by another process is refused once the entry is KEY_CACHE_MS old, never later', async () => {
    const caller = await newCaller(engine.db, 1);
    const keys = verifier();
    expect(await keys.verify(caller.key)).to.not.equal(null);
    await deleteKey(engine.db, caller.keyId);
    clock += KEY_CACHE_MS - 1;
    expect(await keys.verify(caller.key)).to.not.equal(null);
    clock += 1;
    expect(await keys.verify(caller.key)).to.equal(null);
    expect(await keys.verify(caller.key)).to.equal(null);
  });

  it('a pack switched off elsewhere counts once the entry is KEY_CACHE_MS old; at once where forgetAccount is called', async () => {
    const caller = await newCaller(engine.db, 1);
    const elsewhere = verifier();
    const here = verifier();
    expect((await elsewhere.verify(caller.key))!.disabledPacks).to.deep.equal([]);
    expect((await here.verify(caller.key))!.disabledPacks).to.deep.equal([]);
    await setPackEnabled(engine.db, caller.accountId, 'astro', false);
    here.forgetAccount(caller.accountId);
    expect((await here.verify(caller.key))!.disabledPacks).to.deep.equal(['astro']);
    expect((await elsewhere.verify(caller.key))!.disabledPacks).to.deep.equal([]);
    clock += KEY_CACHE_MS;
    expect((await elsewhere.verify(caller.key))!.disabledPacks).to.deep.equal(['astro']);
  });

  it('the bound counts from the start of the read: an entry whose read took long is kept for less', async () => {
    const caller = await newCaller(engine.db, 1);
    let slowRead = true;
    const keys = new KeyVerifier(engine.db, {
      now: () => {
        // The clock moves on by 400 ms while the first database read is under way.
        if (slowRead && reads === 1) {
          slowRead = false;
          clock += 400;
        }
        return clock;
      },
    });
    await keys.verify(caller.key);
    clock += KEY_CACHE_MS - 400;
    await keys.verify(caller.key);
    expect(reads).to.equal(2);
  });

  it('never keeps an unknown key: each attempt is read from the database', async () => {
    const keys = verifier();
    for (let attempt = 0; attempt < 3; attempt += 1) expect(await keys.verify(`sm_${'Q'.repeat(40)}`)).to.equal(null);
    expect(reads).to.equal(3);
  });

  it('while the database cannot be read, a key verified within STALE_KEY_MS stands in; another key, or one verified longer ago, answers 503', async () => {
    const caller = await newCaller(engine.db, 1);
    const other = await createKey(engine.db, caller.accountId, 'other');
    // Port 9 on the loopback refuses connections: every read through `unreachable` fails as transient.
    const unreachable = openDatabase('mysql://root@127.0.0.1:9/none');
    let away = false;
    const current = (): Knex => (away ? unreachable : engine.db);
    const db = new Proxy(engine.db, {
      apply: (_target, thisArg, args) => Reflect.apply(current(), thisArg, args),
      get: (_target, property) => Reflect.get(current(), property) as unknown,
    });
    try {
      const keys = new KeyVerifier(db, { now: () => clock });
      expect((await keys.verify(caller.key))?.keyId).to.equal(caller.keyId);
      away = true;
      clock += STALE_KEY_MS - 1;
      expect((await keys.verify(caller.key))?.keyId).to.equal(caller.keyId);
      const refusal = async (key: string): Promise<unknown> =>
        keys.verify(key).then(
          () => undefined,
          (error: unknown) => error,
        );
      const unverified = await refusal(other.key);
      expect(unverified instanceof ApiError ? [unverified.code, unverified.status] : unverified).to.deep.equal(['temporarily_unavailable', 503]);
      clock += 1;
      const tooOld = await refusal(caller.key);
      expect(tooOld instanceof ApiError ? tooOld.code : tooOld).to.equal('temporarily_unavailable');
      away = false;
      expect((await keys.verify(other.key))?.keyId).to.equal(other.id);
    } finally {
      await unreachable.destroy();
    }
  });
});

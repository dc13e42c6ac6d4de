import { expect } from 'chai';
import type { Knex } from 'knex';
import { authenticateKey, createAccount, createKey, deleteKey, hashKey, listKeys, renameKey, setPackEnabled } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { eventually } from '../support/eventually.ts';
import { expectLedgerError } from './ledger-assertions.ts';

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

async function tableNames(db: Knex): Promise<string[]> {
  if (db.client.dialect === 'mysql') {
    return db('information_schema.tables').where('table_schema', db.raw('database()')).pluck('table_name');
  }
  return db('sqlite_master').where({ type: 'table' }).pluck('name');
}

async function lastUsedAt(db: Knex, accountId: string, keyId: string): Promise<string | null | undefined> {
  const keys = await listKeys(db, accountId);
  return keys.find((key) => key.id === keyId)?.last_used_at;
}

describeOnEachEngine('API keys', (engine) => {
  it('creates a key of sm_ and 40 base62 characters, shown with its first 7 characters as prefix', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Keys', credits: 0 });
    const created = await createKey(engine.db, accountId, 'laptop');
    expect(created.key).to.match(/^sm_[0-9A-Za-z]{40}$/);
    expect(created.id).to.match(/^key_[0-9A-Za-z]{16}$/);
    expect(created.prefix).to.equal(created.key.slice(0, 7));
  });

  it('stores only the hash of the key: the raw key is in no column of any table', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Secret', credits: 0 });
    const { id, key } = await createKey(engine.db, accountId, 'secret');
    await authenticateKey(engine.db, key);
    const secretPart = key.slice(7);
    const holders: string[] = [];
    for (const table of await tableNames(engine.db)) {
      for (const row of await engine.db(table).select('*')) {
        for (const [column, value] of Object.entries(row as Record<string, unknown>)) {
          const text = Buffer.isBuffer(value) ? value.toString('latin1') : String(value);
          if (text.includes(secretPart)) holders.push(`${table}.${column}`);
        }
      }
    }
    expect(holders).to.deep.equal([]);
    const stored = await engine.db('api_keys').where({ id }).first('key_hash');
    expect(stored.key_hash).to.equal(hashKey(key));
    expect(stored.key_hash).to.match(/^[0-9a-f]{64}$/);
  });

  it('lists the live keys of an account with name, prefix and ISO timestamps', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Listing', credits: 0 });
    const first = await createKey(engine.db, accountId, 'first');
    const second = await createKey(engine.db, accountId);
    const keys = await listKeys(engine.db, accountId);
    expect(keys.map(({ id, name, prefix, last_used_at }) => ({ id, name, prefix, last_used_at }))).to.have.deep.members([
      { id: first.id, name: 'first', prefix: first.prefix, last_used_at: null },
      { id: second.id, name: null, prefix: second.prefix, last_used_at: null },
    ]);
    for (const key of keys) expect(key.created_at).to.match(ISO_TIMESTAMP);
    expect(Object.keys(keys[0] ?? {})).to.deep.equal(['id', 'name', 'prefix', 'created_at', 'last_used_at']);
  });

  it('answers a created or renamed key with the same listing listKeys shows afterwards', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Listing answers', credits: 0 });
    const { key, ...created } = await createKey(engine.db, accountId, 'desk');
    expect(key).to.match(/^sm_/);
    expect(await listKeys(engine.db, accountId)).to.deep.equal([created]);
    const renamed = await renameKey(engine.db, accountId, created.id, 'desk 2');
    expect(renamed).to.deep.equal({ ...created, name: 'desk 2' });
    expect(await listKeys(engine.db, accountId)).to.deep.equal([renamed]);
  });

  it('with a limit of live keys, 6 creations at once on an account one short of it make exactly one key', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Key limit', credits: 0 });
    for (let index = 0; index < 4; index++) await createKey(engine.db, accountId);
    // On MySQL another transaction holds the account row until all six are waiting on it, so that they run together when it lets go.
    const holder = engine.name === 'mysql' ? await engine.db.transaction() : undefined;
    await holder?.('accounts').where({ id: accountId }).forUpdate().first('id');
    const attempts = Promise.allSettled(Array.from({ length: 6 }, () => createKey(engine.db, accountId, null, undefined, { maxLiveKeys: 5 })));
    if (holder) {
      const statementsOnTheAccount = async () =>
        Number(
          (
            await engine
              .db('information_schema.processlist')
              .where('info', 'like', `%${accountId}%`)
              .whereNot('id', engine.db.raw('connection_id()'))
              .count({ n: '*' })
          )[0]!.n,
        );
      try {
        expect(await eventually(statementsOnTheAccount, (count) => count >= 6)).to.equal(6);
      } finally {
        await holder.commit();
      }
    }
    const settled = await attempts;
    expect(settled.filter((attempt) => attempt.status === 'fulfilled')).to.have.length(1);
    for (const attempt of settled.filter((one) => one.status === 'rejected')) {
      expect(attempt.reason).to.include({ code: 'invalid_input', message: 'the account already holds 5 keys, the most it may; delete one first' });
    }
    expect(await listKeys(engine.db, accountId)).to.have.length(5);
    await expectLedgerError(createKey(engine.db, accountId, null, undefined, { maxLiveKeys: 5 }), 'invalid_input');
  });

  it('authenticates a key to its account and key id, and refuses malformed or unknown keys', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Auth', credits: 0 });
    const { id, key } = await createKey(engine.db, accountId);
    expect(await authenticateKey(engine.db, key)).to.deep.equal({ keyId: id, accountId, disabledPacks: [] });
    expect(await authenticateKey(engine.db, `${key.slice(0, -1)}${key.endsWith('a') ? 'b' : 'a'}`)).to.equal(null);
    expect(await authenticateKey(engine.db, key.toLowerCase() === key ? key.toUpperCase() : key.toLowerCase())).to.equal(null);
    expect(await authenticateKey(engine.db, '')).to.equal(null);
    expect(await authenticateKey(engine.db, 'sm_short')).to.equal(null);
    expect(await authenticateKey(engine.db, `xx_${key.slice(3)}`)).to.equal(null);
  });

  it("returns the account's switched-off packs with the key, in the same lookup", async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Packs with key', credits: 0 });
    const { id, key } = await createKey(engine.db, accountId);
    await setPackEnabled(engine.db, accountId, 'life', false);
    await setPackEnabled(engine.db, accountId, 'astro', false);
    await setPackEnabled(engine.db, accountId, 'chem', true);
    const found = await authenticateKey(engine.db, key);
    expect({ ...found, disabledPacks: found?.disabledPacks.sort() }).to.deep.equal({ keyId: id, accountId, disabledPacks: ['astro', 'life'] });
  });

  it('fails to authenticate a key once it is deleted, and drops it from the listing', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Revoke', credits: 0 });
    const kept = await createKey(engine.db, accountId, 'kept');
    const leaked = await createKey(engine.db, accountId, 'leaked');
    expect(await deleteKey(engine.db, leaked.id)).to.equal(true);
    expect(await authenticateKey(engine.db, leaked.key)).to.equal(null);
    expect(await authenticateKey(engine.db, kept.key)).to.deep.equal({ keyId: kept.id, accountId, disabledPacks: [] });
    expect((await listKeys(engine.db, accountId)).map((key) => key.id)).to.deep.equal([kept.id]);
    expect(await deleteKey(engine.db, leaked.id)).to.equal(false);
    expect(await deleteKey(engine.db, 'key_doesNotExist00')).to.equal(false);
  });

  it('records last use at most once a minute', async function () {
    const { id: accountId } = await createAccount(engine.db, { name: 'Last use', credits: 0 });
    const { id, key } = await createKey(engine.db, accountId);
    await authenticateKey(engine.db, key);
    const firstUse = await lastUsedAt(engine.db, accountId, id);
    expect(firstUse).to.match(ISO_TIMESTAMP);
    // Used half a minute ago: a use now changes nothing.
    await engine
      .db('api_keys')
      .where({ id })
      .update({ last_used_at: new Date(Date.parse(firstUse!) - 30_000) });
    const halfAMinuteAgo = await lastUsedAt(engine.db, accountId, id);
    await authenticateKey(engine.db, key);
    expect(await lastUsedAt(engine.db, accountId, id)).to.equal(halfAMinuteAgo);
    expect(Date.parse(halfAMinuteAgo!)).to.equal(Date.parse(firstUse!) - 30_000);

    const twoMinutesAgo = new Date(Date.now() - 120_000);
    await engine.db('api_keys').where({ id }).update({ last_used_at: twoMinutesAgo });
    await authenticateKey(engine.db, key);
    const refreshed = await lastUsedAt(engine.db, accountId, id);
    expect(Date.parse(refreshed ?? '')).to.be.greaterThan(twoMinutesAgo.getTime() + 60_000);
  });

  it('reports not_found for keys of an unknown account and invalid_input for an empty name', async function () {
    await expectLedgerError(createKey(engine.db, 'acc_doesNotExist00'), 'not_found');
    await expectLedgerError(listKeys(engine.db, 'acc_doesNotExist00'), 'not_found');
    const { id: accountId } = await createAccount(engine.db, { name: 'Names', credits: 0 });
    await expectLedgerError(createKey(engine.db, accountId, ' '), 'invalid_input');
  });
});

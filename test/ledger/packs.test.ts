import { expect } from 'chai';
import { PACK_IDS, createAccount, enabledPacks, getAccount, isPackEnabled, packSettings, setPackEnabled } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { expectLedgerError } from './ledger-assertions.ts';

describe('pack ids', function () {
  it('are the six disciplines of the spec', function () {
    expect(PACK_IDS).to.deep.equal(['general', 'life', 'chem', 'earth', 'astro', 'humanities']);
  });
});

describeOnEachEngine('discipline packs', (engine) => {
  it('switches every pack on for a new account', async function () {
    const { id } = await createAccount(engine.db, { name: 'Packs', credits: 0 });
    expect(await enabledPacks(engine.db, id)).to.deep.equal([...PACK_IDS]);
    for (const pack of PACK_IDS) expect(await isPackEnabled(engine.db, id, pack)).to.equal(true);
  });

  it('switches one pack off and on again, leaving the others on', async function () {
    const { id } = await createAccount(engine.db, { name: 'Chem off', credits: 0 });
    await setPackEnabled(engine.db, id, 'chem', false);
    await setPackEnabled(engine.db, id, 'chem', false);
    expect(await isPackEnabled(engine.db, id, 'chem')).to.equal(false);
    expect(await isPackEnabled(engine.db, id, 'life')).to.equal(true);
    expect(await enabledPacks(engine.db, id)).to.deep.equal(['general', 'life', 'earth', 'astro', 'humanities']);
    expect((await getAccount(engine.db, id))?.packs).to.deep.equal({
      general: true,
      life: true,
      chem: false,
      earth: true,
      astro: true,
      humanities: true,
    });

    await setPackEnabled(engine.db, id, 'chem', true);
    expect(await isPackEnabled(engine.db, id, 'chem')).to.equal(true);
    expect(await packSettings(engine.db, id)).to.deep.equal({
      general: true,
      life: true,
      chem: true,
      earth: true,
      astro: true,
      humanities: true,
    });
  });

  it('keeps each account’s packs to itself', async function () {
    const { id: off } = await createAccount(engine.db, { name: 'Astro off', credits: 0 });
    const { id: on } = await createAccount(engine.db, { name: 'Astro on', credits: 0 });
    await setPackEnabled(engine.db, off, 'astro', false);
    expect(await isPackEnabled(engine.db, off, 'astro')).to.equal(false);
    expect(await isPackEnabled(engine.db, on, 'astro')).to.equal(true);
  });

  it('reports invalid_input for an unknown pack and not_found for an unknown account', async function () {
    const { id } = await createAccount(engine.db, { name: 'Bad pack', credits: 0 });
    await expectLedgerError(setPackEnabled(engine.db, id, 'music', false), 'invalid_input');
    await expectLedgerError(isPackEnabled(engine.db, id, 'music'), 'invalid_input');
    await expectLedgerError(setPackEnabled(engine.db, 'acc_doesNotExist00', 'chem', false), 'not_found');
  });
});

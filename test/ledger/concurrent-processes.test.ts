import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { createAccount } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { countEntries, expectBalance } from './ledger-assertions.ts';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./fixtures/debit-worker.ts', import.meta.url));

describeOnEachEngine('credits: debits from several processes', (engine) => {
  it('lets exactly 50 of 4 × 50 debits from 4 processes through on an account holding 50', async function () {
    this.timeout(20_000);
    const { id } = await createAccount(engine.db, { name: 'Processes', credits: 50 });
    const outputs = await Promise.all(Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', worker, engine.url, id, '50'])));
    const succeeded = outputs.reduce((sum, { stdout }) => sum + Number(stdout.trim()), 0);
    expect(succeeded).to.equal(50);
    await expectBalance(engine.db, id, 0);
    expect(await countEntries(engine.db, id)).to.equal(51);
  });
});

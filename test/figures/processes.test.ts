import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, newCaller, type Answer } from '../support/server.ts';
import { fetchFile, ledgerKinds, pngSize, pollFigure, serverProcessesOf, temporaryFolder } from './helpers.ts';

const PRICE = 5;

describeOnEachEngine('figures across server processes', (engine) => {
  const start = serverProcessesOf(engine);

  it('a server stopped while a figure is pending has it finished by the next server after a restart', async function () {
    this.timeout(60_000);
    const filesDir = temporaryFolder();
    const caller = await newCaller(engine.db, 10);
    // The first server takes calls but renders nothing, so the figure is surely still pending when it stops.
    const first = await start({ FILES_DIR: filesDir, FIGURE_WORKERS: '0' });
    const created = await call(first.baseUrl, '/api/v1/create_figure', {
      key: caller.key,
      body: { description: 'Screening, then enrolment, then treatment, then follow-up', kind: 'workflow' },
    });
    expect(created.body.extra.status).to.equal('pending');
    await first.stop();

    const second = await start({ FILES_DIR: filesDir });
    const finished = await pollFigure(second.baseUrl, caller.key, created.body.extra.figure_id);
    expect(finished.body.extra).to.include({ status: 'finished', credits_used: PRICE });
    const png = Buffer.from(await (await fetchFile(second.baseUrl, finished.body.files[0].url)).arrayBuffer());
    expect(pngSize(png)).to.deep.equal({ width: 2560, height: 1440 });
    expect(await getBalance(engine.db, caller.accountId)).to.equal(10 - PRICE);
    expect(await ledgerSum(engine.db, caller.accountId)).to.equal(10 - PRICE);
  });

  it('a figure whose rendering process died is claimed again once its claim expires, and charged once', async function () {
    this.timeout(60_000);
    const filesDir = temporaryFolder();
    const caller = await newCaller(engine.db, 10);
    const first = await start({ FILES_DIR: filesDir, FIGURE_WORKERS: '0' });
    const created = await call(first.baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: 'A activates B, which inhibits C' } });
    await first.stop();
    // As a process that crashed mid-render leaves it: claimed, long ago, by an owner that is gone.
    await engine
      .db('figures')
      .where({ id: created.body.extra.figure_id })
      .update({ status: 'rendering', claimed_by: 'crashed-process', claimed_at: new Date(Date.now() - 10 * 60_000), attempts: 1 });

    const second = await start({ FILES_DIR: filesDir });
    const finished = await pollFigure(second.baseUrl, caller.key, created.body.extra.figure_id);
    expect(finished.body.extra).to.include({ status: 'finished', credits_used: PRICE });
    const row = await engine.db('figures').where({ id: created.body.extra.figure_id }).first('attempts');
    expect(Number(row.attempts)).to.equal(2);
    expect(await ledgerKinds(engine.db, created.body.call_id)).to.deep.equal([
      { kind: 'hold', amount: -PRICE },
      { kind: 'capture', amount: 0 },
    ]);
  });

  if (engine.name === 'mysql') {
    it('two server processes on one MySQL database render each figure exactly once', async function () {
      this.timeout(90_000);
      const filesDir = temporaryFolder();
      const caller = await newCaller(engine.db, 100);
      const servers = [await start({ FILES_DIR: filesDir, FIGURE_WORKERS: '2' }), await start({ FILES_DIR: filesDir, FIGURE_WORKERS: '2' })];
      // Created one after another, alternating servers (ten charged calls at once on one account may be
      // refused 503 on a loaded machine, which is not what this test is about); both runners then race to claim them.
      const created: Answer[] = [];
      for (let i = 0; i < 10; i += 1) {
        created.push(
          await call(servers[i % 2]!.baseUrl, '/api/v1/create_figure', {
            key: caller.key,
            body: { description: `Step ${i} input, then processing, then output` },
          }),
        );
      }
      expect(created.map((answer) => answer.status)).to.deep.equal(Array(10).fill(200));
      const ids = created.map((answer) => answer.body.extra.figure_id as string);
      for (const [i, id] of ids.entries()) {
        const finished = await pollFigure(servers[(i + 1) % 2]!.baseUrl, caller.key, id);
        expect(finished.body.extra.status).to.equal('finished');
      }
      const rows: Array<{ attempts: unknown }> = await engine.db('figures').whereIn('id', ids).select('attempts');
      expect(rows.map((row) => Number(row.attempts))).to.deep.equal(Array(10).fill(1));
      // Each render stores one new PNG and SVG: a figure rendered twice would leave more files.
      expect(await engine.db('figure_files').whereIn('figure_id', ids).pluck('mime_type')).to.have.length(20);
      for (const answer of created) expect((await ledgerKinds(engine.db, answer.body.call_id)).map((e) => e.kind)).to.deep.equal(['hold', 'capture']);
      expect(await getBalance(engine.db, caller.accountId)).to.equal(100 - 10 * PRICE);
      expect(await ledgerSum(engine.db, caller.accountId)).to.equal(100 - 10 * PRICE);
    });
  }
});

import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { FigureRenderer } from '../../src/figures/renderer.ts';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import {
  FailingRenderer,
  GatedRenderer,
  expectMatchesResultSchema,
  fetchFile,
  ledgerKinds,
  pngSize,
  pollFigure,
  svgTexts,
  temporaryFolder,
} from './helpers.ts';

const PRICE = 5;
const MECHANISM = 'TNF-α binds TNFR1, which recruits TRADD. TRADD activates the IKK complex, which phosphorylates IκBα; A20 inhibits the IKK complex.';

describeOnEachEngine('figures over HTTP', (engine) => {
  const filesDir = temporaryFolder();
  // Its own queue: other servers on a shared database never take this suite's figures.
  const queue = `test-${randomBytes(6).toString('hex')}`;
  let server: TestServer | undefined;

  async function serve(options: { waitMs: number; renderer?: FigureRenderer }): Promise<TestServer> {
    server = await startServer(engine.db, {
      rateLimitPerMinute: 100_000,
      env: { FIGURE_SYNC_WAIT_MS: String(options.waitMs), FILES_DIR: filesDir, FIGURE_QUEUE: queue },
      figureRenderer: options.renderer,
    });
    return server;
  }

  afterEach(async function () {
    await server?.close();
    server = undefined;
  });

  async function expectBalanceAndLedger(accountId: string, credits: number): Promise<void> {
    expect(await getBalance(engine.db, accountId), 'balance').to.equal(credits);
    expect(await ledgerSum(engine.db, accountId), 'sum of ledger entries').to.equal(credits);
  }

  it('when the image is ready within the wait, create_figure answers finished with a real PNG in the aspect ratio, every label in the SVG, and the price in extra', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const caller = await newCaller(engine.db, 20);
    const labels = ['TNF-α', 'IKK complex', 'Figure 1 <draft> & "final"'];
    const answer = await call(baseUrl, '/api/v1/create_figure', {
      key: caller.key,
      body: { description: MECHANISM, kind: 'mechanism', labels, aspect_ratio: '16:9' },
    });
    expect(answer.status).to.equal(200);
    expect(answer.body.credits_used).to.equal(0);
    expect(answer.body.extra).to.include({ status: 'finished', credits_used: PRICE, kind: 'mechanism', style: 'nature', aspect_ratio: '16:9' });
    expect(answer.body.extra.figure_id).to.match(/^fig_[A-Za-z0-9]{24}$/);
    expect(answer.body.files.map((file: { mimeType: string }) => file.mimeType)).to.deep.equal(['image/png', 'image/svg+xml']);
    expect(answer.body.files[0].url).to.match(/^https:\/\/api\.example\.test\/files\/[A-Za-z0-9]{32}\.png$/);
    expect(answer.body.records[0].data).to.include({
      status: 'finished',
      image_url: answer.body.files[0].url,
      credits_charged: PRICE,
      width: 2560,
      height: 1440,
    });
    await expectMatchesResultSchema('CreateFigure', answer.body);

    const png = await fetchFile(baseUrl, answer.body.files[0].url);
    expect(png.status).to.equal(200);
    expect(png.headers.get('content-type')).to.equal('image/png');
    expect(png.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    const { width, height } = pngSize(Buffer.from(await png.arrayBuffer()));
    expect([width, height]).to.deep.equal([2560, 1440]);
    expect(width * 9).to.equal(height * 16);

    const svg = await fetchFile(baseUrl, answer.body.files[1].url);
    expect(svg.headers.get('content-type')).to.equal('image/svg+xml');
    const texts = svgTexts(await svg.text());
    for (const label of labels) expect(texts, label).to.include(label);
    for (const entity of ['TNFR1', 'TRADD', 'IκBα', 'A20']) expect(texts).to.include(entity);
    await expectBalanceAndLedger(caller.accountId, 20 - PRICE);
  });

  it('draws each aspect ratio at its own size', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const caller = await newCaller(engine.db, 50);
    const sizes: Record<string, [number, number]> = { '4:3': [2400, 1800], '1:1': [2000, 2000], '3:4': [1800, 2400], '9:16': [1440, 2560] };
    for (const [ratio, size] of Object.entries(sizes)) {
      const answer = await call(baseUrl, '/api/v1/create_figure', {
        key: caller.key,
        body: { description: 'Recruitment, then randomisation, then follow-up', aspect_ratio: ratio },
      });
      const png = Buffer.from(await (await fetchFile(baseUrl, answer.body.files[0].url)).arrayBuffer());
      const { width, height } = pngSize(png);
      expect([width, height], ratio).to.deep.equal(size);
    }
  });

  it('a different style gives a different drawing', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const caller = await newCaller(engine.db, 20);
    const drawings: Array<{ svg: string; png: Buffer }> = [];
    for (const style of ['minimal_line', 'flat_color']) {
      const answer = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: MECHANISM, style } });
      expect(answer.body.extra.style).to.equal(style);
      const png = Buffer.from(await (await fetchFile(baseUrl, answer.body.files[0].url)).arrayBuffer());
      const svg = await (await fetchFile(baseUrl, answer.body.files[1].url)).text();
      drawings.push({ svg, png });
    }
    expect(drawings[0]!.svg).to.not.equal(drawings[1]!.svg);
    expect(drawings[0]!.png.equals(drawings[1]!.png)).to.equal(false);
    expect(drawings[0]!.svg).to.not.include('#2E86DE');
    expect(drawings[1]!.svg).to.include('#2E86DE');
  });

  it('reads a Mermaid flowchart exactly', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const caller = await newCaller(engine.db, 10);
    const description = 'flowchart LR\n  A[Raw reads] --> B(Quality control)\n  B -->|pass| C([Alignment])\n  B -- fail --> D[Discard]';
    const answer = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description, kind: 'workflow' } });
    expect(answer.body.extra.status).to.equal('finished');
    const texts = svgTexts(await (await fetchFile(baseUrl, answer.body.files[1].url)).text());
    for (const text of ['Raw reads', 'Quality control', 'Alignment', 'Discard', 'pass', 'fail']) expect(texts).to.include(text);
  });

  it('with FIGURE_SYNC_WAIT_MS=0, create answers pending, get_figure answers pending then finished, and the price is taken exactly once however often get_figure is called', async function () {
    const renderer = new GatedRenderer();
    const { baseUrl } = await serve({ waitMs: 0, renderer });
    const caller = await newCaller(engine.db, 12);
    const created = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: MECHANISM } });
    expect(created.status).to.equal(200);
    expect(created.body.credits_used).to.equal(0);
    expect(created.body.extra).to.include({ status: 'pending', credits_used: 0, poll_after_s: 30 });
    expect(created.body.files).to.equal(undefined);
    expect(created.body.summary).to.match(/still rendering; call get_figure with this figure_id again in about 30 seconds\.$/);
    const figureId = created.body.extra.figure_id as string;
    await expectMatchesResultSchema('CreateFigure', created.body);

    const pending = await call(baseUrl, '/api/v1/get_figure', { key: caller.key, body: { figure_id: figureId } });
    expect(pending.status).to.equal(200);
    expect(pending.body.credits_used).to.equal(0);
    expect(pending.body.extra).to.include({ figure_id: figureId, status: 'pending', credits_used: 0, poll_after_s: 30 });
    expect(pending.body.summary).to.match(/still rendering; call get_figure with this figure_id again in about 30 seconds\.$/);
    await expectMatchesResultSchema('GetFigure', pending.body);
    // The price is held, not yet charged: it has left the balance and comes back if rendering fails.
    await expectBalanceAndLedger(caller.accountId, 12 - PRICE);

    renderer.release();
    const finished = await pollFigure(baseUrl, caller.key, figureId);
    expect(finished.body.credits_used).to.equal(0);
    expect(finished.body.extra).to.include({ figure_id: figureId, status: 'finished', credits_used: PRICE });
    expect(finished.body.files[0].url).to.match(/\/files\/[A-Za-z0-9]{32}\.png$/);
    await expectMatchesResultSchema('GetFigure', finished.body);
    for (let i = 0; i < 4; i++) {
      const again = await call(baseUrl, '/api/v1/get_figure', { key: caller.key, body: { figure_id: figureId } });
      expect(again.body.extra.credits_used).to.equal(PRICE);
      expect(again.body.files[0].url).to.equal(finished.body.files[0].url);
    }
    await expectBalanceAndLedger(caller.accountId, 12 - PRICE);
    expect(await ledgerKinds(engine.db, created.body.call_id)).to.deep.equal([
      { kind: 'hold', amount: -PRICE },
      { kind: 'capture', amount: 0 },
    ]);
    expect(renderer.renders).to.equal(1);
  });

  it('a render failure leaves the balance unchanged: the held price is released', async function () {
    const { baseUrl } = await serve({ waitMs: 0, renderer: new FailingRenderer() });
    const caller = await newCaller(engine.db, 9);
    const created = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: MECHANISM } });
    expect(created.body.extra.status).to.equal('pending');
    const failed = await pollFigure(baseUrl, caller.key, created.body.extra.figure_id);
    expect(failed.status).to.equal(200);
    expect(failed.body.extra).to.include({ status: 'failed', credits_used: 0 });
    expect(failed.body.extra.message).to.equal('the image could not be rendered: simulated renderer fault; nothing was charged');
    await expectMatchesResultSchema('GetFigure', failed.body);
    await expectBalanceAndLedger(caller.accountId, 9);
    expect(await ledgerKinds(engine.db, created.body.call_id)).to.deep.equal([
      { kind: 'hold', amount: -PRICE },
      { kind: 'release', amount: PRICE },
    ]);
  });

  it('a render failure during the wait answers 502 and charges nothing', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000, renderer: new FailingRenderer() });
    const caller = await newCaller(engine.db, 9);
    const answer = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: MECHANISM } });
    expect(answer.status).to.equal(502);
    expect(answer.body.error.code).to.equal('upstream_error');
    expect(answer.body.error.message).to.match(
      /^figure fig_\w+ could not be rendered \(the image could not be rendered: simulated renderer fault\); nothing was charged$/,
    );
    await expectBalanceAndLedger(caller.accountId, 9);
  });

  it('answers 402 at call time when the balance is below the price, for create and edit alike', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const caller = await newCaller(engine.db, PRICE + 3);
    const created = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: 'A activates B' } });
    expect(created.body.extra.status).to.equal('finished');
    const again = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: 'A activates B' } });
    expect(again.status).to.equal(402);
    expect(again.body.error).to.deep.equal({
      code: 'insufficient_credits',
      message: 'a figure costs 5 credits, charged when its image is finished; the account holds 3',
    });
    const edit = await call(baseUrl, '/api/v1/edit_figure', {
      key: caller.key,
      body: { figure_id: created.body.extra.figure_id, instruction: 'use the cell style' },
    });
    expect(edit.status).to.equal(402);
    await expectBalanceAndLedger(caller.accountId, 3);
  });

  it("an unknown figure_id and another account's give the same 400 naming figure_id", async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const owner = await newCaller(engine.db, 10);
    const stranger = await newCaller(engine.db, 10);
    const created = await call(baseUrl, '/api/v1/create_figure', { key: owner.key, body: { description: 'A activates B' } });
    const id = created.body.extra.figure_id as string;
    const unknownId = `fig_${'x'.repeat(24)}`;
    for (const tool of ['get_figure', 'edit_figure']) {
      const body = tool === 'edit_figure' ? { instruction: 'use the cell style' } : {};
      const foreign = await call(baseUrl, `/api/v1/${tool}`, { key: stranger.key, body: { figure_id: id, ...body } });
      const unknown = await call(baseUrl, `/api/v1/${tool}`, { key: stranger.key, body: { figure_id: unknownId, ...body } });
      expect(foreign.status).to.equal(400);
      expect(unknown.status).to.equal(400);
      expect(foreign.body.error).to.deep.equal({ code: 'invalid_input', message: `figure_id: no figure "${id}" belongs to this account` });
      expect(unknown.body.error.message.replace(unknownId, id)).to.equal(foreign.body.error.message);
    }
    await expectBalanceAndLedger(stranger.accountId, 10);
  });

  it('edit_figure makes a new figure linked to its parent and keeps the original', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const caller = await newCaller(engine.db, 20);
    const created = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: MECHANISM, kind: 'mechanism' } });
    const parentId = created.body.extra.figure_id as string;
    const edited = await call(baseUrl, '/api/v1/edit_figure', {
      key: caller.key,
      body: { figure_id: parentId, instruction: 'rename TRADD to TRADD adaptor and use the cell style' },
    });
    expect(edited.status).to.equal(200);
    expect(edited.body.credits_used).to.equal(0);
    expect(edited.body.extra).to.include({ parent_figure_id: parentId, status: 'finished', credits_used: PRICE, style: 'cell', kind: 'mechanism' });
    expect(edited.body.extra.figure_id).to.not.equal(parentId);
    await expectMatchesResultSchema('EditFigure', edited.body);
    expect(edited.body.records[0].data).to.include({ parent_figure_id: parentId, instruction: 'rename TRADD to TRADD adaptor and use the cell style' });
    const texts = svgTexts(await (await fetchFile(baseUrl, edited.body.files[1].url)).text());
    expect(texts).to.include('TRADD adaptor');

    const editedAgain = await call(baseUrl, '/api/v1/get_figure', { key: caller.key, body: { figure_id: edited.body.extra.figure_id } });
    expect(editedAgain.body.records[0].data).to.include({ parent_figure_id: parentId, instruction: 'rename TRADD to TRADD adaptor and use the cell style' });
    const original = await call(baseUrl, '/api/v1/get_figure', { key: caller.key, body: { figure_id: parentId } });
    expect(original.body.extra).to.include({ status: 'finished', style: 'nature' });
    expect(original.body.files[0].url).to.equal(created.body.files[0].url);
    expect((await fetchFile(baseUrl, created.body.files[0].url)).status).to.equal(200);
    await expectBalanceAndLedger(caller.accountId, 20 - 2 * PRICE);
  });

  it('an instruction edit_figure cannot understand is a 400 that lists what it can do, and charges nothing', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    const caller = await newCaller(engine.db, 10);
    const created = await call(baseUrl, '/api/v1/create_figure', { key: caller.key, body: { description: 'A activates B' } });
    const answer = await call(baseUrl, '/api/v1/edit_figure', {
      key: caller.key,
      body: { figure_id: created.body.extra.figure_id, instruction: 'make it pop more' },
    });
    expect(answer.status).to.equal(400);
    expect(answer.body.error.code).to.equal('invalid_input');
    expect(answer.body.error.message).to.match(
      /^instruction: could not understand "make it pop more"\. edit_figure understands, one or two per call: add an entity/,
    );
    for (const phrase of [
      'remove an entity',
      'rename an entity',
      'add a relationship',
      'remove a relationship',
      'change the style',
      'change the kind',
      'change the aspect ratio',
      'add or remove a label',
      'highlight an entity',
      'recolour an entity',
    ]) {
      expect(answer.body.error.message).to.include(phrase);
    }
    await expectBalanceAndLedger(caller.accountId, 10 - PRICE);
  });

  it('serves only existing files, with JSON errors otherwise', async function () {
    const { baseUrl } = await serve({ waitMs: 60_000 });
    for (const path of [`/files/${'a'.repeat(32)}.png`, '/files/..%2Fsecret.png', '/files/short.png']) {
      const answer = await call(baseUrl, path);
      expect(answer.status, path).to.equal(404);
      expect(answer.body.error.code).to.equal('not_found');
    }
  });
});

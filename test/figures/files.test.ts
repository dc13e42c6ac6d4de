import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { FileStore, FileTooLargeError, MAX_FILE_BYTES, insertFiles, newFileToken } from '../../src/figures/files.ts';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { call, newCaller } from '../support/server.ts';
import { fetchFile, pngSize, pollFigure, serverProcessesOf, temporaryFolder } from './helpers.ts';

const PRICE = 5;

describeOnEachEngine('figure files stored in the database', (engine) => {
  const start = serverProcessesOf(engine);

  async function createFigure(baseUrl: string, key: string, description: string): Promise<{ figureId: string; callId: string }> {
    const created = await call(baseUrl, '/api/v1/create_figure', { key, body: { description } });
    expect(created.status).to.equal(200);
    return { figureId: created.body.extra.figure_id, callId: created.body.call_id };
  }

  it("a figure rendered by one process (one machine's cache) is served by another process with its own cache: same bytes, type, length and entity tag", async function () {
    this.timeout(60_000);
    const caller = await newCaller(engine.db, 10);
    const renderingCache = temporaryFolder();
    const otherCache = temporaryFolder();
    const rendering = await start({ FILES_DIR: renderingCache, FIGURE_WORKERS: '1' });
    const other = await start({ FILES_DIR: otherCache, FIGURE_WORKERS: '0' });

    const { figureId } = await createFigure(rendering.baseUrl, caller.key, 'Sample collection, then sequencing, then assembly');
    const finished = await pollFigure(rendering.baseUrl, caller.key, figureId);
    expect(finished.body.extra.status).to.equal('finished');
    const [pngUrl, svgUrl] = finished.body.files.map((file: { url: string }) => file.url) as [string, string];

    const fromRendering = Buffer.from(await (await fetchFile(rendering.baseUrl, pngUrl)).arrayBuffer());
    const fromOther = await fetchFile(other.baseUrl, pngUrl);
    expect(fromOther.status).to.equal(200);
    expect(fromOther.headers.get('content-type')).to.equal('image/png');
    const otherBytes = Buffer.from(await fromOther.arrayBuffer());
    expect(fromOther.headers.get('content-length')).to.equal(String(otherBytes.length));
    expect(otherBytes.equals(fromRendering)).to.equal(true);
    expect(pngSize(otherBytes)).to.deep.equal({ width: 2400, height: 1800 });
    const name = new URL(pngUrl).pathname.slice('/files/'.length);
    expect(fromOther.headers.get('etag')).to.equal(`"${name}"`);
    expect(fromOther.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');

    const svg = await fetchFile(other.baseUrl, svgUrl);
    expect(svg.status).to.equal(200);
    expect(svg.headers.get('content-type')).to.equal('image/svg+xml');
    expect(await svg.text()).to.match(/^<svg/);
    // The other process kept a copy in its own cache once it had served the file.
    expect(readdirSync(otherCache).sort()).to.deep.equal([name, new URL(svgUrl).pathname.slice('/files/'.length)].sort());
  });

  it('serves HEAD with the length and no body, answers 304 to a matching If-None-Match, and 404 JSON for an unknown token', async function () {
    this.timeout(60_000);
    const caller = await newCaller(engine.db, 10);
    const server = await start({ FILES_DIR: 'off', FIGURE_WORKERS: '1' });
    const { figureId } = await createFigure(server.baseUrl, caller.key, 'Input, then output');
    const finished = await pollFigure(server.baseUrl, caller.key, figureId);
    const pngUrl = new URL(finished.body.files[0].url);
    const stored: { size: unknown } = await engine
      .db('figure_files')
      .where({ name: pngUrl.pathname.slice('/files/'.length) })
      .first('size');

    const head = await fetch(`${server.baseUrl}${pngUrl.pathname}`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-length')).to.equal(String(stored.size));
    expect((await head.arrayBuffer()).byteLength).to.equal(0);

    const etag = head.headers.get('etag')!;
    const revalidated = await fetch(`${server.baseUrl}${pngUrl.pathname}`, { headers: { 'if-none-match': etag } });
    expect(revalidated.status).to.equal(304);

    const unknown = await call(server.baseUrl, `/files/${newFileToken()}.png`);
    expect(unknown.status).to.equal(404);
    expect(unknown.body.error.code).to.equal('not_found');
  });

  it('a rendering process killed right after a figure is marked finished never leaves a finished figure without its files', async function () {
    this.timeout(90_000);
    const caller = await newCaller(engine.db, 100);
    const rendering = await start({ FILES_DIR: 'off', FIGURE_WORKERS: '1' });
    const figures = [];
    for (let i = 0; i < 4; i++) figures.push(await createFigure(rendering.baseUrl, caller.key, `Step ${i} input, then processing, then output`));
    const ids = figures.map((figure) => figure.figureId);
    // Killed the moment the first figure is seen finished: the next may be mid-transaction.
    for (;;) {
      const done = await engine.db('figures').whereIn('id', ids).andWhere({ status: 'finished' }).first('id');
      if (done) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await rendering.kill();

    const finishedRows: Array<{ id: string; file_token: string }> = await engine
      .db('figures')
      .whereIn('id', ids)
      .andWhere({ status: 'finished' })
      .select('id', 'file_token');
    expect(finishedRows.length).to.be.greaterThan(0);
    for (const row of finishedRows) {
      const names = await engine.db('figure_files').where({ figure_id: row.id }).orderBy('name').pluck('name');
      expect(names, row.id).to.deep.equal([`${row.file_token}.png`, `${row.file_token}.svg`]);
    }

    // A process started afterwards finishes the rest (once their claims expire) and serves every file.
    await engine
      .db('figures')
      .whereIn('id', ids)
      .andWhere({ status: 'rendering' })
      .update({ claimed_at: new Date(Date.now() - 10 * 60_000) });
    const next = await start({ FILES_DIR: 'off', FIGURE_WORKERS: '1' });
    for (const { figureId } of figures) {
      const finished = await pollFigure(next.baseUrl, caller.key, figureId);
      expect(finished.body.extra.status).to.equal('finished');
      for (const file of finished.body.files) expect((await fetchFile(next.baseUrl, file.url)).status).to.equal(200);
    }
    expect(await getBalance(engine.db, caller.accountId)).to.equal(100 - 4 * PRICE);
    expect(await ledgerSum(engine.db, caller.accountId)).to.equal(100 - 4 * PRICE);
  });

  it('moves the files an older version kept in FILES_DIR into the database at start-up, and their old URLs keep working from any process', async function () {
    this.timeout(60_000);
    const legacy = temporaryFolder();
    const token = newFileToken();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(200)]);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>old</text></svg>';
    writeFileSync(path.join(legacy, `${token}.png`), png);
    writeFileSync(path.join(legacy, `${token}.svg`), svg);
    writeFileSync(path.join(legacy, 'notes.txt'), 'not a figure file');

    const upgraded = await start({ FILES_DIR: legacy, FIGURE_WORKERS: '0' });
    const elsewhere = await start({ FILES_DIR: 'off', FIGURE_WORKERS: '0' });
    rmSync(legacy, { recursive: true, force: true });

    for (const server of [upgraded, elsewhere]) {
      const answer = await fetch(`${server.baseUrl}/files/${token}.png`);
      expect(answer.status).to.equal(200);
      expect(Buffer.from(await answer.arrayBuffer()).equals(png)).to.equal(true);
      const svgAnswer = await fetch(`${server.baseUrl}/files/${token}.svg`);
      expect(await svgAnswer.text()).to.equal(svg);
    }
    expect(await engine.db('figure_files').where('name', 'like', `${token}.%`).orderBy('name').pluck('name')).to.deep.equal([`${token}.png`, `${token}.svg`]);
  });

  it('refuses at write a file over the size bound, storing nothing', async function () {
    const token = newFileToken();
    let refusal: unknown;
    try {
      await insertFiles(engine.db, null, [
        { name: `${token}.svg`, content: Buffer.from('<svg/>') },
        { name: `${token}.png`, content: Buffer.alloc(MAX_FILE_BYTES + 1) },
      ]);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).to.be.instanceOf(FileTooLargeError);
    expect((refusal as Error).message).to.equal(`the file ${token}.png is ${MAX_FILE_BYTES + 1} bytes; a figure file may have at most ${MAX_FILE_BYTES} bytes`);
    expect(await new FileStore(engine.db).read(`${token}.svg`)).to.equal(undefined);
  });

  it('reads a file from the database when the cache folder is empty or missing, and fills the cache', async function () {
    const token = newFileToken();
    const content = randomBytes(64);
    await insertFiles(engine.db, null, [{ name: `${token}.png`, content }]);
    const cache = path.join(temporaryFolder(), 'not-yet-made');
    const store = new FileStore(engine.db, cache);
    const read = await store.read(`${token}.png`);
    expect(read?.mimeType).to.equal('image/png');
    expect(read?.content.equals(content)).to.equal(true);
    expect(readdirSync(cache)).to.deep.equal([`${token}.png`]);
    mkdirSync(cache, { recursive: true });
    expect((await store.read(`${token}.png`))?.content.equals(content)).to.equal(true);
    expect(await store.read('../../etc/passwd')).to.equal(undefined);
  });
});

import { expect } from 'chai';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { loadConfig } from '../../src/config.ts';
import { createUpstreamClient, UpstreamClient } from '../../src/upstream/client.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { AnswerRecorder, type RecordedAnswer } from '../../src/upstream/recorder.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';

describe('recording upstream answers for tests (UPSTREAM_RECORD_DIR)', () => {
  let fake: FakeUpstream;
  let folder: string;
  let client: UpstreamClient;
  before(async () => {
    fake = await startFakeUpstream();
  });
  after(async () => {
    await fake.close();
  });
  beforeEach(() => {
    fake.reset();
    folder = mkdtempSync(join(tmpdir(), 'research-tools-recordings-'));
    const source = { url: fake.url, timeoutMs: 2000 };
    client = new UpstreamClient({
      sources: { FRED: { ...source, key: 'secret-key-123' }, BLS: source },
      cache: new MemoryCache(),
      retry: { baseDelayMs: 5 },
      recorder: new AnswerRecorder(folder),
    });
  });
  afterEach(async () => {
    await client.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const index = (): RecordedAnswer[] =>
    readFileSync(join(folder, 'index.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as RecordedAnswer);
  const body = (answer: RecordedAnswer) => readFileSync(join(folder, answer.file), 'utf8');

  it('writes an answer as it was read, with its request (the key left out), status and headers', async () => {
    const answer = { seriess: [{ id: 'GDP', title: 'Gross Domestic Product' }] };
    fake.on('/series/search', json(answer));
    await client.getJson('fred', { path: '/series/search', searchParams: { search_text: 'gdp' }, key: { query: 'api_key' } });
    const [recorded] = index();
    expect(recorded!.file).to.match(/^fred\/\d{8}T\d{6}Z-\d+-1\.json$/);
    expect({ ...recorded, file: undefined, headers: undefined, recordedAt: undefined }).to.deep.equal({
      file: undefined,
      source: 'fred',
      method: 'GET',
      url: `${fake.url}/series/search?search_text=gdp`,
      status: 200,
      headers: undefined,
      recordedAt: undefined,
      bytes: Buffer.byteLength(JSON.stringify(answer)),
    });
    expect(recorded!.headers['content-type']).to.equal('application/json; charset=utf-8');
    expect(JSON.parse(body(recorded!))).to.deep.equal(answer);
    expect(readFileSync(join(folder, 'index.jsonl'), 'utf8')).not.to.include('secret-key-123');
  });

  it('names what a POST sent', async () => {
    fake.on('/timeseries/data/', json({ status: 'REQUEST_SUCCEEDED', Results: { series: [] } }));
    await client.getJson('bls', { path: '/timeseries/data/', json: { seriesid: ['CUUR0000SA0'], startyear: '2020' } });
    expect(index().map(({ method, url, json }) => ({ method, url, json }))).to.deep.equal([
      { method: 'POST', url: `${fake.url}/timeseries/data/`, json: { seriesid: ['CUUR0000SA0'], startyear: '2020' } },
    ]);
  });

  it('records error answers too: each attempt of a retried 503, then the 404', async () => {
    fake.on('/series/search', { status: 503, body: 'busy', contentType: 'text/plain' });
    const error = await client.getJson('fred', { path: '/series/search', key: { query: 'api_key' } }).catch((reason: unknown) => reason);
    expect((error as UpstreamError).kind).to.equal('http_error');
    fake.on('/series/search', { status: 404, body: 'no such series', contentType: 'text/plain' });
    await client.getJson('fred', { path: '/series/search', searchParams: { n: 2 }, key: { query: 'api_key' } }).catch(() => undefined);
    expect(index().map((recorded) => [recorded.status, body(recorded), recorded.file.endsWith('.txt')])).to.deep.equal([
      [503, 'busy', true],
      [503, 'busy', true],
      [503, 'busy', true],
      [404, 'no such series', true],
    ]);
  });

  it('writes an answer read as it streams piece by piece, byte for byte', async () => {
    const list = `series_id\tseries_title\n${Array.from({ length: 20_000 }, (_, n) => `CES${n}\tÉmployés ${n} — ✓\n`).join('')}`;
    fake.on('/labstat/ce/ce.series', { body: list, contentType: 'text/plain' });
    let pieces = 0;
    await client.readText('bls', { baseUrl: `${fake.url}/labstat`, path: '/ce/ce.series', maxBodyBytes: 16 * 1024 ** 2 }, () => {
      pieces += 1;
    });
    const [recorded] = index();
    expect([pieces > 1, body(recorded!) === list, recorded!.bytes, recorded!.url]).to.deep.equal([
      true,
      true,
      Buffer.byteLength(list),
      `${fake.url}/labstat/ce/ce.series`,
    ]);
  });

  it("is the app's client's when UPSTREAM_RECORD_DIR is set, and off when it is not", async () => {
    fake.on('/series/search', json({ seriess: [] }));
    const ask = async (env: Record<string, string>) => {
      const app = createUpstreamClient(loadConfig({ SOURCE_FRED_URL: fake.url, SOURCE_FRED_KEY: 'k-1', ...env }));
      await app.getJson('fred', { path: '/series/search', key: { query: 'api_key' } });
      await app.close();
    };
    await ask({});
    expect(readdirSync(folder)).to.deep.equal([]);
    await ask({ UPSTREAM_RECORD_DIR: folder });
    expect(index().map((recorded) => [recorded.source, recorded.url, body(recorded)])).to.deep.equal([['fred', `${fake.url}/series/search`, '{"seriess":[]}']]);
  });

  it('never fails a call when it cannot write: the folder cannot be made', async () => {
    writeFileSync(join(folder, 'not-a-folder'), '');
    const unwritable = new UpstreamClient({
      sources: { FRED: { url: fake.url, key: 'k-1' } },
      cache: new MemoryCache(),
      recorder: new AnswerRecorder(join(folder, 'not-a-folder', 'recordings')),
    });
    fake.on('/series/search', json({ seriess: [] }));
    const answer = await unwritable.getJson('fred', { path: '/series/search', key: { query: 'api_key' } });
    await unwritable.close();
    expect([answer.body, readdirSync(folder)]).to.deep.equal([{ seriess: [] }, ['not-a-folder']]);
  });

  it('leaves nothing of an answer that broke off while it streamed', async () => {
    fake.on('/labstat/ce/ce.series', { body: 'x\n'.repeat(200_000), contentType: 'text/plain' });
    const read = client.readText('bls', { baseUrl: `${fake.url}/labstat`, path: '/ce/ce.series', maxBodyBytes: 16 * 1024 ** 2 }, () => {
      throw new Error('the taker gave up');
    });
    expect(((await read.catch((reason: unknown) => reason)) as Error).message).to.equal('the taker gave up');
    expect([readdirSync(join(folder, 'bls')), readdirSync(folder).includes('index.jsonl')]).to.deep.equal([[], false]);
  });
});

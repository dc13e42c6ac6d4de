/**
 * A catalogue read is shared by the calls of a process that need it while it is read (and its
 * refresh runs in the background after the call that started it has answered): so it goes on with
 * the admission of the call that started it, but not with that call's fate. A call cancelled, or
 * refused its credits, does not fail another call waiting for the same catalogue.
 */
import { expect } from 'chai';
import { blsCatalogue } from '../../src/connectors/bls-catalogue.ts';
import { ApiError } from '../../src/errors.ts';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { recording } from '../connectors/recordings.ts';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';

const LISTS = { ce: 'labstat-ce-series-first-999.tsv', cu: 'labstat-cu-series-first-100.tsv', ln: 'labstat-ln-series-first-6.tsv' };

describe('a catalogue read shared by several calls', () => {
  let fake: FakeUpstream;
  let client: UpstreamClient;
  before(async () => {
    fake = await startFakeUpstream();
  });
  after(async () => fake.close());
  beforeEach(() => {
    fake.reset();
    for (const [survey, file] of Object.entries(LISTS))
      fake.on(`/bls/labstat/${survey}/${survey}.series`, { body: recording('bls', file), contentType: 'text/plain', delayMs: 50 });
    client = new UpstreamClient({ sources: { BLS: { url: `${fake.url}/bls`, timeoutMs: 5000 } }, cache: new MemoryCache() });
  });
  afterEach(async () => client.close());
  const downloads = () => Object.keys(LISTS).map((survey) => fake.hitsOn(`/bls/labstat/${survey}/${survey}.series`).length);

  it('goes on when the call that started it is cancelled: another call waiting for it gets the catalogue', async () => {
    const cancel = new AbortController();
    const first = blsCatalogue(client.forCall(undefined, cancel.signal), new Map());
    const second = blsCatalogue(client.forCall(undefined, new AbortController().signal), new Map());
    first.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    cancel.abort();
    const catalogue = await second;
    expect([catalogue.index.size, catalogue.seriesOf('CES0500000003')?.title, downloads()]).to.deep.equal([
      1105,
      'Average hourly earnings of all employees, total private, seasonally adjusted',
      [1, 1, 1],
    ]);
  });

  it('a call refused its credits fails alone: another call waiting for the same catalogue reads it itself', async () => {
    const refusal = new ApiError('insufficient_credits', 'find_series costs 1 credit; the account holds 0');
    let refuse!: () => void;
    const refused = new Promise<void>((_, reject) => (refuse = () => reject(refusal)));
    const first = blsCatalogue(client.forCall(refused), new Map());
    const second = blsCatalogue(client.forCall(Promise.resolve()), new Map());
    refuse();
    const outcomes = await Promise.allSettled([first, second]);
    expect(outcomes[0]).to.deep.equal({ status: 'rejected', reason: refusal });
    expect(outcomes[1]!.status === 'fulfilled' && outcomes[1].value.index.size).to.equal(1105);
    expect(downloads()).to.deep.equal([1, 1, 1]);
  });
});

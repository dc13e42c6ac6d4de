import { expect } from 'chai';
import { ApiError } from '../../src/errors.ts';
import { assemble, compact, fanOut, makeRecord } from '../../src/tools/result.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';

const upstream = new UpstreamClient({ sources: {} });

describe('result assembly', () => {
  it('a record has the fields of part 2.3 in order, licence and attribution from the manifest, and no null or undefined field', () => {
    const record = makeRecord(upstream, 'oeis', {
      nativeId: 'A000045',
      type: 'integer_sequence',
      title: 'Fibonacci',
      url: undefined,
      retrievedAt: '2026-01-01T00:00:00.000Z',
      data: { a_number: 'A000045', offset: undefined, author: null },
    });
    expect(record).to.deep.equal({
      id: 'oeis:A000045',
      type: 'integer_sequence',
      source: 'oeis',
      title: 'Fibonacci',
      license: 'CC-BY-SA-4.0',
      attribution: 'OEIS Foundation Inc., The On-Line Encyclopedia of Integer Sequences (oeis.org), CC BY-SA 4.0',
      retrievedAt: '2026-01-01T00:00:00.000Z',
      data: { a_number: 'A000045' },
    });
    expect(Object.keys(record)).to.deep.equal(['id', 'type', 'source', 'title', 'license', 'attribution', 'retrievedAt', 'data']);
  });
  it('when some sources fail and others answer, the outcome is partial and names the failed sources (rule 7.2)', async () => {
    const fan = await fanOut<string>([
      { source: 'openalex', run: async () => 'ok' },
      {
        source: 'pubmed',
        run: async () => {
          throw new UpstreamError('pubmed', 'timeout', 'pubmed did not answer within 15000 ms');
        },
      },
    ]);
    expect(assemble(fan, [], 'Nothing.')).to.deep.equal({
      summary: 'Nothing.',
      records: [],
      partial: true,
      failedSources: [{ source: 'pubmed', error: 'pubmed did not answer within 15000 ms' }],
    });
  });
  it('when every source answers, partial and failedSources are omitted', async () => {
    const fan = await fanOut([{ source: 'oeis', run: async () => 1 }]);
    expect(Object.keys(assemble(fan, [], 'One.'))).to.deep.equal(['summary', 'records']);
  });
  it('when no source answers, it is a 502 upstream_error listing every reason', async () => {
    const unexpected: string[] = [];
    const fan = await fanOut(
      [
        {
          source: 'gaia',
          run: async () => {
            throw new UpstreamError('gaia', 'http_error', 'gaia answered HTTP 500', 500);
          },
        },
        {
          source: 'simbad',
          run: async () => {
            throw new TypeError('secret internals');
          },
        },
      ],
      (source) => unexpected.push(source),
    );
    expect(() => assemble(fan, [], 'x'))
      .to.throw(ApiError)
      .with.property('message', 'no source answered: gaia answered HTTP 500; simbad gave an answer that could not be read');
    expect(unexpected).to.deep.equal(['simbad']);
  });
  it('compact drops undefined and null, keeps zero, false and empty strings', () => {
    expect(compact({ a: 0, b: false, c: '', d: null, e: undefined })).to.deep.equal({ a: 0, b: false, c: '' });
  });
});

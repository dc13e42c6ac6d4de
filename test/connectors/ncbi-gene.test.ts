import { expect } from 'chai';
import { parseGeneSummaries } from '../../src/connectors/ncbi-gene.ts';
import { parseSearch } from '../../src/connectors/ncbi-eutils.ts';
import { UpstreamError } from '../../src/upstream/errors.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('ncbi-gene', file));

describeRecordings('ncbi-gene', () => {
  it('reads esearch counts and ids given as strings', () => {
    expect(parseSearch('ncbi-gene', read('esearch-gene-term-ENSG00000172009-one-hit.json'))).to.deep.equal({ count: 1, ids: ['7064'] });
    expect(parseSearch('ncbi-gene', read('esearch-gene-term-PCH3-two-hits.json'))).to.deep.equal({ count: 2, ids: ['27445', '373073'] });
  });
  it('reads "No items found" (HTTP 200 with an errorlist) as zero hits, not a failure', () => {
    expect(parseSearch('ncbi-gene', read('esearch-gene-term-CDDG1-zero-hits.json'))).to.deep.equal({ count: 0, ids: [] });
  });
  it('reads THOP1 with its exact fields; aliases split from one string', () => {
    expect(parseGeneSummaries(read('esummary-gene-7064-THOP1.json'))).to.deep.equal([
      {
        geneId: '7064',
        symbol: 'THOP1',
        name: 'thimet oligopeptidase 1',
        aliases: ['EP24.15', 'MEPD_HUMAN', 'MP78', 'TOP'],
        summary:
          'The protein encoded by this gene is a kininase that uses zinc as a cofactor. The encoded oligopeptidase cleaves cytosolic peptides, making them unavailable for display on antigen-presenting cells. This protein also cleaves neuropeptides under 20 aa in length and can degrade beta-amyloid precursor protein to amyloidogenic peptides. [provided by RefSeq, Nov 2015]',
        chromosome: '19',
        mapLocation: '19p13.3',
        organism: 'Homo sapiens',
        taxonId: 9606,
        status: undefined,
      },
    ]);
  });
  it('keeps the uids order and falls back to name when there is no official symbol (CLAM, empty summary omitted)', () => {
    const genes = parseGeneSummaries(read('esummary-gene-27445-373073-PCLO-CLAM.json'));
    expect(genes.map((gene) => [gene.geneId, gene.symbol, gene.mapLocation])).to.deep.equal([
      ['27445', 'PCLO', '7q21.11'],
      ['373073', 'CLAM', '7q11-q21'],
    ]);
    expect(genes[1]).to.deep.include({ name: 'cerebellar atrophy with progressive microcephaly', aliases: ['PCH3'], summary: undefined });
  });
  it('turns an error reported with HTTP 200 into an upstream error with its words', () => {
    expect(() => parseGeneSummaries(read('esummary-gene-invalid-uid-error-http200.json'))).to.throw(
      UpstreamError,
      'ncbi-gene reported an error: Invalid uid OR11-86 at position= 0',
    );
  });
});

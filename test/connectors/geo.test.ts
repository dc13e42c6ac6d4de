import { expect } from 'chai';
import { parseSeriesSummaries, seriesTerm } from '../../src/connectors/geo.ts';
import { parseSearch } from '../../src/connectors/ncbi-eutils.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('geo', file));

describeRecordings('geo', () => {
  it('reads the pretty-printed esearch answer', () => {
    expect(parseSearch('geo', read('esearch-gds-GSE93374-accession.json'))).to.deep.equal({ count: 13, ids: ['200093374'] });
  });
  it('reads the GSE93374 series with platform, organism, sample count and date', () => {
    expect(parseSeriesSummaries(read('esummary-gds-200093374-GSE93374.json'))).to.deep.equal([
      {
        accession: 'GSE93374',
        title: 'A Molecular Census of Arcuate Hypothalamus and Median Eminence Cell Types',
        summary:
          'Drop-seq and single cell sequencing of mouse arcuate nucleus and median eminence. Please see below link for searchable cluster-based gene expression.',
        organisms: ['Mus musculus'],
        sampleCount: 11,
        platforms: ['GPL19057'],
        experimentType: 'Expression profiling by high throughput sequencing',
        publicationDate: '2017-01-31',
      },
    ]);
  });
});

describe('geo connector', () => {
  it('limits the search to series and to an organism, with field tags the words cannot change', () => {
    expect(seriesTerm('arcuate [orgn] "nucleus"', 'Mus musculus')).to.equal('(arcuate orgn nucleus) AND gse[ETYP] AND "Mus musculus"[orgn]');
  });
});

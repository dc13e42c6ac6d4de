import { expect } from 'chai';
import { parsePartners } from '../../src/connectors/string.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('string', file));

describeRecordings('string', () => {
  it('reads the PGGT1B partners, highest combined score first', () => {
    const partners = parsePartners(read('interaction-partners-PGGT1B-9606-limit10.json'));
    expect(partners.map(({ partner, score }) => [partner, score])).to.deep.equal([
      ['FNTA', 0.999],
      ['HEYL', 0.768],
      ['RABGGTA', 0.767],
      ['CCDC112', 0.72],
      ['WTIP', 0.692],
      ['AMMECR1L', 0.676],
      ['FNTB', 0.553],
      ['RAP1A', 0.521],
      ['CDC42', 0.502],
      ['HRAS', 0.497],
    ]);
    expect(partners[0]!.stringId).to.equal('9606.ENSP00000303423');
  });
  it('reads rows whose taxon id is a string (network endpoint) the same way', () => {
    expect(parsePartners(read('network-BRAF-9606-limit15-first5rows.json')).map(({ partner, score }) => [partner, score])).to.deep.equal([
      ['NRAS', 0.642],
      ['KRAS', 0.604],
      ['HRAS', 0.549],
      ['MAP2K2', 0.471],
      ['MAP2K1', 0.456],
    ]);
  });
});

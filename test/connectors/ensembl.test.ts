import { expect } from 'chai';
import { parseGene } from '../../src/connectors/ensembl.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { reasonFromBody } from '../../src/upstream/body.ts';
import { describeRecordings, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('ensembl', file));

describeRecordings('ensembl', () => {
  it('reads the BRCA2 symbol lookup with the HGNC id taken out of the description', () => {
    expect(parseGene(read('lookup-symbol-homo_sapiens-BRCA2.json'))).to.deep.equal({
      id: 'ENSG00000139618',
      version: 19,
      symbol: 'BRCA2',
      description: 'BRCA2 DNA repair associated',
      hgncId: 'HGNC:1101',
      biotype: 'protein_coding',
      species: 'homo_sapiens',
      chromosome: '13',
      start: 32315086,
      end: 32400268,
      strand: 1,
      canonicalTranscript: 'ENST00000380152.8',
    });
  });
  it('reads the PGGT1B id lookup (expand=1, sorted keys) the same way', () => {
    expect(parseGene(read('lookup-id-ENSG00000164219-PGGT1B-expand1.json'))).to.deep.include({
      id: 'ENSG00000164219',
      version: 11,
      symbol: 'PGGT1B',
      hgncId: 'HGNC:8895',
      chromosome: '5',
      strand: -1,
      canonicalTranscript: 'ENST00000419445.6',
    });
  });
  it('reads the POST lookup member of the one symbol it knows', () => {
    const body = read('lookup-symbol-POST-human-symbols-BRCA2-BR.json') as Record<string, unknown>;
    expect(Object.keys(body)).to.deep.equal(['BRCA2']);
    expect(parseGene(body.BRCA2).species).to.equal('human');
  });
  it('has the reason of the 400 for an unknown symbol, which the connector reads as "not found"', () => {
    expect(reasonFromBody('application/json', recording('ensembl', 'lookup-symbol-homo_sapiens-BR-error-400.json'))).to.equal(
      'No valid lookup found for symbol BR',
    );
  });
});

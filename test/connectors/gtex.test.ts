import { expect } from 'chai';
import { parseGenes, parseMedians, pickGene } from '../../src/connectors/gtex.ts';
import { reasonFromBody } from '../../src/upstream/body.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('gtex', file));

describeRecordings('gtex', () => {
  it('resolves CFTR to the versioned GENCODE v26 id', () => {
    const genes = parseGenes(read('reference-gene-cftr-v26.json'));
    expect(pickGene(genes, 'cftr')).to.deep.equal({
      gencodeId: 'ENSG00000001626.14',
      symbol: 'CFTR',
      description: 'cystic fibrosis transmembrane conductance regulator',
      chromosome: 'chr7',
      geneType: 'protein coding',
    });
    expect(pickGene(genes, 'ENSG00000001626')!.gencodeId).to.equal('ENSG00000001626.14');
  });
  it('reads an unknown gene (200 with empty data) as not resolved', () => {
    expect(pickGene(parseGenes(read('reference-gene-not-found-empty.json')), 'NOTAGENE123')).to.equal(undefined);
  });
  it('does not take a pseudogene found by a search for another symbol', () => {
    expect(pickGene(parseGenes(read('reference-geneSearch-crp-itemsPerPage1.json')), 'CRP')).to.equal(undefined);
  });
  it('sorts CFTR median TPM highest first over all 54 tissues', () => {
    const tissues = parseMedians(read('median-gene-expression-cftr-gtex_v8.json'));
    expect(tissues).to.have.length(54);
    expect(tissues.slice(0, 3)).to.deep.equal([
      { tissue_id: 'Pancreas', ontology_id: 'UBERON:0001150', median_tpm: 65.792 },
      { tissue_id: 'Colon_Transverse', ontology_id: 'UBERON:0001157', median_tpm: 17.316 },
      { tissue_id: 'Minor_Salivary_Gland', ontology_id: 'UBERON:0006330', median_tpm: 9.91875 },
    ]);
    expect(tissues.at(-1)).to.deep.equal({ tissue_id: 'Whole_Blood', ontology_id: 'UBERON:0013756', median_tpm: 0 });
  });
  it('has the reason of a 422 validation error', () => {
    expect(reasonFromBody('application/json', recording('gtex', 'reference-gene-error-422-invalid-page.json'))).to.equal(undefined);
  });
});

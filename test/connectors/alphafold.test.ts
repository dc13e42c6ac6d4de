import { expect } from 'chai';
import { pickModel } from '../../src/connectors/alphafold.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

describeRecordings('alphafold', () => {
  const body = () => parseJsonKeepingBigIntegers(recording('alphafold', 'prediction-P05067-all-isoforms-v6.json'));
  it('picks the canonical model of the accession (the third of ten isoform entries), never the first', () => {
    expect(pickModel(body(), 'P05067')).to.deep.equal({
      entryId: 'AF-P05067-F1',
      accession: 'P05067',
      gene: 'APP',
      description: 'Amyloid-beta precursor protein',
      organism: 'Homo sapiens',
      taxonId: 9606,
      meanPlddt: 67.38,
      version: 6,
      createdDate: '2025-08-01',
      cifUrl: 'https://alphafold.ebi.ac.uk/files/AF-P05067-F1-model_v6.cif',
      pdbUrl: 'https://alphafold.ebi.ac.uk/files/AF-P05067-F1-model_v6.pdb',
      paeImageUrl: 'https://alphafold.ebi.ac.uk/files/AF-P05067-F1-predicted_aligned_error_v6.png',
    });
  });
  it('picks an isoform by its own accession, and nothing for an accession not in the answer', () => {
    expect([pickModel(body(), 'P05067-2')!.entryId, pickModel(body(), 'P05067-2')!.meanPlddt]).to.deep.equal(['AF-P05067-2-F1', 74.75]);
    expect(pickModel(body(), 'P69905')).to.equal(undefined);
  });
});

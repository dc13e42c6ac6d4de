import { expect } from 'chai';
import { decimal, parseMechanisms, parseMolecules, parseTarget } from '../../src/connectors/chembl.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('chembl', file));

describeRecordings('chembl', () => {
  it('reads the pembrolizumab mechanism (max_phase an integer here)', () => {
    expect(parseMechanisms(read('mechanism-molecule-CHEMBL3137343-pembrolizumab.json'))).to.deep.equal([
      { mechanismOfAction: 'Programmed cell death protein 1 inhibitor', actionType: 'INHIBITOR', targetChemblId: 'CHEMBL3307223', maxPhase: 4 },
    ]);
  });
  it('reads the PGGT1B target with its UniProt accession', () => {
    expect(parseTarget(read('target-CHEMBL4135.json'))).to.deep.equal({
      chemblId: 'CHEMBL4135',
      name: 'Geranylgeranyl transferase type-1 subunit beta',
      type: 'SINGLE PROTEIN',
      organism: 'Homo sapiens',
      accessions: ['P53609'],
    });
  });
});

describe('chembl connector', () => {
  it('reads max_phase and weights sent as decimal strings (hand-made molecule list, documented format)', () => {
    const [molecule] = parseMolecules(JSON.parse(fixture('chembl', 'hand-made-molecule-search-aspirin.json')));
    expect(molecule).to.deep.equal({
      chemblId: 'CHEMBL25',
      name: 'ASPIRIN',
      maxPhase: 4,
      moleculeType: 'Small molecule',
      formula: 'C9H8O4',
      molecularWeight: 180.16,
      parentChemblId: 'CHEMBL25',
      firstApproval: 1950,
      blackBoxWarning: false,
      synonyms: ['ASPIRIN', 'Acetylsalicylic acid'],
    });
    expect([decimal('0.5'), decimal('-1'), decimal(null), decimal(4)]).to.deep.equal([0.5, undefined, undefined, 4]);
  });
});

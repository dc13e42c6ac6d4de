import { expect } from 'chai';
import { parsePathway, parsePathways } from '../../src/connectors/reactome.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

describeRecordings('reactome', () => {
  it('reads the Pathway object of the real /data/query answer', () => {
    expect(parsePathway(parseJsonKeepingBigIntegers(recording('reactome', 'data-query-R-HSA-5673001-minimized.json')))).to.deep.equal({
      id: 'R-HSA-5673001',
      name: 'RAF/MAP kinase cascade',
      url: 'https://reactome.org/content/detail/R-HSA-5673001',
      species: 'Homo sapiens',
      inDisease: undefined,
    });
  });
});

describe('reactome connector', () => {
  it('reads the documented mapping list (hand-made fixture), one pathway per stable id', () => {
    expect(parsePathways(JSON.parse(fixture('reactome', 'hand-made-mapping-uniprot-P53609-pathways.json')))).to.deep.equal([
      {
        id: 'R-HSA-9990001',
        name: 'Hand-made pathway one',
        url: 'https://reactome.org/content/detail/R-HSA-9990001',
        species: 'Homo sapiens',
        inDisease: false,
      },
      {
        id: 'R-HSA-9990002',
        name: 'Hand-made pathway two',
        url: 'https://reactome.org/content/detail/R-HSA-9990002',
        species: 'Homo sapiens',
        inDisease: false,
      },
    ]);
  });
});

import { expect } from 'chai';
import { parseEntries } from '../../src/connectors/interpro.ts';
import { fixture } from './recordings.ts';

// InterPro has no shared recording (its README says so): the fixture is hand-made from the documented format.
describe('interpro connector', () => {
  it('reads entries with one row per matching fragment, in sequence order', () => {
    expect(parseEntries(JSON.parse(fixture('interpro', 'hand-made-entry-interpro-protein-uniprot-P53609.json')))).to.deep.equal([
      { accession: 'IPR045089', name: 'PGGT1B-like', type: 'family', start: 1, end: 377 },
      { accession: 'IPR001330', name: 'Prenyltransferase, alpha-alpha toroid', type: 'domain', start: 102, end: 146 },
      { accession: 'IPR001330', name: 'Prenyltransferase, alpha-alpha toroid', type: 'domain', start: 150, end: 194 },
    ]);
  });
  it('reads the 204 of an empty result (null body) as no entries', () => {
    expect(parseEntries(null)).to.deep.equal([]);
  });
});

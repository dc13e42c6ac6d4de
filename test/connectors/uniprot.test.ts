import { expect } from 'chai';
import { parseEntry, parseSearch } from '../../src/connectors/uniprot.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('uniprot', file));

describeRecordings('uniprot', () => {
  it('reads the BRAF search result: accession, names, function, length and PDB cross-references', () => {
    const [entry, ...rest] = parseSearch(read('search-BRAF-human-reviewed-minimized.json'));
    expect(rest).to.deep.equal([]);
    expect({ ...entry!, pdb: entry!.pdb.slice(0, 2) }).to.deep.equal({
      accession: 'P15056',
      entryName: 'BRAF_HUMAN',
      reviewed: true,
      proteinName: 'Serine/threonine-protein kinase B-raf',
      geneSymbol: 'BRAF',
      geneSynonyms: ['BRAF1', 'RAFB1'],
      organism: 'Homo sapiens',
      taxonId: 9606,
      function: 'Protein kinase involved in the transduction of mitogenic signals from the cell membrane to the nucleus.',
      length: 766,
      domains: [],
      ncbiGeneIds: [],
      ensemblGeneIds: [],
      hgncId: undefined,
      stringId: undefined,
      pdb: [
        { pdbId: '1UWH', method: 'X-ray', resolution: '2.95 A', chains: 'A/B=448-723' },
        { pdbId: '1UWJ', method: 'X-ray', resolution: '3.50 A', chains: 'A/B=448-723' },
      ],
    });
    expect(entry!.pdb.find((ref) => ref.pdbId === '2L05')).to.deep.equal({ pdbId: '2L05', method: 'NMR', resolution: undefined, chains: 'A=149-232' });
  });
  it('reads the full P05067 entry: cross-references to NCBI Gene, Ensembl (unversioned), HGNC and STRING, and its Domain features', () => {
    const entry = parseEntry(read('entry-P05067-APP-human-swissprot.json'))!;
    expect([
      entry.accession,
      entry.proteinName,
      entry.geneSymbol,
      entry.length,
      entry.ncbiGeneIds,
      entry.ensemblGeneIds,
      entry.hgncId,
      entry.stringId,
    ]).to.deep.equal(['P05067', 'Amyloid-beta precursor protein', 'APP', 770, ['351'], ['ENSG00000142192'], 'HGNC:620', '9606.ENSP00000284981']);
    expect(entry.domains).to.deep.equal([
      { name: 'E1', start: 28, end: 189 },
      { name: 'BPTI/Kunitz inhibitor', start: 291, end: 341 },
      { name: 'E2', start: 374, end: 565 },
    ]);
    expect(entry.function).to.match(/^Functions as a cell surface receptor and performs physiological functions on the surface of neurons /);
    expect(entry.pdb.slice(0, 2).map((ref) => [ref.pdbId, ref.method, ref.resolution])).to.deep.equal([
      ['1AAP', 'X-ray', '1.50 A'],
      ['1AMB', 'NMR', undefined],
    ]);
  });
  it('reads the glucose search (full entries with facets) as two entries', () => {
    expect(parseSearch(read('search-query-glucose-size2-with-facets.json')).map((entry) => entry.accession)).to.deep.equal(['P13866', 'P19926']);
  });
});

describe('uniprot connector', () => {
  it('leaves out an inactive (obsolete) accession', () => {
    expect(parseEntry({ primaryAccession: 'Q00000', entryType: 'Inactive', inactiveReason: { inactiveReasonType: 'DELETED' } })).to.equal(undefined);
  });
});

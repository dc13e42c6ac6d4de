import { expect } from 'chai';
import { chebiId, parseCompound, parseSearch } from '../../src/connectors/chebi.ts';
import { chebiIdIn, parseCids, parseProperties, parseSynonyms, queryKind } from '../../src/connectors/pubchem.ts';
import { reasonFromBody } from '../../src/upstream/body.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { describeRecordings, fixture, recording } from './recordings.ts';

const read = (file: string) => parseJsonKeepingBigIntegers(recording('pubchem', file));

describeRecordings('pubchem', () => {
  it('reads the pre-2025 property table of triclosan and aspirin: weights from strings, old SMILES names', () => {
    expect(parseProperties(read('property-table-cid-5564-2244-all-properties.json'))).to.deep.equal([
      {
        cid: 5564,
        title: undefined,
        iupacName: '5-chloro-2-(2,4-dichlorophenoxy)phenol',
        formula: 'C12H7Cl3O2',
        molecularWeight: 289.5,
        smiles: 'C1=CC(=C(C=C1Cl)O)OC2=C(C=C(C=C2)Cl)Cl',
        connectivitySmiles: 'C1=CC(=C(C=C1Cl)O)OC2=C(C=C(C=C2)Cl)Cl',
        inchi: 'InChI=1S/C12H7Cl3O2/c13-7-1-3-11(9(15)5-7)17-12-4-2-8(14)6-10(12)16/h1-6,16H',
        inchikey: 'XEFQLINVKFYRCS-UHFFFAOYSA-N',
        xlogp: 5,
        hBondDonorCount: 1,
        hBondAcceptorCount: 2,
        tpsa: 29.5,
      },
      {
        cid: 2244,
        title: undefined,
        iupacName: '2-acetyloxybenzoic acid',
        formula: 'C9H8O4',
        molecularWeight: 180.16,
        smiles: 'CC(=O)OC1=CC=CC=C1C(=O)O',
        connectivitySmiles: 'CC(=O)OC1=CC=CC=C1C(=O)O',
        inchi: 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
        inchikey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N',
        xlogp: 1.2,
        hBondDonorCount: 1,
        hBondAcceptorCount: 4,
        tpsa: 63.6,
      },
    ]);
  });

  it('reads a two-property table; absent properties stay absent', () => {
    const [row] = parseProperties(read('property-table-cid-5564-formula-weight.json'));
    expect(Object.fromEntries(Object.entries(row!).filter(([, value]) => value !== undefined))).to.deep.equal({
      cid: 5564,
      formula: 'C12H7Cl3O2',
      molecularWeight: 289.5,
    });
  });

  it("reads aspirin's synonyms, capped, and finds the ChEBI id among all of them", () => {
    const capped = parseSynonyms(read('synonyms-name-aspirin.json'));
    expect([capped.cid, capped.synonyms.length, capped.synonyms.slice(0, 3)]).to.deep.equal([2244, 20, ['aspirin', 'ACETYLSALICYLIC ACID', '50-78-2']]);
    const all = parseSynonyms(read('synonyms-name-aspirin.json'), Number.POSITIVE_INFINITY).synonyms;
    expect([all.length, chebiIdIn(all)]).to.deep.equal([477, 'CHEBI:15365']);
  });
});

describe('pubchem connector', () => {
  it('reads the 2025 property names (SMILES, ConnectivitySMILES) and Title (hand-made table, documented format)', () => {
    const [row] = parseProperties(JSON.parse(fixture('pubchem', 'hand-made-properties-2025-cid-3672.json')));
    expect([row!.title, row!.smiles, row!.connectivitySmiles, row!.molecularWeight]).to.deep.equal([
      'Ibuprofen',
      'CC(C)CC1=CC=C(C=C1)C(C)C(=O)O',
      'CC(C)CC1=CC=C(C=C1)C(C)C(=O)O',
      206.28,
    ]);
  });

  it('reads a CID list, and a fault body gives its code and message as the reason', () => {
    expect(parseCids(JSON.parse(fixture('pubchem', 'hand-made-cids-name-ibuprofen.json')))).to.deep.equal([3672, 39912, 3031484]);
    expect(reasonFromBody('application/json', fixture('pubchem', 'hand-made-fault-not-found.json'))).to.equal('PUGREST.NotFound: No CID found');
    expect(() => parseCids(JSON.parse(fixture('pubchem', 'hand-made-fault-not-found.json')))).to.throw(
      'pubchem answered without a CID list: PUGREST.NotFound: No CID found (No CID found that matches the given name)',
    );
  });

  it('tells CIDs, InChIKeys, SMILES, CAS numbers and names apart', () => {
    expect(
      ['2244', 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N', 'CC(=O)OC1=CC=CC=C1C(=O)O', 'CCO', 'c1ccccc1', '50-78-2', 'aspirin', 'acetylsalicylic acid', 'Cobalt'].map(
        queryKind,
      ),
    ).to.deep.equal(['cid', 'inchikey', 'smiles', 'smiles', 'smiles', 'name', 'name', 'name', 'name']);
  });
});

describe('chebi connector (ChEBI 2.0 REST; hand-made bodies in its documented format, no recording exists)', () => {
  it('reads a compound with its definition and roles', () => {
    expect(parseCompound(JSON.parse(fixture('chebi', 'hand-made-compound-CHEBI-5855-ibuprofen.json')))).to.deep.equal({
      chebiId: 'CHEBI:5855',
      name: 'ibuprofen',
      definition:
        'A monocarboxylic acid that is propionic acid in which one of the hydrogens at position 2 is substituted by a 4-(2-methylpropyl)phenyl group. A non-steroidal anti-inflammatory drug.',
      inchikey: 'HEFNNWSXXWATRW-UHFFFAOYSA-N',
      roles: ['non-steroidal anti-inflammatory drug', 'analgesic', 'antipyretic'],
    });
  });

  it('reads search hits and normalises ids', () => {
    expect(parseSearch(JSON.parse(fixture('chebi', 'hand-made-es-search-inchikey-ibuprofen.json')))).to.deep.equal([
      { chebiId: 'CHEBI:5855', name: 'ibuprofen', inchikey: 'HEFNNWSXXWATRW-UHFFFAOYSA-N' },
      { chebiId: 'CHEBI:141409', name: 'ibuprofen sodium', inchikey: 'VYXZMUVBYFWMKB-UHFFFAOYSA-M' },
    ]);
    expect([chebiId('15365'), chebiId('chebi:15365'), chebiId(15365), chebiId('x')]).to.deep.equal(['CHEBI:15365', 'CHEBI:15365', 'CHEBI:15365', undefined]);
  });
});

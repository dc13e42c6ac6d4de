import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { json } from '../support/fake-upstream.ts';
import { down, expectCharged, expectNotCharged, sourcesHarness, own, recorded } from '../life/support.ts';

describeOnEachEngine('lookup_compound over HTTP', (engine) => {
  const chem = sourcesHarness(engine, ['pubchem', 'chebi'] as const);
  const ibuprofenProperties =
    '/pug/compound/cid/3672/property/Title,IUPACName,MolecularFormula,MolecularWeight,SMILES,ConnectivitySMILES,InChI,InChIKey,XLogP,HBondDonorCount,HBondAcceptorCount,TPSA/JSON';

  function servePubchem(): void {
    chem.on('pubchem', '/pug/compound/name/cids/JSON', own('pubchem', 'hand-made-cids-name-ibuprofen.json'));
    chem.on('pubchem', ibuprofenProperties, own('pubchem', 'hand-made-properties-2025-cid-3672.json'));
    chem.on('pubchem', '/pug/compound/cid/3672/synonyms/JSON', own('pubchem', 'hand-made-synonyms-cid-3672.json'));
  }

  it('joins PubChem properties and synonyms with the ChEBI definition and roles; an ambiguous name says which CID was chosen and why', async () => {
    servePubchem();
    chem.on('chebi', '/compound/CHEBI:5855/', own('chebi', 'hand-made-compound-CHEBI-5855-ibuprofen.json'));
    const result = await chem.charged('lookup_compound', { query: 'ibuprofen' });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect({ ...record, retrievedAt: undefined }).to.deep.equal({
      id: 'pubchem:3672',
      type: 'compound',
      source: 'pubchem',
      title: 'Ibuprofen',
      url: 'https://pubchem.ncbi.nlm.nih.gov/compound/3672',
      license: 'public domain (US government); PUG View annotations carry depositor licences',
      attribution: 'PubChem, National Center for Biotechnology Information',
      retrievedAt: undefined,
      data: {
        pubchem_cid: 3672,
        name: 'Ibuprofen',
        iupac_name: '2-[4-(2-methylpropyl)phenyl]propanoic acid',
        formula: 'C13H18O2',
        molecular_weight: 206.28,
        smiles: 'CC(C)CC1=CC=C(C=C1)C(C)C(=O)O',
        connectivity_smiles: 'CC(C)CC1=CC=C(C=C1)C(C)C(=O)O',
        inchi: 'InChI=1S/C13H18O2/c1-9(2)8-11-4-6-12(7-5-11)10(3)13(14)15/h4-7,9-10H,8H2,1-3H3,(H,14,15)',
        inchikey: 'HEFNNWSXXWATRW-UHFFFAOYSA-N',
        xlogp: 3.5,
        h_bond_donor_count: 1,
        h_bond_acceptor_count: 2,
        tpsa: 37.3,
        synonyms: ['ibuprofen', '15687-27-1', 'Advil', 'Motrin', 'Nurofen', '2-(4-Isobutylphenyl)propanoic acid', 'CHEBI:5855'],
        image_url: 'https://pubchem.ncbi.nlm.nih.gov/rest/pug/compound/cid/3672/PNG',
        chebi_id: 'CHEBI:5855',
        definition:
          'A monocarboxylic acid that is propionic acid in which one of the hydrogens at position 2 is substituted by a 4-(2-methylpropyl)phenyl group. A non-steroidal anti-inflammatory drug.',
        roles: ['non-steroidal anti-inflammatory drug', 'analgesic', 'antipyretic'],
      },
    });
    expect(result.answer.body.summary).to.equal(
      'Ibuprofen: PubChem CID 3672 (C13H18O2, 206.28 g/mol, CHEBI:5855). "ibuprofen" matches 3 PubChem compounds (CIDs 3672, 39912, 3031484); CID 3672 was chosen because PubChem lists it first, as its best match.',
    );
    const resolve = chem.hits('pubchem', '/pug/compound/name/cids/JSON')[0]!;
    expect([resolve.method, resolve.body]).to.deep.equal(['POST', 'name=ibuprofen']);
  });

  it('a CID is used as it is; the ChEBI entry is found by InChIKey when PubChem lists no ChEBI id', async () => {
    chem.on('pubchem', ibuprofenProperties, own('pubchem', 'hand-made-properties-2025-cid-3672.json'));
    chem.on('pubchem', '/pug/compound/cid/3672/synonyms/JSON', json({ InformationList: { Information: [{ CID: 3672, Synonym: ['ibuprofen'] }] } }));
    chem.on('chebi', '/es_search/', own('chebi', 'hand-made-es-search-inchikey-ibuprofen.json'));
    chem.on('chebi', '/compound/CHEBI:5855/', own('chebi', 'hand-made-compound-CHEBI-5855-ibuprofen.json'));
    const result = await chem.charged('lookup_compound', { query: '3672' });
    expectCharged(result);
    expect(result.answer.body.records[0].data.chebi_id).to.equal('CHEBI:5855');
    expect(chem.hits('chebi', '/es_search/')[0]!.query.get('term')).to.equal('HEFNNWSXXWATRW-UHFFFAOYSA-N');
    expect(chem.hits('pubchem', '/pug/compound/name/cids/JSON')).to.have.length(0);
    expect(result.answer.body.summary).to.equal('Ibuprofen: PubChem CID 3672 (C13H18O2, 206.28 g/mol, CHEBI:5855).');
  });

  it('reads the pre-2025 recorded property table (aspirin among two compounds) and the recorded synonyms', async () => {
    chem.on(
      'pubchem',
      '/pug/compound/cid/2244/property/Title,IUPACName,MolecularFormula,MolecularWeight,SMILES,ConnectivitySMILES,InChI,InChIKey,XLogP,HBondDonorCount,HBondAcceptorCount,TPSA/JSON',
      recorded('pubchem', 'property-table-cid-5564-2244-all-properties.json'),
    );
    chem.on('pubchem', '/pug/compound/cid/2244/synonyms/JSON', recorded('pubchem', 'synonyms-name-aspirin.json'));
    chem.on('chebi', '/compound/CHEBI:15365/', { status: 404, body: '{"detail":"No Compound matches the given query."}' });
    const result = await chem.charged('lookup_compound', { query: '2244' });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.molecular_weight, data.smiles, data.synonyms.length, data.chebi_id, data.definition, result.answer.body.records[0].title]).to.deep.equal([
      180.16,
      'CC(=O)OC1=CC=CC=C1C(=O)O',
      20,
      undefined,
      undefined,
      'CID 2244',
    ]);
  });

  it('when ChEBI fails the PubChem record still comes: partial, failedSources names what is missing', async () => {
    servePubchem();
    chem.on('chebi', '/compound/CHEBI:5855/', down);
    const result = await chem.charged('lookup_compound', { query: 'ibuprofen' });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'chebi', error: 'chebi answered HTTP 503: service unavailable; missing from the answer: ChEBI definition and roles' },
    ]);
    expect([result.answer.body.records[0].data.formula, result.answer.body.records[0].data.definition]).to.deep.equal(['C13H18O2', undefined]);
  });

  it('a name PubChem does not know is an empty answer, charged; its fault is not an error', async () => {
    chem.on('pubchem', '/pug/compound/name/cids/JSON', own('pubchem', 'hand-made-fault-not-found.json', { status: 404 }));
    const result = await chem.charged('lookup_compound', { query: 'no such compound' });
    expectCharged(result);
    expect([result.answer.body.records, result.answer.body.summary]).to.deep.equal([[], 'No PubChem compound matches "no such compound".']);
  });

  it("is a 502 keeping PubChem's reason, not charged, when PubChem fails", async () => {
    chem.on('pubchem', '/pug/compound/name/cids/JSON', {
      status: 503,
      body: '{"Fault":{"Code":"PUGREST.ServerBusy","Message":"Too many requests or server too busy"}}',
      contentType: 'application/json',
      headers: { 'retry-after': '0' },
    });
    const result = await chem.charged('lookup_compound', { query: 'ibuprofen' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal(
      'no source answered: pubchem answered HTTP 503: PUGREST.ServerBusy: Too many requests or server too busy; missing from the answer: the compound',
    );
  });

  it('refuses digits that are no CID (0, or more than 15 digits) with a 400 naming the field, before any upstream request or charge', async () => {
    for (const query of ['0', '000', '999999999999999999999']) {
      const result = await chem.charged('lookup_compound', { query });
      expectNotCharged(result, 400, 'invalid_input');
      expect(result.answer.body.error.message).to.equal('query: digits alone are a PubChem CID: a whole number from 1 to 999999999999999');
    }
    expect(chem.fake.hits).to.have.length(0);
  });

  it('a CID query with PubChem down is a 502, not charged: a CID taken as it is does not count as an answer of PubChem', async () => {
    chem.on('pubchem', ibuprofenProperties, down);
    chem.on('pubchem', '/pug/compound/cid/3672/synonyms/JSON', down);
    const result = await chem.charged('lookup_compound', { query: '3672' });
    expectNotCharged(result);
    expect(chem.hits('chebi', '/es_search/')).to.have.length(0);
  });

  it('a CID PubChem does not know is an empty answer, without a record or a call to ChEBI', async () => {
    const unknownProperties = ibuprofenProperties.replace('/3672/', '/999999999/');
    chem.on('pubchem', unknownProperties, own('pubchem', 'hand-made-fault-not-found.json', { status: 404 }));
    chem.on('pubchem', '/pug/compound/cid/999999999/synonyms/JSON', own('pubchem', 'hand-made-fault-not-found.json', { status: 404 }));
    const result = await chem.charged('lookup_compound', { query: '999999999' });
    expectCharged(result);
    expect([result.answer.body.records, result.answer.body.summary]).to.deep.equal([[], 'No PubChem compound has CID 999999999.']);
    expect(chem.fake.hits.filter((hit) => hit.path.startsWith('/chebi'))).to.have.length(0);
  });

  it('rejects an empty query, naming the field', async () => {
    const result = await chem.charged('lookup_compound', { query: '' });
    expectNotCharged(result, 400, 'invalid_input');
    expect(result.answer.body.error.message).to.match(/^query: /);
  });
});

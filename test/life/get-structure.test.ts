import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, lifeHarness, own, recorded } from './support.ts';

describeOnEachEngine('get_structure over HTTP', (engine) => {
  const life = lifeHarness(engine);
  const notFound = { status: 404, body: '{"detail":"Not found"}', contentType: 'application/json' };

  it('by UniProt accession: experimental entries from the RCSB search and data APIs, then the AlphaFold model of that accession (not the first isoform)', async () => {
    life.on('rcsb-pdb', '/rcsbsearch/v2/query', own('rcsb-pdb', 'hand-made-search-P05067-two-entries.json'));
    life.on('rcsb-pdb', '/graphql', own('rcsb-pdb', 'hand-made-graphql-entries-1AMB-1AAP.json'));
    life.on('alphafold', '/prediction/P05067', recorded('alphafold', 'prediction-P05067-all-isoforms-v6.json'));
    const result = await life.charged('get_structure', { id: 'P05067', limit: 5 });
    expectCharged(result);
    const [first, second, model] = result.answer.body.records;
    expect({ ...first, retrievedAt: undefined }).to.deep.equal({
      id: 'rcsb-pdb:1AAP',
      type: 'structure',
      source: 'rcsb-pdb',
      title: '1AAP: HAND-MADE TEST ENTRY: X-RAY STRUCTURE OF THE KUNITZ DOMAIN OF AMYLOID BETA-PROTEIN PRECURSOR',
      url: 'https://www.rcsb.org/structure/1AAP',
      license: 'CC0-1.0',
      attribution: 'RCSB PDB (rcsb.org), CC0',
      retrievedAt: undefined,
      data: {
        kind: 'experimental',
        pdb_id: '1AAP',
        title: 'HAND-MADE TEST ENTRY: X-RAY STRUCTURE OF THE KUNITZ DOMAIN OF AMYLOID BETA-PROTEIN PRECURSOR',
        method: 'X-RAY DIFFRACTION',
        resolution_angstrom: 1.5,
        release_date: '1991-10-15',
        organisms: ['Homo sapiens'],
        uniprot_accessions: ['P05067'],
        mmcif_url: 'https://files.rcsb.org/download/1AAP.cif',
        pdb_url: 'https://files.rcsb.org/download/1AAP.pdb',
      },
    });
    expect(Object.keys(second.data)).to.deep.equal([
      'kind',
      'pdb_id',
      'title',
      'method',
      'release_date',
      'organisms',
      'uniprot_accessions',
      'mmcif_url',
      'pdb_url',
    ]);
    expect({ ...model, retrievedAt: undefined }).to.deep.equal({
      id: 'alphafold:AF-P05067-F1',
      type: 'structure',
      source: 'alphafold',
      title: 'AF-P05067-F1: predicted model of Amyloid-beta precursor protein',
      url: 'https://alphafold.ebi.ac.uk/entry/P05067',
      license: 'CC-BY-4.0',
      attribution: 'AlphaFold DB (EMBL-EBI / Google DeepMind), CC BY 4.0',
      retrievedAt: undefined,
      data: {
        kind: 'predicted',
        title: 'Amyloid-beta precursor protein',
        organisms: ['Homo sapiens'],
        uniprot_accessions: ['P05067'],
        mmcif_url: 'https://alphafold.ebi.ac.uk/files/AF-P05067-F1-model_v6.cif',
        pdb_url: 'https://alphafold.ebi.ac.uk/files/AF-P05067-F1-model_v6.pdb',
        model_id: 'AF-P05067-F1',
        mean_plddt: 67.38,
        model_version: 6,
        model_created_date: '2025-08-01',
      },
    });
    expect(result.answer.body.summary).to.equal('2 experimental structures and 1 predicted model for P05067.');
    const search = JSON.parse(life.hits('rcsb-pdb', '/rcsbsearch/v2/query')[0]!.query.get('json')!);
    expect(search.query.nodes[0].parameters).to.deep.equal({
      attribute: 'rcsb_polymer_entity_container_identifiers.reference_sequence_identifiers.database_accession',
      operator: 'exact_match',
      value: 'P05067',
    });
    expect(search.request_options).to.deep.equal({ paginate: { start: 0, rows: 5 } });
    expect(life.hits('rcsb-pdb', '/graphql')[0]!.query.get('query')).to.match(
      /^\{entries\(entry_ids:\["1AAP","1AMB"\]\)\{rcsb_id struct\{title\} exptl\{method\} /,
    );
  });

  it("by PDB id: the entry and the models of its chains' accessions; an accession without a model is no model, not a failure", async () => {
    life.on('rcsb-pdb', '/graphql', own('rcsb-pdb', 'hand-made-graphql-entry-4HHB.json'));
    life.on('alphafold', '/prediction/P69905', notFound);
    life.on('alphafold', '/prediction/P68871', notFound);
    const result = await life.charged('get_structure', { id: '4hhb' });
    expectCharged(result);
    expect(result.answer.body.records.map((record: { id: string }) => record.id)).to.deep.equal(['rcsb-pdb:4HHB']);
    expect(result.answer.body.records[0].data.uniprot_accessions).to.deep.equal(['P69905', 'P68871']);
    expect(result.answer.body.summary).to.equal('1 experimental structure and 0 predicted models for 4HHB.');
    expect(life.hits('rcsb-pdb', '/rcsbsearch/v2/query')).to.have.length(0);
  });

  it('by name: UniProt resolves it to an accession; a search with no hits (204, empty body) is no entries', async () => {
    life.on('uniprot', '/uniprotkb/search', recorded('uniprot', 'search-BRAF-human-reviewed-minimized.json'));
    life.on('rcsb-pdb', '/rcsbsearch/v2/query', { status: 204, body: '' });
    life.on('alphafold', '/prediction/P15056', notFound);
    const result = await life.charged('get_structure', { query: 'B-raf kinase' });
    expectCharged(result);
    expect([result.answer.body.records, result.answer.body.summary]).to.deep.equal([[], '0 experimental structures and 0 predicted models for P15056.']);
    expect(life.hits('uniprot', '/uniprotkb/search')[0]!.query.get('query')).to.equal('"B-raf kinase" AND organism_id:9606 AND reviewed:true');
    expect(life.hits('rcsb-pdb', '/graphql')).to.have.length(0);
  });

  it('when RCSB fails, the predicted model still comes: partial, with rcsb-pdb in failedSources', async () => {
    life.on('rcsb-pdb', '/rcsbsearch/v2/query', down);
    life.on('alphafold', '/prediction/P05067', recorded('alphafold', 'prediction-P05067-all-isoforms-v6.json'));
    const result = await life.charged('get_structure', { id: 'P05067' });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.records.map((record: { id: string }) => record.id)).to.deep.equal(['alphafold:AF-P05067-F1']);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'rcsb-pdb', error: 'rcsb-pdb answered HTTP 503: service unavailable; missing from the answer: experimental entries' },
    ]);
  });

  it('is a 502, not charged, when both RCSB and AlphaFold fail', async () => {
    life.on('rcsb-pdb', '/rcsbsearch/v2/query', down);
    life.on('alphafold', '/prediction/P05067', down);
    expectNotCharged(await life.charged('get_structure', { id: 'P05067' }));
  });

  it('rejects a call with neither id nor query, and an id that is neither a PDB id nor an accession, naming the field', async () => {
    const neither = await life.charged('get_structure', { limit: 3 });
    expectNotCharged(neither, 400, 'invalid_input');
    expect(neither.answer.body.error.message).to.equal('id, query: give at least one of them');
    const badId = await life.charged('get_structure', { id: 'hemoglobin' });
    expectNotCharged(badId, 400, 'invalid_input');
    expect(badId.answer.body.error.message).to.match(/^id: "hemoglobin" is neither a PDB id/);
    expect(life.fake.hits).to.have.length(0);
  });
});

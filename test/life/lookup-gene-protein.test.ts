import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, lifeHarness, own, recorded } from './support.ts';

describeOnEachEngine('lookup_gene_protein over HTTP', (engine) => {
  const life = lifeHarness(engine);

  /** PGGT1B by its Ensembl id: real Ensembl and STRING recordings, hand-made NCBI, UniProt, InterPro and Reactome answers. */
  function serveAll(): void {
    life.on('ncbi-gene', '/esearch.fcgi', own('ncbi-gene', 'hand-made-esearch-PGGT1B.json'));
    life.on('ncbi-gene', '/esummary.fcgi', own('ncbi-gene', 'hand-made-esummary-5229-PGGT1B.json'));
    life.on('ensembl', '/lookup/id/ENSG00000164219', recorded('ensembl', 'lookup-id-ENSG00000164219-PGGT1B-expand1.json'));
    life.on('uniprot', '/uniprotkb/search', own('uniprot', 'hand-made-search-PGGT1B-human-reviewed.json'));
    life.on('interpro', '/entry/interpro/protein/uniprot/P53609/', own('interpro', 'hand-made-entry-interpro-protein-uniprot-P53609.json'));
    life.on('reactome', '/data/mapping/UniProt/P53609/pathways', own('reactome', 'hand-made-mapping-uniprot-P53609-pathways.json'));
    life.on('string', '/json/interaction_partners', recorded('string', 'interaction-partners-PGGT1B-9606-limit10.json'));
  }

  it('joins NCBI Gene, Ensembl, UniProt, InterPro, Reactome and STRING into one record, and says where each part came from', async () => {
    serveAll();
    const result = await life.charged('lookup_gene_protein', { query: 'ENSG00000164219' });
    expectCharged(result);
    const [record] = result.answer.body.records;
    expect({ ...record, retrievedAt: undefined, data: undefined }).to.deep.equal({
      id: 'ncbi-gene:5229',
      type: 'gene',
      source: 'ncbi-gene',
      title: 'PGGT1B: protein geranylgeranyltransferase type I subunit beta',
      url: 'https://www.ncbi.nlm.nih.gov/gene/5229',
      license: 'public domain (US government)',
      attribution: 'Data from NCBI Gene, National Center for Biotechnology Information, U.S. National Library of Medicine',
      retrievedAt: undefined,
      data: undefined,
    });
    expect(record.data).to.deep.equal({
      ids: { ncbi_gene_id: '5229', ensembl_gene_id: 'ENSG00000164219', uniprot_accession: 'P53609', hgnc_id: 'HGNC:8895' },
      symbol: 'PGGT1B',
      name: 'protein geranylgeranyltransferase type I subunit beta',
      aliases: ['BGGI', 'GGTI'],
      organism: 'Homo sapiens',
      taxon_id: 9606,
      summary: 'Hand-made summary for tests: the beta subunit of geranylgeranyltransferase type I.',
      function: 'Hand-made function text for tests: catalyzes the transfer of a geranyl-geranyl moiety to a cysteine of proteins ending in CaaX.',
      chromosome_location: '5q22.3',
      protein_length: 377,
      domains: [
        { accession: 'IPR045089', name: 'PGGT1B-like', entry_type: 'family', start: 1, end: 377 },
        { accession: 'IPR001330', name: 'Prenyltransferase, alpha-alpha toroid', entry_type: 'domain', start: 102, end: 146 },
        { accession: 'IPR001330', name: 'Prenyltransferase, alpha-alpha toroid', entry_type: 'domain', start: 150, end: 194 },
      ],
      pathways: [
        { id: 'R-HSA-9990001', name: 'Hand-made pathway one', url: 'https://reactome.org/content/detail/R-HSA-9990001' },
        { id: 'R-HSA-9990002', name: 'Hand-made pathway two', url: 'https://reactome.org/content/detail/R-HSA-9990002' },
      ],
      interactions: [
        { partner: 'FNTA', score: 0.999 },
        { partner: 'HEYL', score: 0.768 },
        { partner: 'RABGGTA', score: 0.767 },
        { partner: 'CCDC112', score: 0.72 },
        { partner: 'WTIP', score: 0.692 },
        { partner: 'AMMECR1L', score: 0.676 },
        { partner: 'FNTB', score: 0.553 },
        { partner: 'RAP1A', score: 0.521 },
        { partner: 'CDC42', score: 0.502 },
        { partner: 'HRAS', score: 0.497 },
      ],
      part_sources: {
        'ids.ncbi_gene_id': 'ncbi-gene',
        'ids.ensembl_gene_id': 'ensembl',
        'ids.uniprot_accession': 'uniprot',
        'ids.hgnc_id': 'uniprot',
        domains: 'interpro',
        pathways: 'reactome',
        interactions: 'string',
        symbol: 'ncbi-gene',
        name: 'ncbi-gene',
        aliases: 'ncbi-gene',
        organism: 'ncbi-gene',
        summary: 'ncbi-gene',
        function: 'uniprot',
        chromosome_location: 'ncbi-gene',
        protein_length: 'uniprot',
      },
      disclaimer: 'Research lookup, not medical advice.',
    });
    expect(result.answer.body.summary).to.equal(
      'PGGT1B (Homo sapiens): ids, domains, pathways, interactions joined from 6 sources. Research lookup, not medical advice.',
    );
    // The Ensembl id goes to NCBI Gene as a symbol search first; UniProt is asked for the resolved symbol; STRING by UniProt's STRING id.
    const [esearch] = life.hits('ncbi-gene', '/esearch.fcgi');
    expect([esearch!.query.get('db'), esearch!.query.get('term'), esearch!.query.get('retmode'), esearch!.query.get('tool')]).to.deep.equal([
      'gene',
      '"ENSG00000164219"[sym] AND 9606[taxid]',
      'json',
      'research-tools-api',
    ]);
    expect(life.hits('uniprot', '/uniprotkb/search')[0]!.query.get('query')).to.equal('gene_exact:"PGGT1B" AND organism_id:9606 AND reviewed:true');
    const stringQuery = life.hits('string', '/json/interaction_partners')[0]!.query;
    expect([stringQuery.get('identifiers'), stringQuery.get('species'), stringQuery.get('limit'), stringQuery.get('caller_identity')]).to.deep.equal([
      '9606.ENSP00000404676',
      '9606',
      '10',
      'research-tools-api',
    ]);
    expect(life.hits('reactome', '/data/mapping/UniProt/P53609/pathways')[0]!.query.get('species')).to.equal('9606');
  });

  it('by UniProt accession: UniProt first, its cross-references lead to NCBI Gene and Ensembl; its Domain features are the domains (InterPro not asked)', async () => {
    life.on('uniprot', '/uniprotkb/P05067.json', recorded('uniprot', 'entry-P05067-APP-human-swissprot.json'));
    life.on('ncbi-gene', '/esummary.fcgi', recorded('ncbi-gene', 'esummary-gene-7064-THOP1.json'));
    life.on('ensembl', '/lookup/id/ENSG00000142192', { status: 400, body: '{"error":"ID \'ENSG00000142192\' not found"}', contentType: 'application/json' });
    life.on('reactome', '/data/mapping/UniProt/P05067/pathways', {
      status: 404,
      body: '{"code":404,"reason":"Not Found","messages":["No entries found"]}',
      contentType: 'application/json',
    });
    life.on('string', '/json/interaction_partners', { body: '[]', contentType: 'application/json' });
    const result = await life.charged('lookup_gene_protein', { query: 'p05067', organism: '9606' });
    expectCharged(result);
    expect(life.hits('ncbi-gene', '/esummary.fcgi')[0]!.query.get('id')).to.equal('351');
    expect(life.hits('ncbi-gene', '/esearch.fcgi')).to.have.length(0);
    expect(life.hits('interpro', '/entry/interpro/protein/uniprot/P05067/')).to.have.length(0);
    const data = result.answer.body.records[0].data;
    // The fake NCBI answers another gene's record: the join keeps what each source said, ids included.
    expect(data.ids).to.deep.equal({ ncbi_gene_id: '7064', ensembl_gene_id: 'ENSG00000142192', uniprot_accession: 'P05067', hgnc_id: 'HGNC:620' });
    expect(data.domains).to.deep.equal([
      { name: 'E1', entry_type: 'domain', start: 28, end: 189 },
      { name: 'BPTI/Kunitz inhibitor', entry_type: 'domain', start: 291, end: 341 },
      { name: 'E2', entry_type: 'domain', start: 374, end: 565 },
    ]);
    expect([data.protein_length, data.pathways, data.interactions, data.part_sources.domains, data.part_sources['ids.ensembl_gene_id']]).to.deep.equal([
      770,
      undefined,
      undefined,
      'uniprot',
      'uniprot',
    ]);
    expect(life.hits('string', '/json/interaction_partners')[0]!.query.get('identifiers')).to.equal('9606.ENSP00000284981');
  });

  it('asks only for the parts named in include', async () => {
    serveAll();
    const result = await life.charged('lookup_gene_protein', { query: 'ENSG00000164219', include: ['interactions'] });
    expectCharged(result);
    const data = result.answer.body.records[0].data;
    expect([data.domains, data.pathways, data.interactions.length]).to.deep.equal([undefined, undefined, 10]);
    expect([
      life.hits('interpro', '/entry/interpro/protein/uniprot/P53609/').length,
      life.hits('reactome', '/data/mapping/UniProt/P53609/pathways').length,
    ]).to.deep.equal([0, 0]);
  });

  it('when Reactome fails, the record still comes without pathways, the answer is partial and failedSources says pathways are missing (still charged)', async () => {
    serveAll();
    life.on('reactome', '/data/mapping/UniProt/P53609/pathways', down);
    const result = await life.charged('lookup_gene_protein', { query: 'ENSG00000164219' });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.partial).to.equal(true);
    expect(result.answer.body.failedSources).to.deep.equal([
      { source: 'reactome', error: 'reactome answered HTTP 503: service unavailable; missing from the answer: pathways' },
    ]);
    const data = result.answer.body.records[0].data;
    expect([data.pathways, data.part_sources.pathways, data.interactions.length, data.ids.uniprot_accession]).to.deep.equal([
      undefined,
      undefined,
      10,
      'P53609',
    ]);
  });

  it('when UniProt fails, the gene record comes from NCBI Gene and Ensembl; the accession-based parts are named missing', async () => {
    serveAll();
    life.on('uniprot', '/uniprotkb/search', down);
    const result = await life.charged('lookup_gene_protein', { query: 'ENSG00000164219' });
    expect(result.answer.status).to.equal(200);
    expect(result.answer.body.failedSources).to.deep.equal([
      {
        source: 'uniprot',
        error:
          'uniprot answered HTTP 503: service unavailable; missing from the answer: UniProt accession, protein function and length (and the parts looked up by accession)',
      },
    ]);
    const data = result.answer.body.records[0].data;
    expect(data.ids).to.deep.equal({ ncbi_gene_id: '5229', ensembl_gene_id: 'ENSG00000164219', hgnc_id: 'HGNC:8895' });
    expect([data.function, data.domains, data.pathways, data.interactions[0]]).to.deep.equal([
      undefined,
      undefined,
      undefined,
      { partner: 'FNTA', score: 0.999 },
    ]);
    expect(life.hits('string', '/json/interaction_partners')[0]!.query.get('identifiers')).to.equal('PGGT1B');
  });

  it('is a 502 upstream_error, not charged, when every source fails', async () => {
    for (const [source, path] of [
      ['ncbi-gene', '/esearch.fcgi'],
      ['ensembl', '/lookup/id/ENSG00000164219'],
      ['uniprot', '/uniprotkb/search'],
    ] as const)
      life.on(source, path, down);
    const result = await life.charged('lookup_gene_protein', { query: 'ENSG00000164219' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.match(/^no source answered: /);
    expect(result.answer.body.error.message).to.contain('ncbi-gene answered HTTP 503');
  });

  it('an unknown gene is a successful, charged answer with no records (Ensembl\'s 400 for an unknown symbol is "not found")', async () => {
    life.on('ncbi-gene', '/esearch.fcgi', recorded('ncbi-gene', 'esearch-gene-term-CDDG1-zero-hits.json'));
    life.on('ensembl', '/lookup/symbol/homo_sapiens/CDDG1', recorded('ensembl', 'lookup-symbol-homo_sapiens-BR-error-400.json', { status: 400 }));
    life.on('uniprot', '/uniprotkb/search', { body: '{"results":[]}', contentType: 'application/json' });
    const result = await life.charged('lookup_gene_protein', { query: 'CDDG1' });
    expectCharged(result);
    expect([result.answer.body.records, result.answer.body.summary]).to.deep.equal([[], 'No gene or protein matched "CDDG1" in taxon 9606.']);
  });

  it('rejects an unknown include part and an unknown organism name, naming the field, without charging', async () => {
    const badPart = await life.charged('lookup_gene_protein', { query: 'BRAF', include: ['domains', 'variants'] });
    expectNotCharged(badPart, 400, 'invalid_input');
    expect(badPart.answer.body.error.message).to.match(/^include\.1: /);
    const badOrganism = await life.charged('lookup_gene_protein', { query: 'BRAF', organism: 'unicorn' });
    expectNotCharged(badOrganism, 400, 'invalid_input');
    expect(badOrganism.answer.body.error.message).to.equal(
      'organism: "unicorn" is not a known organism name; give its NCBI taxon id instead (e.g. 9606 for human)',
    );
    expect(life.fake.hits).to.have.length(0);
  });
});

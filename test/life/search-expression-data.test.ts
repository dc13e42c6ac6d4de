import { expect } from 'chai';
import { describeOnEachEngine } from '../support/databases.ts';
import { down, expectCharged, expectNotCharged, lifeHarness, recorded } from './support.ts';

describeOnEachEngine('search_expression_data over HTTP', (engine) => {
  const life = lifeHarness(engine);

  function serveGtex(): void {
    life.on('gtex', '/reference/gene', recorded('gtex', 'reference-gene-cftr-v26.json'));
    life.on('gtex', '/expression/medianGeneExpression', recorded('gtex', 'median-gene-expression-cftr-gtex_v8.json'));
  }
  function serveGeo(): void {
    life.on('geo', '/esearch.fcgi', recorded('geo', 'esearch-gds-GSE93374-accession.json'));
    life.on('geo', '/esummary.fcgi', recorded('geo', 'esummary-gds-200093374-GSE93374.json'));
  }

  it('gene and query in one call: GTEx median TPM highest first via the versioned GENCODE id, and GEO series', async () => {
    serveGtex();
    serveGeo();
    const result = await life.charged('search_expression_data', { gene: 'CFTR', query: 'arcuate nucleus', organism: 'Mus musculus', limit: 1 });
    expectCharged(result);
    const [tissues, series] = result.answer.body.records;
    expect({ ...tissues, retrievedAt: undefined, data: { ...tissues.data, tissues: tissues.data.tissues.slice(0, 2) } }).to.deep.equal({
      id: 'gtex:ENSG00000001626.14',
      type: 'expression',
      source: 'gtex',
      title: 'CFTR: median expression across 54 human tissues (GTEx gtex_v8)',
      url: 'https://gtexportal.org/home/gene/CFTR',
      license: 'GTEx Portal open-access data terms',
      attribution: 'Data from the GTEx Portal (gtexportal.org), The GTEx Consortium, dataset gtex_v8',
      retrievedAt: undefined,
      data: {
        kind: 'tissue_expression',
        gene_symbol: 'CFTR',
        gencode_id: 'ENSG00000001626.14',
        dataset_id: 'gtex_v8',
        tissues: [
          { tissue_id: 'Pancreas', ontology_id: 'UBERON:0001150', median_tpm: 65.792 },
          { tissue_id: 'Colon_Transverse', ontology_id: 'UBERON:0001157', median_tpm: 17.316 },
        ],
      },
    });
    expect(tissues.data.tissues).to.have.length(54);
    expect({ ...series, retrievedAt: undefined }).to.deep.equal({
      id: 'geo:GSE93374',
      type: 'expression',
      source: 'geo',
      title: 'GSE93374: A Molecular Census of Arcuate Hypothalamus and Median Eminence Cell Types',
      url: 'https://www.ncbi.nlm.nih.gov/geo/query/acc.cgi?acc=GSE93374',
      license: 'NCBI terms (public data; submitters may hold rights)',
      attribution: 'Data from NCBI Gene Expression Omnibus (GEO)',
      retrievedAt: undefined,
      data: {
        kind: 'dataset_series',
        accession: 'GSE93374',
        title: 'A Molecular Census of Arcuate Hypothalamus and Median Eminence Cell Types',
        summary:
          'Drop-seq and single cell sequencing of mouse arcuate nucleus and median eminence. Please see below link for searchable cluster-based gene expression.',
        organisms: ['Mus musculus'],
        sample_count: 11,
        platforms: ['GPL19057'],
        experiment_type: 'Expression profiling by high throughput sequencing',
        publication_date: '2017-01-31',
        series_url: 'https://www.ncbi.nlm.nih.gov/geo/query/acc.cgi?acc=GSE93374',
      },
    });
    expect(result.answer.body.summary).to.equal(
      'CFTR is most expressed in Pancreas (median 65.792 TPM) of 54 GTEx tissues; 1 GEO expression series of 13 for "arcuate nucleus" in Mus musculus.',
    );
    const reference = life.hits('gtex', '/reference/gene')[0]!.query;
    expect([reference.get('geneId'), reference.get('gencodeVersion'), reference.get('genomeBuild')]).to.deep.equal(['CFTR', 'v26', 'GRCh38/hg38']);
    const median = life.hits('gtex', '/expression/medianGeneExpression')[0]!.query;
    expect([median.get('gencodeId'), median.get('datasetId')]).to.deep.equal(['ENSG00000001626.14', 'gtex_v8']);
    const esearch = life.hits('geo', '/esearch.fcgi')[0]!.query;
    expect([esearch.get('db'), esearch.get('term'), esearch.get('retmax')]).to.deep.equal([
      'gds',
      '(arcuate nucleus) AND gse[ETYP] AND "Mus musculus"[orgn]',
      '1',
    ]);
  });

  it('a gene GTEx cannot resolve (200 with empty data) gives no tissue record and says it is not resolved, not "not expressed"', async () => {
    life.on('gtex', '/reference/gene', recorded('gtex', 'reference-gene-not-found-empty.json'));
    const result = await life.charged('search_expression_data', { gene: 'NOTAGENE123' });
    expectCharged(result);
    expect([result.answer.body.records, result.answer.body.summary]).to.deep.equal([
      [],
      'GTEx (gtex_v8) could not resolve the human gene "NOTAGENE123", so no tissue expression is given (this does not mean it is not expressed).',
    ]);
    expect(life.hits('gtex', '/expression/medianGeneExpression')).to.have.length(0);
  });

  it('when GEO fails, the tissue expression still comes: partial, geo in failedSources', async () => {
    serveGtex();
    life.on('geo', '/esearch.fcgi', down);
    const result = await life.charged('search_expression_data', { gene: 'CFTR', query: 'arcuate nucleus' });
    expectCharged(result, ['summary', 'records', 'partial', 'failedSources', 'credits_used', 'call_id']);
    expect(result.answer.body.records.map((record: { id: string }) => record.id)).to.deep.equal(['gtex:ENSG00000001626.14']);
    expect(result.answer.body.failedSources).to.deep.equal([{ source: 'geo', error: 'geo answered HTTP 503: service unavailable' }]);
  });

  it("NCBI's error reported with HTTP 200 counts as a failure of geo; with GTEx failing too it is a 502, not charged", async () => {
    life.on('gtex', '/reference/gene', down);
    life.on('geo', '/esearch.fcgi', {
      body: '{"header":{"type":"esearch","version":"0.3"},"esearchresult":{"ERROR":"Invalid query"}}',
      contentType: 'application/json',
    });
    const result = await life.charged('search_expression_data', { gene: 'CFTR', query: 'x' });
    expectNotCharged(result);
    expect(result.answer.body.error.message).to.equal('no source answered: gtex answered HTTP 503: service unavailable; geo reported an error: Invalid query');
  });

  it('rejects a call with neither gene nor query, naming the fields', async () => {
    const result = await life.charged('search_expression_data', { organism: 'Homo sapiens' });
    expectNotCharged(result, 400, 'invalid_input');
    expect(result.answer.body.error.message).to.equal('gene, query: give at least one of them');
  });
});

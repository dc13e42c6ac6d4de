import { expect } from 'chai';
import { getBalance, ledgerSum } from '../../src/ledger/index.ts';
import { describeRecordings, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { nullPaths } from './support.ts';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const SOURCES = ['openalex', 'pubmed', 'arxiv', 'crossref', 'unpaywall', 'europepmc', 'doaj'] as const;

describeRecordings('openalex', () => {
  describeOnEachEngine('the literature tools over HTTP', (engine) => {
    const fakes = {} as Record<(typeof SOURCES)[number], FakeUpstream>;
    let server: TestServer;
    before(async () => {
      for (const source of SOURCES) fakes[source] = await startFakeUpstream();
      const env: Record<string, string> = { SOURCE_OPENALEX_KEY: 'test-openalex-key' };
      for (const source of SOURCES) env[`SOURCE_${source.toUpperCase()}_URL`] = fakes[source].url;
      // No CONTACT_EMAIL: Unpaywall must fail saying which variable to set.
      server = await startServer(engine.db, { env });
    });
    after(async () => {
      await server.close();
      for (const source of SOURCES) await fakes[source].close();
    });
    beforeEach(() => {
      for (const source of SOURCES) fakes[source].reset();
    });

    async function charged(tool: string, body: unknown, credits = 10) {
      const caller = await newCaller(engine.db, credits);
      const answer = await call(server.baseUrl, `/api/v1/${tool}`, { method: 'POST', key: caller.key, body });
      return { answer, balance: await getBalance(engine.db, caller.accountId), ledger: await ledgerSum(engine.db, caller.accountId) };
    }

    it("search_papers: with one of three sources failing (429) the answer is 200, partial, names it, keeps the others' records and is charged once", async () => {
      fakes.openalex.on('/works', json(recording('openalex', 'works-list-title-search-2025.json')));
      fakes.pubmed.on('/esearch.fcgi', json({ header: {}, esearchresult: { count: '1', retmax: '1', retstart: '0', idlist: ['27933103'] } }));
      fakes.pubmed.on('/esummary.fcgi', json(recording('pubmed', 'esummary-id-27933103.json')));
      fakes.arxiv.on('/query', { status: 429, body: 'Rate exceeded.', contentType: 'text/plain' });
      const result = await charged('search_papers', { query: 'chemistry tools language models', year_from: 2016, year_to: 2025 });
      const body = result.answer.body;
      expect(result.answer.status, result.answer.text).to.equal(200);
      expect([body.credits_used, result.balance, result.ledger]).to.deep.equal([1, 9, 9]);
      expect(body.partial).to.equal(true);
      expect(body.failedSources).to.deep.equal([{ source: 'arxiv', error: 'arxiv answered HTTP 429: Rate exceeded.' }]);
      expect(body.records.map((record: any) => [record.id, record.data.found_in, record.data.year])).to.deep.equal([
        ['openalex:W4396723768', ['openalex'], 2024],
        ['pubmed:27933103', ['pubmed'], 2016],
        ['openalex:W4365597205', ['openalex'], 2023],
      ]);
      expect(nullPaths(body)).to.deep.equal([]);
      for (const record of body.records) expect(record.retrievedAt).to.match(ISO_MS);
      expect(Object.keys(body.records[0])).to.deep.equal(['id', 'type', 'source', 'title', 'url', 'license', 'attribution', 'retrievedAt', 'data']);
      // Filters pushed down: OpenAlex's filter with the key, PubMed's publication-date range, arXiv's submittedDate.
      const openalexQuery = fakes.openalex.hits[0]!.query;
      expect([openalexQuery.get('filter'), openalexQuery.get('api_key'), openalexQuery.get('search')]).to.deep.equal([
        'publication_year:2016-2025',
        'test-openalex-key',
        'chemistry tools language models',
      ]);
      const esearch = fakes.pubmed.hitsOn('/esearch.fcgi')[0]!.query;
      expect([esearch.get('datetype'), esearch.get('mindate'), esearch.get('maxdate'), esearch.get('tool')]).to.deep.equal([
        'pdat',
        '2016',
        '2025',
        'research-tools-api',
      ]);
      expect(fakes.arxiv.hits[0]!.query.get('search_query')).to.equal(
        'all:chemistry AND all:tools AND all:language AND all:models AND submittedDate:[201601010000 TO 202512312359]',
      );
      expect(body.summary).to.equal('3 papers for "chemistry tools language models" (from 2016 to 2025) from openalex, pubmed, duplicates merged.');
    });

    it('search_papers: when no source answers it is a 502 and nothing is charged', async () => {
      for (const source of ['openalex', 'pubmed', 'arxiv'] as const)
        fakes[source].on(source === 'pubmed' ? '/esearch.fcgi' : source === 'arxiv' ? '/query' : '/works', { status: 400, body: '{"error":"bad"}' });
      const result = await charged('search_papers', { query: 'nothing answers' });
      expect([result.answer.status, result.answer.body.error.code, result.balance]).to.deep.equal([502, 'upstream_error', 10]);
    });

    it('search_papers: when OpenAlex refuses the key it says so plainly, naming SOURCE_OPENALEX_KEY', async () => {
      fakes.openalex.on('/works', { status: 401, body: recording('openalex', 'error-401-invalid-api-key.json'), contentType: 'application/json' });
      fakes.crossref.on('/works', json(recording('crossref', 'works-query-ecology-rows2.json')));
      const result = await charged('search_papers', { query: 'ecology', sources: ['openalex', 'crossref'], limit: 2 });
      expect([result.answer.status, result.answer.body.partial, result.answer.body.records.map((record: any) => record.id)]).to.deep.equal([
        200,
        true,
        ['crossref:10.1093/obo/9780199830060-0238', 'crossref:10.1093/obo/9780199830060-0023'],
      ]);
      expect(result.answer.body.failedSources).to.deep.equal([
        {
          source: 'openalex',
          error:
            'openalex refused the request (HTTP 401): Invalid or missing API key: API key not found; OpenAlex needs a valid API key in SOURCE_OPENALEX_KEY since February 2026',
        },
      ]);
    });

    it("search_papers: dblp's bot-check HTML page is a failed source, never zero results; open_access_only drops papers not known to be open", async () => {
      fakes.crossref.on('/works', json(recording('crossref', 'works-query-title-rows1.json')));
      const dblpFake = await startFakeUpstream();
      try {
        // dblp is not among the fakes above: point a second server at it through a fresh app.
        const env: Record<string, string> = { SOURCE_DBLP_URL: dblpFake.url, SOURCE_CROSSREF_URL: fakes.crossref.url };
        const other = await startServer(engine.db, { env });
        try {
          dblpFake.on('/publ/api', {
            status: 200,
            body: '<!DOCTYPE html><html><head><title>dblp: Are you a robot?</title></head><body>…</body></html>',
            contentType: 'text/html',
          });
          const caller = await newCaller(engine.db, 10);
          const answer = await call(other.baseUrl, '/api/v1/search_papers', {
            method: 'POST',
            key: caller.key,
            body: { query: 'copper oxide tensile', sources: ['dblp', 'crossref'] },
          });
          expect([answer.status, answer.body.partial, answer.body.failedSources]).to.deep.equal([
            200,
            true,
            [{ source: 'dblp', error: 'dblp answered with an HTML page instead of JSON' }],
          ]);
          expect(answer.body.records.map((record: any) => record.id)).to.deep.equal(['crossref:10.1063/1.4938384']);
          const open = await call(other.baseUrl, '/api/v1/search_papers', {
            method: 'POST',
            key: caller.key,
            body: { query: 'copper oxide tensile', sources: ['crossref'], open_access_only: true },
          });
          expect([open.status, open.body.records, open.body.summary]).to.deep.equal([
            200,
            [],
            '0 papers for "copper oxide tensile" (open access only) from crossref, duplicates merged.',
          ]);
        } finally {
          await other.close();
        }
      } finally {
        await dblpFake.close();
      }
    });

    it('get_paper: a DOI gives verified metadata with the rebuilt abstract; Unpaywall without CONTACT_EMAIL is a failed source naming it', async () => {
      fakes.openalex.on('/works/https://doi.org/10.1371/journal.pone.0000030', json(recording('openalex', 'work-by-doi-10.1371-journal.pone.0000030.json')));
      fakes.crossref.on('/works/10.1371/journal.pone.0000030', {
        status: 404,
        body: recording('crossref', 'work-not-found-404.txt'),
        contentType: 'text/plain',
      });
      const result = await charged('get_paper', { id: 'https://doi.org/10.1371/JOURNAL.PONE.0000030' });
      const body = result.answer.body;
      expect([result.answer.status, body.credits_used, result.balance]).to.deep.equal([200, 1, 9]);
      expect(body.failedSources).to.deep.equal([{ source: 'unpaywall', error: 'unpaywall needs a contact address on every request: set CONTACT_EMAIL' }]);
      const [record] = body.records;
      expect([
        record.id,
        record.url,
        record.data.doi,
        record.data.pmid,
        record.data.citation_count,
        record.data.is_retracted,
        record.data.oa_status,
        record.data.found_in,
      ]).to.deep.equal([
        'openalex:W1982728624',
        'https://doi.org/10.1371/journal.pone.0000030',
        '10.1371/journal.pone.0000030',
        '17183658',
        85,
        false,
        'gold',
        ['openalex'],
      ]);
      expect(record.data.abstract.slice(0, 60)).to.equal('Triosephosphate isomerase (TPI) deficiency is an autosomal r');
      expect(nullPaths(body)).to.deep.equal([]);
    });

    it('get_paper: an old-style arXiv id goes to arXiv; an id nobody knows is a 200 without records saying so', async () => {
      fakes.arxiv.on('/query', { body: recording('arxiv', 'id_list-0000.0000-no-results.xml'), contentType: 'application/atom+xml' });
      fakes.openalex.on('/works/https://doi.org/10.48550/arXiv.hep-th/9901001', {
        status: 404,
        body: recording('openalex', 'work-not-found-404.txt'),
        contentType: 'text/html; charset=utf-8',
      });
      const result = await charged('get_paper', { id: 'hep-th/9901001' });
      expect([result.answer.status, result.answer.body.records, result.answer.body.summary, result.balance]).to.deep.equal([
        200,
        [],
        'No source knows the paper hep-th/9901001 (asked arxiv, openalex).',
        9,
      ]);
      expect(fakes.arxiv.hits[0]!.query.get('id_list')).to.equal('hep-th/9901001');
    });

    it('get_paper: an identifier of no recognised form is a 400 naming id, not charged', async () => {
      const result = await charged('get_paper', { id: 'not an identifier' });
      expect([result.answer.status, result.answer.body.error.code, result.balance]).to.deep.equal([400, 'invalid_input', 10]);
      expect(result.answer.body.error.message).to.match(/^id: /);
    });

    it('verify_references: 51 references in a text block is a 400 naming references, nothing asked, nothing charged', async () => {
      const text = Array.from({ length: 51 }, (_, index) => `[${index + 1}] A. Author, "Title number ${index + 1}," Journal, vol. 1, pp. 1-2, 2001.`).join(
        '\n',
      );
      const result = await charged('verify_references', { references: text });
      expect([result.answer.status, result.answer.body.error.code, result.balance]).to.deep.equal([400, 'invalid_input', 10]);
      expect(result.answer.body.error.message).to.match(/^references: at most 50 references per call; the text holds 51/);
      expect(result.ledger).to.equal(10);
      expect(
        SOURCES.flatMap((source) => fakes[source].hits.map((hit) => `${source} ${hit.path}`)),
        'requests upstream',
      ).to.deep.equal([]);
      const array = await charged('verify_references', { references: Array.from({ length: 51 }, () => 'x') });
      expect([array.answer.status, array.answer.body.error, array.balance, array.ledger]).to.deep.equal([
        400,
        {
          code: 'invalid_input',
          message: 'references: must be string; references: must not have more than 50 items; references: must match exactly one schema in oneOf',
        },
        10,
        10,
      ]);
      expect(
        SOURCES.flatMap((source) => fakes[source].hits.map((hit) => `${source} ${hit.path}`)),
        'requests upstream',
      ).to.deep.equal([]);
    });

    it("verify_references: a reference matched by Crossref's reference matcher is verified, with the real metadata (2 credits)", async () => {
      fakes.crossref.on('/works', json(recording('crossref', 'works-query-title-rows1.json')));
      fakes.openalex.on('/works', json({ meta: { count: 0 }, results: [] }));
      const result = await charged('verify_references', {
        references: [
          'Skarlinski MD, Quesnel DJ. Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study. J Appl Phys. 2015;118(23).',
        ],
      });
      const body = result.answer.body;
      expect([result.answer.status, body.credits_used, result.balance]).to.deep.equal([200, 2, 8]);
      const [record] = body.records;
      expect([
        record.id,
        record.data.status,
        record.data.match_source,
        record.data.matched.doi,
        record.data.matched.first_author,
        record.data.differences,
        record.data.retracted,
      ]).to.deep.equal(['crossref:10.1063/1.4938384', 'verified', 'crossref', '10.1063/1.4938384', 'Skarlinski', [], false]);
      expect(fakes.crossref.hits[0]!.query.get('query.bibliographic')).to.equal(
        'Skarlinski MD, Quesnel DJ. Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study. J Appl Phys. 2015;118(23).',
      );
      expect(body.summary).to.equal('1 reference checked: 1 verified, 0 corrected, 0 not found, 0 uncertain.');
    });

    it('verify_references: a real paper cited with a wrong article number is corrected, naming the field with what was cited and what is real', async () => {
      fakes.crossref.on('/works', json(recording('crossref', 'works-query-title-rows1.json')));
      fakes.openalex.on('/works', json({ meta: { count: 0 }, results: [] }));
      const result = await charged('verify_references', {
        references: [
          'Skarlinski MD, Quesnel DJ. Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study. J Appl Phys. 2015;118(23):235307. doi:10.1063/1.4938384',
        ],
      });
      const data = result.answer.body.records[0].data;
      expect([result.answer.status, data.status, data.input.pages, data.input.doi, data.matched.pages]).to.deep.equal([
        200,
        'corrected',
        '235307',
        '10.1063/1.4938384',
        '235306',
      ]);
      expect(data.differences).to.deep.equal([{ field: 'pages', cited: '235307', actual: '235306' }]);
    });

    /**
     * No recording holds a retracted paper, so these two take a real Crossref answer and turn its
     * notice into a retraction (hand-made from the recording, in Crossref's documented `updated-by` shape).
     */
    function retracted(body: { message: Record<string, unknown> }, item?: Record<string, unknown>): unknown {
      const notice = {
        DOI: '10.1371/retraction.0001',
        type: 'retraction',
        label: 'Retraction',
        source: 'publisher',
        updated: { 'date-parts': [[2016, 3, 1]] },
      };
      if (item) return { ...body, message: { ...body.message, items: [{ ...item, 'updated-by': [notice] }] } };
      // Under Crossref's test prefix, so no other test's cached answer for the real DOI is touched.
      return { ...body, message: { ...body.message, DOI: '10.5555/retracted.0001', 'updated-by': [notice] } };
    }

    it("get_paper: a paper with a retraction notice is flagged retracted, with the notice's DOI (hand-made from a real answer)", async () => {
      fakes.crossref.on(
        '/works/10.5555/retracted.0001',
        json(retracted(JSON.parse(recording('crossref', 'work-10.1371-journal.pone.0033693-updated-by-correction.json')))),
      );
      fakes.openalex.on('/works/https://doi.org/10.5555/retracted.0001', {
        status: 404,
        body: recording('openalex', 'work-not-found-404.txt'),
        contentType: 'text/html; charset=utf-8',
      });
      const result = await charged('get_paper', { id: '10.5555/retracted.0001' });
      const data = result.answer.body.records[0].data;
      expect([result.answer.status, data.doi, data.is_retracted, data.retraction_notice_doi]).to.deep.equal([
        200,
        '10.5555/retracted.0001',
        true,
        '10.1371/retraction.0001',
      ]);
    });

    it("verify_references: a reference to a retracted paper is matched to the paper and says so, with the notice's DOI (hand-made from a real answer)", async () => {
      const search = JSON.parse(recording('crossref', 'works-query-title-rows1.json')) as { message: { items: Array<Record<string, unknown>> } };
      fakes.crossref.on('/works', json(retracted(search, search.message.items[0])));
      fakes.openalex.on('/works', json({ meta: { count: 0 }, results: [] }));
      const result = await charged('verify_references', {
        references: [
          'Skarlinski MD, Quesnel DJ. Effect of native oxide layers on copper thin-film tensile properties: A reactive molecular dynamics study. J Appl Phys. 2015;118(23):235306.',
        ],
      });
      const data = result.answer.body.records[0].data;
      expect([result.answer.status, data.matched.doi, data.retracted, data.retraction_notice_doi]).to.deep.equal([
        200,
        '10.1063/1.4938384',
        true,
        '10.1371/retraction.0001',
      ]);
    });

    it('check_retractions: a correction notice is reported as corrected, never as a retraction; references without DOI are skipped', async () => {
      fakes.crossref.on('/works/10.1371/journal.pone.0033693', json(recording('crossref', 'work-10.1371-journal.pone.0033693-updated-by-correction.json')));
      fakes.openalex.on('/works/https://doi.org/10.1371/journal.pone.0033693', {
        status: 404,
        body: recording('openalex', 'work-not-found-404.txt'),
        contentType: 'text/html; charset=utf-8',
      });
      const result = await charged('check_retractions', {
        references: 'Sadasivan S, et al. PLoS ONE 2012;7:e33693. doi:10.1371/journal.pone.0033693\n\nA reference without any identifier, 2001.',
      });
      const body = result.answer.body;
      expect([result.answer.status, body.credits_used]).to.deep.equal([200, 2]);
      expect(body.records[0].data).to.deep.equal({
        doi: '10.1371/journal.pone.0033693',
        status: 'corrected',
        notice_type: 'correction',
        notice_doi: '10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda',
        notice_date: '2012-05-08',
        notice_source: 'publisher',
        notices: [
          { type: 'correction', doi: '10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda', date: '2012-05-08', source: 'publisher', label: 'Correction' },
        ],
        is_retracted: false,
      });
      expect(body.summary).to.equal(
        '1 DOI checked: 0 retracted, 0 withdrawn, 0 with an expression of concern, 1 corrected, 0 without notices, 0 unknown; 1 reference without a DOI skipped.',
      );
    });

    it('journal_info: by ISSN without hyphen, from OpenAlex, Crossref and DOAJ, with plain signals and no impact factor', async () => {
      fakes.openalex.on('/sources/issn:0028-0836', json(recording('openalex', 'source-S137773608-nature.json')));
      fakes.crossref.on('/journals/0028-0836', { status: 404, body: 'Resource not found.', contentType: 'text/plain' });
      fakes.doaj.on('/search/journals/issn%3A0028-0836', json({ total: 0, page: 1, pageSize: 5, results: [] }));
      const result = await charged('journal_info', { journal: '00280836' });
      const [record] = result.answer.body.records;
      expect([
        result.answer.status,
        record.id,
        record.title,
        record.data.issn_l,
        record.data.is_in_doaj,
        record.data.apc_usd,
        record.data.h_index,
        record.data.found_in,
      ]).to.deep.equal([200, 'openalex:S137773608', 'Nature', '0028-0836', false, 11690, 1782, ['openalex']]);
      expect(record.data.signals).to.deep.equal([
        'Not listed in the Directory of Open Access Journals (DOAJ).',
        'Not fully open access: many articles need a subscription.',
        'Charges authors an article processing charge of about US$11,690.',
        '431,710 works known.',
        'h-index 1782: 1782 of its works have at least 1782 citations each.',
      ]);
      expect(JSON.stringify(result.answer.body)).to.not.match(/impact.factor/i);
    });
  });
});

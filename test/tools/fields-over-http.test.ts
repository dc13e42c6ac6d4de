/**
 * Tool answers over HTTP, on real recordings, that fill declared data fields the other tool tests
 * leave empty: the identifiers of INSPIRE, ERIC and dblp in search_papers, PMCID and arXiv id in
 * get_paper, the DOAJ facts of journal_info. (test/tools/data-fields.test.ts checks every field.)
 */
import { expect } from 'chai';
import { describeRecordings, recording } from '../connectors/recordings.ts';
import { describeOnEachEngine } from '../support/databases.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { call, newCaller, startServer, type TestServer } from '../support/server.ts';
import { nullPaths } from './support.ts';
import { tools } from '../../generated/tools.ts';

const SOURCES = ['openalex', 'crossref', 'doaj', 'inspire-hep', 'eric', 'dblp', 'europepmc', 'arxiv', 'pubmed', 'unpaywall'] as const;
const variable = (source: string) => `SOURCE_${source.toUpperCase().replace(/-/g, '_')}_URL`;

describeRecordings('doaj', () => {
  describeOnEachEngine('declared fields filled from real recordings', (engine) => {
    const fakes = {} as Record<(typeof SOURCES)[number], FakeUpstream>;
    let server: TestServer;
    before(async () => {
      for (const source of SOURCES) fakes[source] = await startFakeUpstream();
      const env: Record<string, string> = { SOURCE_OPENALEX_KEY: 'test-openalex-key', CONTACT_EMAIL: 'ops@example.org' };
      for (const source of SOURCES) env[variable(source)] = fakes[source].url;
      server = await startServer(engine.db, { env });
    });
    after(async () => {
      await server.close();
      for (const source of SOURCES) await fakes[source].close();
    });
    beforeEach(() => {
      for (const source of SOURCES) fakes[source].reset();
    });

    async function tool(name: string, body: unknown) {
      const caller = await newCaller(engine.db, 10);
      const answer = await call(server.baseUrl, `/api/v1/${name}`, { method: 'POST', key: caller.key, body });
      expect(answer.status, answer.text).to.equal(200);
      expect(nullPaths(answer.body)).to.deep.equal([]);
      return answer.body;
    }

    it('journal_info: a journal only DOAJ knows, with its DOAJ id and licences', async () => {
      fakes.openalex.on('/sources/issn:1980-4466', { status: 404, body: recording('openalex', 'work-not-found-404.txt'), contentType: 'text/plain' });
      fakes.crossref.on('/journals/1980-4466', { status: 404, body: recording('crossref', 'journal-issn-not-found-404.txt'), contentType: 'text/plain' });
      fakes.doaj.on('/search/journals/issn%3A1980-4466', json(recording('doaj', 'v2-search-journals-keywords-heritage-trimmed.json')));
      const body = await tool('journal_info', { journal: '1980-4466' });
      const [record] = body.records;
      expect([record.id, record.title, body.summary]).to.deep.equal([
        'doaj:0363f2df5e80496fabf11a8ba5853a58',
        'Revista CPC',
        'Revista CPC (Universidade de São Paulo (USP)): Listed in the Directory of Open Access Journals (DOAJ). Charges no article processing charge.',
      ]);
      expect(record.data).to.deep.equal({
        publisher: 'Universidade de São Paulo (USP)',
        issn_l: '1980-4466',
        issns: ['1980-4466'],
        is_in_doaj: true,
        has_apc: false,
        oa_licenses: ['CC BY-NC-SA'],
        homepage_url: 'http://www.revistas.usp.br/cpc/index',
        country_code: 'BR',
        subjects: ['Museums. Collectors and collecting'],
        doaj_id: '0363f2df5e80496fabf11a8ba5853a58',
        signals: ['Listed in the Directory of Open Access Journals (DOAJ).', 'Charges no article processing charge.'],
        found_in: ['doaj'],
      });
    });

    it('search_papers: INSPIRE, ERIC and dblp records with their own identifiers', async () => {
      fakes['inspire-hep'].on('/literature', json(recording('inspire-hep', 'literature-list-size10-page1.json')));
      fakes.eric.on('/', json(recording('eric', 'search-blockchain-json.json')));
      fakes.dblp.on('/publ/api', json(recording('dblp', 'search-publ-q-test-star-2019.json')));
      const body = await tool('search_papers', { query: 'test', sources: ['inspire-hep', 'eric', 'dblp'], limit: 30 });
      const ids = body.records.map((record: { id: string; data: Record<string, unknown> }) => [
        record.id,
        record.data.inspire_id,
        record.data.eric_id,
        record.data.dblp_key,
      ]);
      expect(ids.slice(0, 3)).to.deep.equal([
        ['inspire-hep:1842768', '1842768', undefined, undefined],
        ['eric:EJ1286736', undefined, 'EJ1286736', undefined],
        ['dblp:conf/ats/ShinogiYHTY05', undefined, undefined, 'conf/ats/ShinogiYHTY05'],
      ]);
      expect(ids).to.have.length(Object.keys(tools).length);
    });

    it('get_paper: by PMCID from Europe PMC, and by arXiv id from arXiv', async () => {
      fakes.europepmc.on('/search', json(recording('europepmc', 'search-query-cancer-resultType-core-json.json')));
      const byPmcid = await tool('get_paper', { id: 'PMC12120539' });
      expect(fakes.europepmc.hits[0]!.query.get('query')).to.equal('PMCID:PMC12120539');
      expect(byPmcid.records[0].id).to.equal('europepmc:MED/40437959');
      expect(byPmcid.records[0].data).to.deep.include({
        doi: '10.1002/hpja.70059',
        pmid: '40437959',
        pmcid: 'PMC12120539',
        volume: '36',
        issue: '3',
        pages: 'e70059',
      });
      fakes.arxiv.on('/query', { body: recording('arxiv', 'id_list-2104.12255v1.xml'), contentType: 'application/atom+xml' });
      const byArxiv = await tool('get_paper', { id: 'arXiv:2104.12255v1' });
      expect([byArxiv.records[0].id, byArxiv.records[0].title]).to.deep.equal(['arxiv:2104.12255v1', '0']);
      expect(byArxiv.records[0].data).to.deep.include({
        arxiv_id: '2104.12255',
        year: 2021,
        publication_date: '2021-04-20',
        venue: 'arXiv (cs.CR)',
        authors: ['Quan Thoi Minh Nguyen'],
      });
    });
  });
});

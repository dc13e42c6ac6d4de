/**
 * The one E-utilities client of pubmed, ncbi-gene and geo: the requests it sends (the API key of
 * the source when one is set, the polite tool and email, a year range as publication dates) and
 * PubMed's recorded answers read through it.
 */
import { expect } from 'chai';
import { fetchArticle, searchArticles } from '../../src/connectors/pubmed.ts';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { json, startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.ts';
import { describeRecordings, recording } from './recordings.ts';
import { FastForwardClock } from '../support/clock.ts';

describeRecordings('pubmed', () => {
  describe('the E-utilities client', () => {
    let fake: FakeUpstream;
    let client: UpstreamClient;
    before(async () => {
      fake = await startFakeUpstream();
      client = new UpstreamClient({
        sources: { PUBMED: { url: fake.url, timeoutMs: 2000, key: 'ncbi-key-1' } },
        contactEmail: 'ops@example.org',
        cache: new MemoryCache(),
        retry: { baseDelayMs: 5 },
        clock: new FastForwardClock(),
      });
    });
    after(() => fake.close());
    beforeEach(() => fake.reset());

    it('PubMed search: esearch with the key, the polite parameters and a year range, then esummary of the ids found', async () => {
      fake.on('/esearch.fcgi', json({ esearchresult: { count: '1', idlist: ['27933103'] } }));
      fake.on('/esummary.fcgi', json(JSON.parse(recording('pubmed', 'esummary-id-27933103.json'))));
      const { papers } = await searchArticles(client, { query: 'jmol 3D printing', yearFrom: 2015, limit: 5 });
      expect(papers.map((paper) => [paper.pmid, paper.doi])).to.deep.equal([['27933103', '10.1186/s13321-016-0181-z']]);
      expect(fake.hits.map((hit) => [hit.path, Object.fromEntries(hit.query)])).to.deep.equal([
        [
          '/esearch.fcgi',
          {
            db: 'pubmed',
            term: 'jmol 3D printing',
            retmax: '5',
            sort: 'relevance',
            retmode: 'json',
            datetype: 'pdat',
            mindate: '2015',
            maxdate: '3000',
            tool: 'research-tools-api',
            email: 'ops@example.org',
            api_key: 'ncbi-key-1',
          },
        ],
        ['/esummary.fcgi', { db: 'pubmed', id: '27933103', retmode: 'json', tool: 'research-tools-api', email: 'ops@example.org', api_key: 'ncbi-key-1' }],
      ]);
    });

    it('PubMed article: efetch as XML with the key', async () => {
      fake.on('/efetch.fcgi', { body: recording('pubmed', 'efetch-pubmed-22351513-structured-abstract.xml'), contentType: 'text/xml' });
      const article = await fetchArticle(client, '22351513');
      expect([article?.paper?.pmid, article?.paper?.doi]).to.deep.equal(['22351513', '10.1002/jsfa.5627']);
      expect(Object.fromEntries(fake.hits[0]!.query)).to.deep.equal({
        db: 'pubmed',
        id: '22351513',
        retmode: 'xml',
        tool: 'research-tools-api',
        email: 'ops@example.org',
        api_key: 'ncbi-key-1',
      });
    });
  });
});

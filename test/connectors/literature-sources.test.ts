import { expect } from 'chai';
import * as arxiv from '../../src/connectors/arxiv.ts';
import * as crossref from '../../src/connectors/crossref.ts';
import * as dblp from '../../src/connectors/dblp.ts';
import * as doaj from '../../src/connectors/doaj.ts';
import * as eric from '../../src/connectors/eric.ts';
import * as europepmc from '../../src/connectors/europepmc.ts';
import * as inspire from '../../src/connectors/inspire-hep.ts';
import { parseSearch } from '../../src/connectors/ncbi-eutils.ts';
import * as openalex from '../../src/connectors/openalex.ts';
import * as pubmed from '../../src/connectors/pubmed.ts';
import * as unpaywall from '../../src/connectors/unpaywall.ts';
import { MemoryCache } from '../../src/upstream/cache.ts';
import { UpstreamClient } from '../../src/upstream/client.ts';
import { parseJsonKeepingBigIntegers } from '../../src/upstream/json.ts';
import { startFakeUpstream } from '../support/fake-upstream.ts';
import { describeRecordings, recording } from './recordings.ts';

const json = (source: string, file: string) => parseJsonKeepingBigIntegers(recording(source, file)) as Record<string, unknown>;

describeRecordings('openalex', () => {
  it('reads a work by DOI with ids, venue, pages, open-access link and the abstract rebuilt from the inverted index', () => {
    const paper = openalex.parseWork(json('openalex', 'work-by-doi-10.1371-journal.pone.0000030.json'))!;
    expect({ ...paper, abstract: paper.abstract!.slice(0, 58) }).to.deep.equal({
      nativeId: 'W1982728624',
      url: 'https://openalex.org/W1982728624',
      title: 'Triose Phosphate Isomerase Deficiency Is Caused by Altered Dimerization–Not Catalytic Inactivity–of the Mutant Enzymes',
      doi: '10.1371/journal.pone.0000030',
      authors: ['Markus Ralser', 'Gino Heeren', 'Michael Breitenbach', 'Hans Lehrach', 'Sylvia Krobitsch'],
      year: 2006,
      publicationDate: '2006-12-20',
      venue: 'PLoS ONE',
      publisher: 'Public Library of Science',
      volume: '1',
      issue: '1',
      pages: 'e30',
      publicationType: 'article',
      citationCount: 85,
      isOpenAccess: true,
      openAccessUrl: 'https://journals.plos.org/plosone/article/file?id=10.1371/journal.pone.0000030&type=printable',
      oaStatus: 'gold',
      license: 'cc-by',
      abstract: 'Triosephosphate isomerase (TPI) deficiency is an autosomal',
      pmid: '17183658',
      pmcid: undefined,
      arxivId: undefined,
      openalexId: 'W1982728624',
      isRetracted: false,
    });
  });
  it('reads a work whose abstract index is null as one without abstract, pages as a range', () => {
    const paper = openalex.parseWork(json('openalex', 'work-by-id-W2162348455.json'))!;
    expect([paper.title, paper.doi, paper.pages, paper.citationCount, paper.oaStatus, paper.abstract, paper.pmid]).to.deep.equal([
      'Biodiversity hotspots for conservation priorities',
      '10.1038/35002501',
      '853-858',
      30625,
      'closed',
      undefined,
      '10706275',
    ]);
  });
  it('reads a search list; the arXiv preprint keeps its arXiv id from its location', () => {
    const papers = openalex.parseWorkList(json('openalex', 'works-list-title-search-2025.json'));
    expect(papers.map((paper) => [paper.openalexId, paper.doi, paper.year, paper.arxivId, paper.publicationType])).to.deep.equal([
      ['W4396723768', '10.1038/s42256-024-00832-8', 2024, undefined, 'article'],
      ['W4365597205', '10.48550/arxiv.2304.05376', 2023, '2304.05376', 'preprint'],
    ]);
    expect(openalex.parseWorkList(json('openalex', 'works-list-title-abstract-search.json'))).to.have.length(3);
  });
  it('reads a journal (source) with APC, h-index and counts; never an impact factor', () => {
    const source = openalex.parseSource(json('openalex', 'source-S137773608-nature.json'))!;
    // counts_by_year is only OpenAlex's recent window (2012 to 2025 here, for a journal founded in 1869): no first year is derived from it.
    expect(
      (json('openalex', 'source-S137773608-nature.json').counts_by_year as Array<{ year: number }>).map((entry: { year: number }) => entry.year).sort()[0],
    ).to.equal(2012);
    expect({ ...source, subjects: undefined }).to.deep.equal({
      openalexId: 'S137773608',
      name: 'Nature',
      publisher: 'Nature Portfolio',
      issnL: '0028-0836',
      issns: ['0028-0836', '1476-4687'],
      isOa: false,
      isInDoaj: false,
      apcUsd: 11690,
      apcPrices: [
        { currency: 'EUR', price: 9750 },
        { currency: 'USD', price: 11690 },
        { currency: 'GBP', price: 8490 },
      ],
      worksCount: 431710,
      citedByCount: 25276859,
      hIndex: 1782,
      i10Index: 117589,
      twoYearMeanCitedness: 16.2611434684417,
      homepageUrl: 'https://www.nature.com/nature/',
      countryCode: 'GB',
      subjects: undefined,
      type: 'journal',
    });
  });
  it('rebuilds an abstract from word positions', () => {
    expect(openalex.rebuildAbstract({ world: [1], Hello: [0], again: [3], hello: [2] })).to.equal('Hello world hello again');
    expect(openalex.rebuildAbstract(null)).to.equal(undefined);
  });
});

describeRecordings('crossref', () => {
  it('reads a work with its correction notice: a correction, not a retraction', () => {
    const paper = crossref.parseWork(json('crossref', 'work-10.1371-journal.pone.0033693-updated-by-correction.json').message as Record<string, unknown>)!;
    expect([
      paper.doi,
      paper.year,
      paper.publicationDate,
      paper.venue,
      paper.volume,
      paper.issue,
      paper.pages,
      paper.citationCount,
      paper.authors[0],
      paper.isRetracted,
    ]).to.deep.equal(['10.1371/journal.pone.0033693', 2012, '2012-03-21', 'PLoS ONE', '7', '3', 'e33693', 72, 'Shankar Sadasivan', false]);
    expect(paper.notices).to.deep.equal([
      { type: 'correction', doi: '10.1371/annotation/c76da2c1-ccb8-4797-94c1-359d3ceceeda', date: '2012-05-08', source: 'publisher', label: 'Correction' },
    ]);
  });
  it('skips new-version updates that point at the work itself', () => {
    const papers = crossref.parseWorkList(json('crossref', 'prefix-works-items-with-update-to-and-updated-by.json'));
    expect(papers.map((paper) => [paper.doi, paper.notices!.map((notice) => `${notice.type} ${notice.doi}`), paper.isRetracted])).to.deep.equal([
      ['10.1371/journal.pbio.0050002', ['correction 10.1371/journal.pbio.0060304'], false],
      ['10.1371/journal.ppat.1006930', [], false],
      ['10.1371/journal.pgen.1011490', [], false],
    ]);
  });
  it('reads search results with their scores, and no results as an empty list', () => {
    expect(
      crossref.parseWorkList(json('crossref', 'works-query-ecology-rows2.json')).map((paper) => [paper.doi, paper.title, paper.year, paper.score]),
    ).to.deep.equal([
      ['10.1093/obo/9780199830060-0238', 'Communicating Ecology', 2022, 11.044969],
      ['10.1093/obo/9780199830060-0023', 'Chemical Ecology', 2012, 10.913344],
    ]);
    const [paper] = crossref.parseWorkList(json('crossref', 'works-query-title-rows1.json'));
    expect([paper!.doi, paper!.authors, paper!.venue, paper!.year]).to.deep.equal([
      '10.1063/1.4938384',
      ['Michael D. Skarlinski', 'David J. Quesnel'],
      'Journal of Applied Physics',
      2015,
    ]);
    expect(crossref.parseWorkList(json('crossref', 'works-query-no-results.json'))).to.deep.equal([]);
  });
  it('reads journals by ISSN', () => {
    expect(crossref.parseJournal(json('crossref', 'journal-issn-1932-6203-plos-one-2022.json'))).to.deep.equal({
      title: 'PLoS ONE',
      publisher: 'Public Library of Science',
      issns: ['1932-6203'],
      subjects: ['Multidisciplinary'],
      totalDois: 274660,
    });
    expect(crossref.parseJournal(json('crossref', 'journal-issn-1803-2427.json'))).to.deep.equal({
      title: 'Journal of Landscape Ecology',
      publisher: 'De Gruyter Poland Sp. z o.o.',
      issns: ['1803-2427', '1805-4196'],
      subjects: undefined,
      totalDois: 356,
    });
  });
});

describeRecordings('pubmed', () => {
  it('reads esearch ids (strings in the JSON) and esummary metadata with DOI and PMCID', () => {
    const search = parseSearch('pubmed', json('pubmed', 'esearch-term-darwin-au.json'));
    expect([search.count, search.ids.length, search.ids[0]]).to.deep.equal([603, 20, '36374290']);
    expect(pubmed.parseSummaries(json('pubmed', 'esummary-id-27933103.json'))).to.deep.equal([
      {
        nativeId: '27933103',
        url: 'https://pubmed.ncbi.nlm.nih.gov/27933103/',
        title: 'Programmatic conversion of crystal structures into 3D printable files using Jmol.',
        doi: '10.1186/s13321-016-0181-z',
        authors: ['Scalfani VF', 'Williams AJ', 'Tkachenko V', 'Karapetyan K', 'Pshenichnov A', 'Hanson RM', 'Liddie JM', 'Bara JE'],
        year: 2016,
        publicationDate: '2016-11-23',
        venue: 'Journal of cheminformatics',
        volume: '8',
        issue: undefined,
        pages: '66',
        publicationType: 'Journal Article',
        pmid: '27933103',
        pmcid: 'PMC5122160',
        isOpenAccess: true,
        openAccessUrl: 'https://pmc.ncbi.nlm.nih.gov/articles/PMC5122160/',
      },
    ]);
  });
  it('reads a labelled abstract from efetch XML', () => {
    const [paper] = pubmed.parseEfetch(recording('pubmed', 'efetch-pubmed-22351513-structured-abstract.xml'));
    expect([paper!.pmid, paper!.doi, paper!.pages, paper!.publicationDate, paper!.authors[0], paper!.venue]).to.deep.equal([
      '22351513',
      '10.1002/jsfa.5627',
      '2310-2315',
      '2012-08-30',
      'Khan R',
      'Journal of the science of food and agriculture',
    ]);
    expect(paper!.abstract!.split('\n').map((line) => line.split(':')[0])).to.deep.equal(['BACKGROUND', 'RESULTS', 'CONCLUSION']);
  });
  it("takes the article's own ids, not those of its references, and keeps inline-marked abstract text in order", () => {
    const [paper] = pubmed.parseEfetch(recording('pubmed', 'efetch-pubmed-29915538-with-pmc-and-references.xml'));
    expect([paper!.doi, paper!.pmcid, paper!.year]).to.deep.equal(['10.3389/fphar.2018.00576', 'PMC5994433', 2018]);
    expect(paper!.abstract!.slice(0, 60)).to.equal('Background: Semaglutide, a newly once-weekly glucagon like p');
  });
  it('turns an ERROR inside an HTTP 200 into a source failure, never zero results', () => {
    expect(() => parseSearch('pubmed', { esearchresult: { ERROR: 'Empty term and query_key - nothing todo' } })).to.throw(
      'pubmed reported an error: Empty term and query_key - nothing todo',
    );
  });
});

describeRecordings('arxiv', () => {
  it('reads a new-style id entry (a title of "0" stays "0")', () => {
    const { papers } = arxiv.parseFeed(recording('arxiv', 'id_list-2104.12255v1.xml'));
    expect(
      papers.map((paper) => [paper.nativeId, paper.arxivId, paper.title, paper.authors, paper.publicationDate, paper.openAccessUrl, paper.venue]),
    ).to.deep.equal([['2104.12255v1', '2104.12255', '0', ['Quan Thoi Minh Nguyen'], '2021-04-20', 'https://arxiv.org/pdf/2104.12255v1', 'arXiv (cs.CR)']]);
  });
  it('reads an old-style id with its journal reference, and decodes entities once', () => {
    const [paper] = arxiv.parseFeed(recording('arxiv', 'id_list-astro-ph-0601001.xml')).papers;
    expect([paper!.arxivId, paper!.venue, paper!.authors.length, paper!.year]).to.deep.equal(['astro-ph/0601001', 'ActaAstron.56:1-50,2006', 4, 2006]);
    expect(paper!.abstract).to.contain('Gould & Morgan (2003)').and.contain('V_max<17.5');
  });
  it('reads a search feed with DOIs, an unknown id as no entries, and a malformed id as the error it reports', () => {
    const feed = arxiv.parseFeed(recording('arxiv', 'query-search_query-testing-max10-trimmed.xml'));
    expect([feed.total, feed.papers.map((paper) => [paper.arxivId, paper.doi])]).to.deep.equal([
      214881,
      [
        ['2202.12139', '10.1109/icstw55395.2022.00035'],
        ['2405.13786', '10.1109/icstw58534.2023.00023'],
        ['2005.14124', '10.1145/3395363.3397376'],
      ],
    ]);
    expect(arxiv.parseFeed(recording('arxiv', 'id_list-0000.0000-no-results.xml'))).to.deep.equal({ total: 0, papers: [] });
    expect(() => arxiv.parseFeed(recording('arxiv', 'id_list-abc-error-400.xml'))).to.throw('arxiv reported an error: incorrect id format for abc');
  });
});

describeRecordings('inspire-hep', () => {
  it('reads a literature search hit and a single record alike', () => {
    const expected = {
      nativeId: '1842768',
      url: 'https://inspirehep.net/literature/1842768',
      title: 'Systematics of electric dipole excitations for odd-mass 233−239 U isotopes',
      doi: '10.1016/j.nuclphysa.2021.122138',
      authors: ['Tabar, E.', 'Yakut, H.'],
      year: 2021,
      venue: 'Nucl.Phys.A',
      volume: '1008',
      pages: '122138',
      publicationType: 'article',
      citationCount: 0,
      inspireId: '1842768',
    };
    const [hit] = inspire.parseSearch(json('inspire-hep', 'literature-list-size10-page1.json'));
    expect({ ...hit, abstract: undefined, publicationDate: undefined, arxivId: undefined, isOpenAccess: undefined, openAccessUrl: undefined }).to.deep.include(
      expected,
    );
    const record = inspire.parseRecord(json('inspire-hep', 'literature-record-1842768.json').metadata as Record<string, unknown>)!;
    expect(record.abstract!.slice(0, 40)).to.equal('We have investigated the dipole strength');
  });
});

describeRecordings('eric', () => {
  it('reads the Solr documents with id, authors, year and landing page', () => {
    const { total, papers } = eric.parseSearch(json('eric', 'search-blockchain-json.json'));
    expect(total).to.equal(56);
    expect([papers[0]!.ericId, papers[0]!.url, papers[0]!.title, papers[0]!.authors, papers[0]!.year, papers[0]!.venue]).to.deep.equal([
      'EJ1286736',
      'https://eric.ed.gov/?id=EJ1286736',
      'Competition-Based Learning of Blockchain Programming',
      ['Çulha, Davut'],
      2021,
      'Journal of Educational Technology and Online Learning',
    ]);
  });

  it('asks by name for every field it reads (fields=), so source and e_fulltextauth are not left out of the answer', async () => {
    const fake = await startFakeUpstream();
    try {
      fake.on('/eric/', { body: recording('eric', 'search-blockchain-json.json'), contentType: 'application/json' });
      const upstream = new UpstreamClient({ sources: { ERIC: { url: `${fake.url}/eric` } }, cache: new MemoryCache() });
      const { papers } = await eric.searchRecords(upstream, { query: 'blockchain', yearFrom: 2020, openAccessOnly: true, limit: 5 });
      expect(papers).to.have.length(1);
      expect(Object.fromEntries(fake.hitsOn('/eric/')[0]!.query)).to.deep.equal({
        search: '(blockchain) AND publicationdateyear:[2020 TO *] AND e_fulltextauth:1',
        fields: 'id,title,author,publicationdateyear,source,publicationtype,publisher,description,e_fulltextauth',
        format: 'json',
        start: '0',
        rows: '5',
      });
      await upstream.close();
    } finally {
      await fake.close();
    }
  });
});

describeRecordings('dblp', () => {
  it("reads string numbers, string authors and {@pid,text} authors, and drops the title's full stop", () => {
    const old = dblp.parseSearch(json('dblp', 'search-publ-q-test-star-2019.json'));
    const current = dblp.parseSearch(json('dblp', 'search-publ-q-test-star-h1-pid-format.json'));
    expect([old.total, old.papers.length, current.total]).to.deep.equal([67660, 30, 99047]);
    for (const paper of [old.papers[0]!, current.papers[0]!]) {
      expect([paper.dblpKey, paper.title, paper.doi, paper.year, paper.pages, paper.authors[0], paper.venue]).to.deep.equal([
        'conf/ats/ShinogiYHTY05',
        'A Test Cost Reduction Method by Test Response and Test Vector Overlapping for Full-Scan Test Architecture',
        '10.1109/ats.2005.17',
        2005,
        '366-371',
        'Tsuyoshi Shinogi',
        'Asian Test Symposium',
      ]);
    }
    expect(current.papers[0]!.isOpenAccess).to.equal(false);
  });
});

describeRecordings('europepmc', () => {
  it('reads core results with Y/N flags, PMCID and open-access link', () => {
    const { total, papers } = europepmc.parseSearch(json('europepmc', 'search-query-cancer-resultType-core-json.json'));
    expect(total).to.equal(5059039);
    expect(papers.map((paper) => [paper.nativeId, paper.pmid, paper.pmcid, paper.isOpenAccess, paper.openAccessUrl, paper.pages])).to.deep.equal([
      ['MED/39709209', '39709209', undefined, false, undefined, '2603-2604'],
      ['MED/40437959', '40437959', 'PMC12120539', true, 'https://europepmc.org/articles/PMC12120539', 'e70059'],
    ]);
    expect(europepmc.parseSearch(json('europepmc', 'search-no-results-json.json'))).to.deep.equal({ total: 0, papers: [] });
  });
});

describeRecordings('unpaywall', () => {
  it('reads the best open-access copy (PDF first), closed papers without a link', () => {
    expect(unpaywall.parseDoi(json('unpaywall', 'v2-doi-10.1073-pnas.1414271111-bronze-oa.json'))).to.deep.equal({
      doi: '10.1073/pnas.1414271111',
      isOa: true,
      oaStatus: 'bronze',
      url: 'https://www.pnas.org/content/pnas/111/45/E4832.full.pdf',
      license: undefined,
      version: 'publishedVersion',
      hostType: 'publisher',
      journalIsInDoaj: false,
    });
    expect(unpaywall.parseDoi(json('unpaywall', 'v2-doi-10.1007-s40278-023-41815-2-closed.json'))).to.deep.include({
      isOa: false,
      oaStatus: 'closed',
      url: undefined,
    });
    expect(unpaywall.parseDoi(json('unpaywall', 'v2-doi-10.1016-j.xgen.2025.100814.json'))).to.deep.include({
      oaStatus: 'gold',
      license: 'cc-by',
      journalIsInDoaj: true,
    });
  });
});

describeRecordings('doaj', () => {
  it('reads a journal record (title trimmed, both ISSNs, APC as published) and a search', () => {
    expect(doaj.parseJournal(json('doaj', 'v2-journal-by-id-f3f2e7f23d444370ae5f5199f85bc100.json'))).to.deep.equal({
      id: 'f3f2e7f23d444370ae5f5199f85bc100',
      title: 'PLoS Biology',
      issns: ['1544-9173', '1545-7885'],
      publisher: 'Public Library of Science (PLoS)',
      country: 'US',
      hasApc: true,
      apcPrices: [{ currency: 'USD', price: 2900 }],
      licenses: ['CC BY'],
      subjects: ['Biology (General)'],
      homepageUrl: 'http://journals.plos.org/plosbiology/',
    });
    const search = doaj.parseSearch(json('doaj', 'v2-search-journals-publisher-ecology-pageSize2.json'));
    expect([search.total, search.journals.map((journal) => [journal.title, journal.issns, journal.hasApc])]).to.deep.equal([
      10,
      [
        ['Computational Ecology and Software', ['2220-721X'], false],
        ['Вопросы лесной науки', ['2658-607X'], false],
      ],
    ]);
  });
});

import { expect } from 'chai';
import { deduplicate, familyName, type Paper } from '../../src/literature/paper.ts';

const paper = (fields: Partial<Paper> & { nativeId: string }): Paper => ({ authors: [], ...fields });

describe('de-duplication across sources', () => {
  it('one paper found by OpenAlex, PubMed, arXiv and Crossref under different ids and title casings comes back once with every id', () => {
    const merged = deduplicate([
      {
        source: 'openalex',
        retrievedAt: '2026-01-01T00:00:00.000Z',
        papers: [
          paper({
            nativeId: 'W4396723768',
            title: 'Augmenting large language models with chemistry tools',
            doi: '10.1038/s42256-024-00832-8',
            openalexId: 'W4396723768',
            year: 2024,
            authors: ['Andres M. Bran'],
            citationCount: 236,
          }),
        ],
      },
      {
        source: 'pubmed',
        retrievedAt: '2026-01-01T00:00:01.000Z',
        papers: [
          paper({
            nativeId: '38799228',
            title: 'Augmenting Large Language Models with Chemistry Tools.',
            pmid: '38799228',
            pmcid: 'PMC11116106',
            doi: '10.1038/s42256-024-00832-8',
            year: 2024,
            authors: ['Bran AM'],
          }),
        ],
      },
      {
        source: 'arxiv',
        retrievedAt: '2026-01-01T00:00:02.000Z',
        papers: [
          paper({
            nativeId: '2304.05376v5',
            title: 'AUGMENTING LARGE LANGUAGE MODELS WITH CHEMISTRY TOOLS',
            arxivId: '2304.05376',
            doi: '10.1038/S42256-024-00832-8',
            year: 2023,
            authors: ['Andres M Bran'],
          }),
        ],
      },
      {
        source: 'crossref',
        retrievedAt: '2026-01-01T00:00:03.000Z',
        papers: [
          paper({
            nativeId: '10.1038/s42256-024-00832-8',
            title: 'Augmenting large language models with chemistry tools',
            doi: '10.1038/s42256-024-00832-8',
            year: 2024,
            authors: ['Andres M. Bran'],
            venue: 'Nature Machine Intelligence',
            citationCount: 240,
          }),
        ],
      },
    ]);
    expect(merged).to.have.length(1);
    const [entry] = merged;
    expect(entry!.foundIn).to.deep.equal(['openalex', 'pubmed', 'arxiv', 'crossref']);
    expect(entry!.primary.source).to.equal('openalex');
    const { doi, openalexId, pmid, pmcid, arxivId, venue, citationCount, year } = entry!.merged;
    expect({ doi, openalexId, pmid, pmcid, arxivId, venue, citationCount, year }).to.deep.equal({
      doi: '10.1038/s42256-024-00832-8',
      openalexId: 'W4396723768',
      pmid: '38799228',
      pmcid: 'PMC11116106',
      arxivId: '2304.05376',
      venue: 'Nature Machine Intelligence',
      citationCount: 240,
      year: 2024,
    });
  });
  it('joins records without shared ids by normalised title, year and first author', () => {
    const merged = deduplicate([
      {
        source: 'dblp',
        retrievedAt: 'x',
        papers: [paper({ nativeId: 'conf/a/B05', title: 'A Test Cost Reduction Method.', year: 2005, authors: ['Tsuyoshi Shinogi'] })],
      },
      {
        source: 'eric',
        retrievedAt: 'x',
        papers: [paper({ nativeId: 'EJ1', title: 'a test cost reduction method', year: 2005, authors: ['Shinogi, Tsuyoshi'] })],
      },
    ]);
    expect(merged.map((entry) => entry.foundIn)).to.deep.equal([['dblp', 'eric']]);
  });
  it('two different papers with the same title but different years stay two', () => {
    const merged = deduplicate([
      { source: 'openalex', retrievedAt: 'x', papers: [paper({ nativeId: 'W1', title: 'Climate change and health', year: 2009, authors: ['A. Smith'] })] },
      {
        source: 'crossref',
        retrievedAt: 'x',
        papers: [paper({ nativeId: '10.1/b', title: 'Climate Change and Health', year: 2019, authors: ['A. Smith'], doi: '10.1/b' })],
      },
    ]);
    expect(merged.map((entry) => [entry.merged.year, entry.foundIn])).to.deep.equal([
      [2009, ['openalex']],
      [2019, ['crossref']],
    ]);
  });
  it("keeps each source's relevance order, taking the sources in turn", () => {
    const merged = deduplicate([
      { source: 'openalex', retrievedAt: 'x', papers: [paper({ nativeId: 'W1', doi: '10.1/a' }), paper({ nativeId: 'W2', doi: '10.1/b' })] },
      { source: 'pubmed', retrievedAt: 'x', papers: [paper({ nativeId: '1', doi: '10.1/c' }), paper({ nativeId: '2', doi: '10.1/a' })] },
    ]);
    expect(merged.map((entry) => [entry.primary.paper.nativeId, entry.foundIn])).to.deep.equal([
      ['W1', ['openalex', 'pubmed']],
      ['1', ['pubmed']],
      ['W2', ['openalex']],
    ]);
  });
  it('reads family names in every byline form', () => {
    expect(['Markus Ralser', 'Ralser M', 'Ralser, Markus', 'M. Ralser', 'Gustavo A. B. da Fonseca', 'van der Berg JH'].map(familyName)).to.deep.equal([
      'ralser',
      'ralser',
      'ralser',
      'ralser',
      'da fonseca',
      'van der berg',
    ]);
  });
});

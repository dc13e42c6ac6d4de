/**
 * arXiv API (Atom XML): search by words (`all:`), with the year range pushed down as a
 * submittedDate range, and lookup by id (new or old style). Parsed with the literature XML parser,
 * which never expands entities. An unknown id is a 200 feed without entries; a malformed one a 400
 * whose Atom body holds one entry titled "Error".
 */
import { normalizeArxivId, normalizeDoi } from '../literature/identifiers.ts';
import type { Paper } from '../literature/paper.ts';
import { asArray, parseSourceXml, textOf } from '../literature/xml.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';

export const SOURCE = 'arxiv' as const;

type Node = Record<string, unknown>;
const obj = (value: unknown): Node | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Node) : undefined);

export function parseFeed(xml: string): { total?: number; papers: Paper[] } {
  const feed = obj(parseSourceXml(SOURCE, xml).feed);
  if (!feed) throw new UpstreamError(SOURCE, 'bad_body', 'arxiv answered with XML that is not an Atom feed');
  const entries = asArray(feed.entry as Node[]);
  const error = entries.find((entry) => /\/api\/errors/.test(textOf(entry.id) ?? ''));
  if (error) throw new UpstreamError(SOURCE, 'http_error', `arxiv reported an error: ${textOf(error.summary) ?? 'unknown error'}`);
  const total = Number(textOf(feed['opensearch:totalResults']));
  const papers = entries.flatMap((entry): Paper[] => {
    const idUrl = textOf(entry.id) ?? '';
    const versioned = normalizeArxivId(/arxiv\.org\/abs\/(.+)$/.exec(idUrl)?.[1]);
    if (!versioned) return [];
    const base = versioned.replace(/v\d+$/, '');
    const published = textOf(entry.published);
    const links = asArray(entry.link as Node[]);
    const pdf = links.find((link) => link['@title'] === 'pdf' || link['@type'] === 'application/pdf')?.['@href'];
    const category = obj(entry['arxiv:primary_category'])?.['@term'];
    return [
      {
        nativeId: versioned,
        url: `https://arxiv.org/abs/${versioned}`,
        title: textOf(entry.title),
        doi: normalizeDoi(textOf(entry['arxiv:doi'])),
        authors: asArray(entry.author as Node[])
          .map((author) => textOf(author.name))
          .filter((name): name is string => !!name),
        year: published ? Number(published.slice(0, 4)) : undefined,
        publicationDate: published?.slice(0, 10),
        venue: textOf(entry['arxiv:journal_ref']) ?? (typeof category === 'string' ? `arXiv (${category})` : 'arXiv'),
        publicationType: 'preprint',
        isOpenAccess: true,
        openAccessUrl: typeof pdf === 'string' ? pdf : `https://arxiv.org/pdf/${versioned}`,
        abstract: textOf(entry.summary),
        arxivId: base,
      },
    ];
  });
  return { total: Number.isFinite(total) ? total : undefined, papers };
}

export interface PaperSearch {
  query: string;
  yearFrom?: number;
  yearTo?: number;
  limit: number;
}

/** Words go to `all:` (quotes and field syntax of the caller are neutralised); years as a submittedDate range. */
export function searchQuery(search: Pick<PaperSearch, 'query' | 'yearFrom' | 'yearTo'>): string {
  const words = search.query
    .replace(/["():[\]]/g, ' ')
    .split(/\s+/)
    .filter((word) => word !== '' && !/^(AND|OR|ANDNOT)$/.test(word));
  let query = words.map((word) => `all:${word}`).join(' AND ');
  if (search.yearFrom !== undefined || search.yearTo !== undefined) {
    query += ` AND submittedDate:[${search.yearFrom ?? 1991}01010000 TO ${search.yearTo ?? 2100}12312359]`;
  }
  return query;
}

export async function searchPapers(upstream: UpstreamClient, search: PaperSearch): Promise<{ papers: Paper[]; retrievedAt: string }> {
  const answer = await upstream.getText(SOURCE, {
    path: '/query',
    searchParams: { search_query: searchQuery(search), start: 0, max_results: Math.min(100, search.limit), sortBy: 'relevance', sortOrder: 'descending' },
  });
  return { papers: parseFeed(answer.body).papers, retrievedAt: answer.retrievedAt };
}

/** One preprint by arXiv id; undefined when arXiv does not know it. */
export async function getPaper(upstream: UpstreamClient, id: string): Promise<{ paper?: Paper; retrievedAt: string } | undefined> {
  const answer = await upstream.getText(SOURCE, { path: '/query', searchParams: { id_list: id, max_results: 1 } });
  const [paper] = parseFeed(answer.body).papers;
  return paper ? { paper, retrievedAt: answer.retrievedAt } : undefined;
}

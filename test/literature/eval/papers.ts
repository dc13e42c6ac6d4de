/**
 * The real papers behind the verify_references evaluation, read from
 * test/fixtures/literature/eval-papers.txt (one paper a line, with the public bibliography it was
 * taken from). Retracted papers carry the title the index shows (with its "RETRACTED:" prefix) and
 * their retraction notice, which the index fakes serve as a record of its own.
 */
import { readFileSync } from 'node:fs';

export type PaperKind = 'article' | 'proceedings' | 'posted' | 'arxiv';

export interface Author {
  family: string;
  given: string;
}

export interface Retraction {
  /** The title as the index shows it ("RETRACTED: …", "RETRACTED ARTICLE: …", or unchanged). */
  indexTitle: string;
  noticeDoi: string;
  noticeTitle: string;
  noticeYear: number;
}

export interface EvalPaper {
  /** Position in the data file, from 0: the paper's id in the evaluation. */
  id: number;
  /** The public bibliography the metadata was copied from (repository and file). */
  source: string;
  kind: PaperKind;
  authors: Author[];
  /** More authors follow those listed. */
  moreAuthors: boolean;
  year: number;
  title: string;
  venue: string;
  volume?: string;
  issue?: string;
  pages?: string;
  doi?: string;
  retraction?: Retraction;
  /** References to the paper copied verbatim from its source file (how people really wrote them). */
  verbatim: string[];
}

const KINDS: Record<string, PaperKind> = { a: 'article', c: 'proceedings', p: 'posted', x: 'arxiv' };
const FILE = new URL('../../fixtures/literature/eval-papers.txt', import.meta.url);

/** Source letters of the data file's header ("#   X owner/repo path") → "owner/repo path". */
function sources(lines: string[]): Map<string, string> {
  const found = new Map<string, string>();
  for (const line of lines.filter((text) => text.startsWith('#   '))) {
    for (const match of line.matchAll(/\b([A-Z]) ([\w.-]+\/[\w.-]+ [\w./-]+)/g)) found.set(match[1]!, match[2]!);
  }
  found.set('K', 'public sample bibliographies and lists of retracted DOIs (repository not named by the search)');
  return found;
}

export function loadPapers(): EvalPaper[] {
  const lines = readFileSync(FILE, 'utf8').split('\n');
  const named = sources(lines);
  const rows = lines.filter((line) => line.trim() !== '' && !line.startsWith('#'));
  const papers: EvalPaper[] = [];
  for (const line of rows) {
    if (line.startsWith('=|')) papers.at(-1)!.verbatim.push(line.slice(2));
    else papers.push(paperOf(line, papers.length, named));
  }
  return papers;
}

function paperOf(line: string, id: number, named: Map<string, string>): EvalPaper {
  const [source, kind, authors, year, title, venue, volume, issue, pages, doi, indexTitle, noticeDoi, noticeTitle, noticeYear] = line.split('|');
  const names = authors!.split(';').map((name) => name.trim());
  const empty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  return {
    id,
    source: named.get(source!) ?? source!,
    kind: KINDS[kind!]!,
    authors: names
      .filter((name) => name !== '+')
      .map((name) => {
        const [family, given = ''] = name.split(',').map((part) => part.trim());
        return { family: family!, given };
      }),
    moreAuthors: names.includes('+'),
    year: Number(year),
    title: title!,
    venue: venue!,
    volume: empty(volume),
    issue: empty(issue),
    pages: empty(pages),
    doi: empty(doi)?.toLowerCase(),
    retraction: indexTitle ? { indexTitle, noticeDoi: noticeDoi!.toLowerCase(), noticeTitle: noticeTitle!, noticeYear: Number(noticeYear) } : undefined,
    verbatim: [],
  };
}

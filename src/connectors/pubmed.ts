/**
 * PubMed through NCBI E-utilities: esearch (ids in relevance order), esummary (metadata, JSON) and
 * efetch (XML, for abstracts). E-utilities report many failures as HTTP 200 with an `ERROR` field
 * (or an <ERROR> element): those are source failures here, never an empty result. NCBI sends no
 * Retry-After; the upstream layer paces the "ncbi" host group at its published 3 requests/s.
 */
import { normalizeDoi, normalizePmcid } from '../literature/identifiers.ts';
import type { Paper } from '../literature/paper.ts';
import { asArray, parseSourceXml, textOf } from '../literature/xml.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { efetchXml, eutilsJson } from './ncbi-eutils.ts';

export const SOURCE = 'pubmed' as const;

type Json = Record<string, unknown>;
const obj = (value: unknown): Json | undefined => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : undefined);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** The ids of an esearch answer; an ERROR in the 200 body is a source failure. */
export function parseSearch(body: unknown): { count: number; ids: string[] } {
  const result = obj(obj(body)?.esearchresult);
  const error = str(result?.ERROR) ?? str(obj(body)?.error);
  if (error) throw new UpstreamError(SOURCE, 'http_error', `pubmed reported an error: ${error}`);
  if (!result || !Array.isArray(result.idlist)) throw new UpstreamError(SOURCE, 'bad_body', 'pubmed answered without an esearchresult id list');
  return { count: Number(result.count ?? 0), ids: (result.idlist as unknown[]).filter((id): id is string => typeof id === 'string' && /^\d+$/.test(id)) };
}

/** Papers of an esummary answer, in the order of `result.uids`; ids that could not be summarised are left out. */
export function parseSummaries(body: unknown): Paper[] {
  const top = obj(body);
  const error = str(top?.error);
  if (error) throw new UpstreamError(SOURCE, 'http_error', `pubmed reported an error: ${error}`);
  const result = obj(top?.result);
  if (!result || !Array.isArray(result.uids)) throw new UpstreamError(SOURCE, 'bad_body', 'pubmed answered without an esummary result');
  return (result.uids as unknown[]).flatMap((uid) => {
    const doc = obj(result[String(uid)]);
    if (!doc || doc.error) return [];
    const ids = Array.isArray(doc.articleids) ? (doc.articleids as unknown[]).map(obj) : [];
    const idOf = (type: string) => str(ids.find((entry) => entry?.idtype === type)?.value);
    const year = /^(\d{4})/.exec(str(doc.pubdate) ?? str(doc.sortpubdate) ?? '')?.[1];
    const sortDate = /^(\d{4})\/(\d{2})\/(\d{2})/.exec(str(doc.sortpubdate) ?? '');
    const pmid = String(doc.uid);
    return [
      {
        nativeId: pmid,
        url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
        title: str(doc.title),
        doi: normalizeDoi(idOf('doi')),
        authors: Array.isArray(doc.authors) ? (doc.authors as unknown[]).map((author) => str(obj(author)?.name)).filter((name): name is string => !!name) : [],
        year: year ? Number(year) : undefined,
        publicationDate: sortDate ? `${sortDate[1]}-${sortDate[2]}-${sortDate[3]}` : undefined,
        venue: str(doc.fulljournalname) ?? str(doc.source),
        volume: str(doc.volume),
        issue: str(doc.issue),
        pages: str(doc.pages),
        publicationType: Array.isArray(doc.pubtype) ? str(doc.pubtype[0]) : undefined,
        pmid,
        pmcid: normalizePmcid(idOf('pmc')),
        isOpenAccess: idOf('pmc') ? true : undefined,
        openAccessUrl: idOf('pmc') ? `https://pmc.ncbi.nlm.nih.gov/articles/${normalizePmcid(idOf('pmc'))}/` : undefined,
      } satisfies Paper,
    ];
  });
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** Articles of an efetch XML answer (PubmedArticleSet), with abstracts; the article's own ids only, never its references'. */
export function parseEfetch(xml: string): Paper[] {
  // Inline markup (<b>, <i>, <sup>, MathML…) inside titles and abstracts would be torn out of its text by the parser.
  const document = parseSourceXml(SOURCE, xml.replace(/<\/?(b|i|u|sup|sub|em|strong|mml:[a-z]+)(\s[^>]*)?>/g, ''));
  const set = obj(document.PubmedArticleSet);
  if (!set) {
    const error = textOf(obj(document.eFetchResult)?.ERROR) ?? textOf(document.ERROR);
    if (error) throw new UpstreamError(SOURCE, 'http_error', `pubmed reported an error: ${error}`);
    if (document.PubmedArticleSet === '' || document.PubmedArticleSet === undefined) return [];
    throw new UpstreamError(SOURCE, 'bad_body', 'pubmed answered with XML that is not a PubmedArticleSet');
  }
  return asArray(set.PubmedArticle as Json[]).flatMap((entry) => {
    const citation = obj(entry.MedlineCitation);
    const article = obj(citation?.Article);
    const pmid = textOf(citation?.PMID);
    if (!citation || !article || !pmid) return [];
    const journal = obj(article.Journal);
    const issue = obj(journal?.JournalIssue);
    const pubDate = obj(issue?.PubDate);
    const year = Number(textOf(pubDate?.Year) ?? /\d{4}/.exec(textOf(pubDate?.MedlineDate) ?? '')?.[0]);
    const monthText = textOf(pubDate?.Month)?.toLowerCase();
    const month = monthText ? MONTHS.indexOf(monthText.slice(0, 3)) + 1 || Number(monthText) : undefined;
    const day = textOf(pubDate?.Day);
    const authors = asArray(obj(article.AuthorList)?.Author as Json[])
      .map((author) => {
        const collective = textOf(author.CollectiveName);
        if (collective) return collective;
        return [textOf(author.LastName), textOf(author.Initials)].filter(Boolean).join(' ');
      })
      .filter((name) => name !== '');
    const sections = asArray(obj(article.Abstract)?.AbstractText as unknown[])
      .map((section) => {
        const label = obj(section)?.['@Label'];
        const text = textOf(section);
        return text ? (typeof label === 'string' ? `${label}: ${text}` : text) : undefined;
      })
      .filter((text): text is string => !!text);
    const ownIds = asArray(obj(obj(entry.PubmedData)?.ArticleIdList)?.ArticleId as unknown[]);
    const idOf = (type: string) => textOf(ownIds.find((id) => obj(id)?.['@IdType'] === type));
    const elocationDoi = textOf(asArray(article.ELocationID as unknown[]).find((id) => obj(id)?.['@EIdType'] === 'doi'));
    const pagination = obj(article.Pagination);
    const start = textOf(pagination?.StartPage);
    const end = textOf(pagination?.EndPage);
    const pmcid = normalizePmcid(idOf('pmc'));
    return [
      {
        nativeId: pmid,
        url: `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`,
        title: textOf(article.ArticleTitle),
        doi: normalizeDoi(idOf('doi') ?? elocationDoi),
        authors,
        year: Number.isInteger(year) ? year : undefined,
        publicationDate: Number.isInteger(year) && month && day ? `${year}-${String(month).padStart(2, '0')}-${day.padStart(2, '0')}` : undefined,
        venue: textOf(journal?.Title),
        volume: textOf(issue?.Volume),
        issue: textOf(issue?.Issue),
        pages: start && end ? `${start}-${end}` : (start ?? textOf(pagination?.MedlinePgn)),
        publicationType: textOf(asArray(obj(article.PublicationTypeList)?.PublicationType as unknown[])[0]),
        abstract: sections.length > 0 ? sections.join('\n') : undefined,
        pmid,
        pmcid,
        isOpenAccess: pmcid ? true : undefined,
        openAccessUrl: pmcid ? `https://pmc.ncbi.nlm.nih.gov/articles/${pmcid}/` : undefined,
      } satisfies Paper,
    ];
  });
}

export interface ArticleSearch {
  query: string;
  yearFrom?: number;
  yearTo?: number;
  openAccessOnly?: boolean;
  limit: number;
}

/** esearch (relevance order, year range as publication dates, free full text as a subset) then esummary. */
export async function searchArticles(upstream: UpstreamClient, search: ArticleSearch): Promise<{ papers: Paper[]; retrievedAt: string }> {
  const term = search.openAccessOnly ? `(${search.query}) AND free full text[sb]` : search.query;
  const dated = search.yearFrom !== undefined || search.yearTo !== undefined;
  const found = await eutilsJson(upstream, SOURCE, 'esearch', {
    db: 'pubmed',
    term,
    retmax: Math.min(100, search.limit),
    sort: 'relevance',
    datetype: dated ? 'pdat' : undefined,
    mindate: dated ? String(search.yearFrom ?? 1000) : undefined,
    maxdate: dated ? String(search.yearTo ?? 3000) : undefined,
  });
  const { ids } = parseSearch(found.body);
  if (ids.length === 0) return { papers: [], retrievedAt: found.retrievedAt };
  const summary = await eutilsJson(upstream, SOURCE, 'esummary', { db: 'pubmed', id: ids.join(',') });
  return { papers: parseSummaries(summary.body), retrievedAt: summary.retrievedAt };
}

/** One article with its abstract (efetch); undefined when PubMed does not know the PMID. */
export async function fetchArticle(upstream: UpstreamClient, pmid: string): Promise<{ paper?: Paper; retrievedAt: string } | undefined> {
  const answer = await efetchXml(upstream, SOURCE, { db: 'pubmed', id: pmid });
  const paper = parseEfetch(answer.body).find((candidate) => candidate.pmid === pmid);
  return paper ? { paper, retrievedAt: answer.retrievedAt } : undefined;
}

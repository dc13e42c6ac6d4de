/**
 * Citation export: the papers of search_papers, get_paper and verify_references (the matched real
 * papers) as BibTeX, RIS or CSL-JSON, when the request's Accept header asks for one. Built with
 * citation-js from CSL-JSON items that carry stable citation keys and every DOI.
 */
import { Cite } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-csl';
import '@citation-js/plugin-ris';
import { parse as parseName } from '@citation-js/name';
import { tools } from '../../generated/tools.ts';
import type { ToolName } from '../../generated/types.ts';
import { clip } from '../errors.ts';

export const CITATION_MEDIA_TYPES = {
  bibtex: 'application/x-bibtex',
  ris: 'application/x-research-info-systems',
  csl: 'application/vnd.citationstyles.csl+json',
} as const;

export type CitationFormat = keyof typeof CITATION_MEDIA_TYPES;

/** Tools marked `citation_export: true` in tools.yaml. */
export const EXPORTING_TOOLS: ReadonlySet<ToolName> = new Set(
  Object.values(tools)
    .filter((tool) => tool.citationExport)
    .map((tool) => tool.name as ToolName),
);

/** What a paper record holds that a citation needs (search_papers / get_paper data, or verify_references' matched). */
interface PaperFacts {
  title?: string;
  authors?: string[];
  year?: number;
  publication_date?: string;
  doi?: string;
  venue?: string;
  journal?: string;
  publisher?: string;
  volume?: string;
  issue?: string;
  pages?: string;
  publication_type?: string;
  abstract?: string;
  pmid?: string;
  pmcid?: string;
  arxiv_id?: string;
  url?: string;
}

interface PaperRecord {
  title?: string;
  url?: string;
  data: PaperFacts & { matched?: PaperFacts };
}

export type CslItem = Record<string, unknown> & { id: string; 'citation-key': string };

function cslType(kind: string | undefined): string {
  if (!kind) return 'article-journal';
  if (/preprint|posted-content|repository/i.test(kind)) return 'article';
  if (/proceedings|conference|inproceedings/i.test(kind)) return 'paper-conference';
  if (/book-chapter|chapter/i.test(kind)) return 'chapter';
  if (/^book|monograph/i.test(kind)) return 'book';
  if (/thesis|dissertation/i.test(kind)) return 'thesis';
  if (/dataset/i.test(kind)) return 'dataset';
  return 'article-journal';
}

function person(name: string): Record<string, string> {
  const parsed = parseName(name);
  if (!parsed.family) return { literal: name };
  const out: Record<string, string> = { family: parsed.family };
  for (const part of ['given', 'non-dropping-particle', 'dropping-particle', 'suffix'] as const) if (parsed[part]) out[part] = parsed[part]!;
  return out;
}

/** Letters of a word without accents or punctuation, lower-case. */
function keyPart(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9]/g, '')
    .toLowerCase();
}

const SMALL_WORDS = new Set(['a', 'an', 'the', 'on', 'of', 'in', 'for', 'and', 'to', 'with', 'at', 'by', 'from']);

/** `<first author's family name><year><first significant title word>`, e.g. `smith2020deep`. */
function baseKey(facts: PaperFacts, title: string | undefined): string {
  const firstAuthor = facts.authors?.[0];
  const family = firstAuthor ? keyPart(person(firstAuthor).family ?? firstAuthor.split(/\s+/).at(-1) ?? '') : '';
  const word =
    (title ?? '')
      .split(/\s+/)
      .map(keyPart)
      .find((w) => w.length > 0 && !SMALL_WORDS.has(w)) ?? '';
  return `${family || 'anon'}${facts.year ?? 'nd'}${word}`;
}

function dateParts(facts: PaperFacts): number[] | undefined {
  if (facts.publication_date && /^\d{4}-\d{2}-\d{2}$/.test(facts.publication_date)) return facts.publication_date.split('-').map(Number);
  return facts.year !== undefined ? [facts.year] : undefined;
}

/** One CSL-JSON item per paper; verify_references records without a matched paper are left out. */
export function toCslItems(tool: ToolName, records: readonly PaperRecord[]): CslItem[] {
  const used = new Map<string, number>();
  const items: CslItem[] = [];
  for (const record of records) {
    const facts: PaperFacts | undefined = tool === 'verify_references' ? record.data.matched : record.data;
    if (!facts) continue;
    const title = facts.title ?? record.title;
    // Stable keys: the same paper gets the same key; a second paper with the same base gets a, b, …
    const base = baseKey(facts, title);
    const seen = used.get(base) ?? 0;
    used.set(base, seen + 1);
    const key = seen === 0 ? base : `${base}${String.fromCharCode(96 + Math.min(seen, 26))}`;
    const issued = dateParts(facts);
    const item: CslItem = { id: key, 'citation-key': key, type: cslType(facts.publication_type) };
    const put = (field: string, value: unknown) => {
      if (value !== undefined && value !== '') item[field] = value;
    };
    put('title', title);
    put('author', facts.authors?.length ? facts.authors.map(person) : undefined);
    put('issued', issued ? { 'date-parts': [issued] } : undefined);
    put('container-title', facts.venue ?? facts.journal);
    put('publisher', facts.publisher);
    put('volume', facts.volume);
    put('issue', facts.issue);
    put('page', facts.pages);
    put('DOI', facts.doi);
    put('PMID', facts.pmid);
    put('PMCID', facts.pmcid);
    // A DOI resolver link adds nothing to the DOI (and RIS would write it instead of the DO field).
    const url = facts.url ?? record.url;
    put('URL', url && !/^https?:\/\/(dx\.)?doi\.org\//i.test(url) ? url : undefined);
    put('abstract', facts.abstract);
    if (facts.arxiv_id) put('number', `arXiv:${facts.arxiv_id}`);
    items.push(item);
  }
  return items;
}

export function formatCitations(format: CitationFormat, items: CslItem[]): string {
  if (format === 'csl') return `${JSON.stringify(items, null, 2)}\n`;
  if (items.length === 0) return '';
  if (format === 'bibtex') return new Cite(items).format('bibtex', { format: 'text' });
  return risText(new Cite(items).format('ris', { format: 'object' }) as unknown as RisEntry[]);
}

/** One RIS record as the RIS plugin maps it from CSL-JSON: each tag with its value or values. */
type RisEntry = Record<string, string | number | Array<string | number>>;

/**
 * RIS records written from the plugin's mapping, one `TAG  - value` line per value. The plugin's
 * own text output breaks every value at 70 characters, in the middle of a word, onto lines without
 * a tag, which reference managers join with a space ("Activation o f Microglia"); a value is never
 * split here, and a line break inside one (an abstract's paragraphs) becomes a space.
 */
function risText(entries: RisEntry[]): string {
  return entries
    .map((entry) => {
      const lines = [`TY  - ${String(entry.TY)}`];
      for (const [tag, values] of Object.entries(entry)) {
        if (tag === 'TY') continue;
        for (const value of [values].flat()) lines.push(`${tag}  - ${String(value).replace(/\s*[\r\n]+\s*/g, ' ')}`);
      }
      lines.push('ER  - ');
      return lines.join('\n');
    })
    .join('\n');
}

export type AnswerFormat = 'json' | CitationFormat;

/**
 * The media types a tool answers, as the server sends them: with `charset=utf-8`. Offered that way,
 * an Accept range with that parameter (`application/json; charset=utf-8`) matches, one without any
 * (`application/json`) matches too, and one asking for another charset does not.
 */
function offeredTypes(tool: ToolName): Map<string, AnswerFormat> {
  const formats: Array<[string, AnswerFormat]> = [['application/json', 'json']];
  if (EXPORTING_TOOLS.has(tool))
    formats.push(...Object.entries(CITATION_MEDIA_TYPES).map(([format, type]): [string, AnswerFormat] => [type, format as CitationFormat]));
  return new Map(formats.map(([type, format]) => [`${type}; charset=utf-8`, format]));
}

/**
 * The format the caller's Accept header asks for: JSON unless it prefers a citation format the
 * tool can give; `undefined` when it accepts nothing this tool answers (406).
 * `accepts` is express's request.accepts (content negotiation with quality values and media-type parameters).
 */
export function answerFormat(tool: ToolName, accepts: (types: string[]) => string | false): AnswerFormat | undefined {
  const offered = offeredTypes(tool);
  const chosen = accepts([...offered.keys()]);
  return chosen === false ? undefined : offered.get(chosen);
}

export function notAcceptableMessage(tool: ToolName, accept: string | undefined): string {
  const types = EXPORTING_TOOLS.has(tool) ? ['application/json', ...Object.values(CITATION_MEDIA_TYPES)] : ['application/json'];
  return `Accept: ${tool} cannot answer "${clip(accept ?? '')}"; it answers ${types.join(', ')}`;
}

/** A tool result answered as citations; the call id and credits travel in headers. */
export function citationAnswer(
  format: CitationFormat,
  tool: ToolName,
  result: { records: unknown[]; call_id: string; credits_used: number },
): { status: number; headers: Record<string, string>; body: string } {
  const body = formatCitations(format, toCslItems(tool, result.records as PaperRecord[]));
  return {
    status: 200,
    headers: { 'Content-Type': `${CITATION_MEDIA_TYPES[format]}; charset=utf-8`, 'X-Call-Id': result.call_id, 'X-Credits-Used': String(result.credits_used) },
    body,
  };
}

/**
 * Reference parsing for verify_references: a text block is split into references (BibTeX entries,
 * numbered lists "[1]" / "1." / "1)", blank-line paragraphs, or one per line), and each reference is
 * read into authors, year, title, journal, volume, issue, pages and DOI. Styles understood: APA,
 * Harvard, Chicago author-date, Vancouver/NLM, IEEE/numbered, MLA-like, and BibTeX.
 */
import { extractDois } from './identifiers.ts';

export interface ParsedReference {
  raw: string;
  authors?: string[];
  firstAuthor?: string;
  title?: string;
  year?: number;
  journal?: string;
  volume?: string;
  issue?: string;
  pages?: string;
  doi?: string;
}

const BIBTEX_ENTRY = /@(article|inproceedings|incollection|book|misc|phdthesis|mastersthesis|techreport|inbook|proceedings|unpublished|online|conference)\s*\{/gi;

/** One reference per item: BibTeX entries, numbered items, paragraphs, or lines. */
export function splitReferences(text: string): string[] {
  const trimmed = text.replace(/\r\n?/g, '\n').trim();
  if (trimmed === '') return [];
  if (BIBTEX_ENTRY.test(trimmed)) {
    BIBTEX_ENTRY.lastIndex = 0;
    const starts = [...trimmed.matchAll(BIBTEX_ENTRY)].map((match) => match.index!);
    return starts.map((start, index) => trimmed.slice(start, starts[index + 1] ?? trimmed.length).trim());
  }
  const lines = trimmed.split('\n');
  const numbered = /^\s*(\[\d{1,3}\]|\d{1,3}[.)])\s+/;
  if (lines.filter((line) => numbered.test(line)).length >= Math.max(1, Math.ceil(paragraphs(trimmed).length / 2)) && numbered.test(lines[0]!)) {
    const items: string[] = [];
    for (const line of lines) {
      if (numbered.test(line)) items.push(line.replace(numbered, '').trim());
      else if (line.trim() !== '' && items.length > 0) items[items.length - 1] += ` ${line.trim()}`;
    }
    return items.filter((item) => item !== '');
  }
  const blocks = paragraphs(trimmed);
  if (blocks.length > 1) return blocks.map((block) => block.replace(/\s*\n\s*/g, ' ').trim());
  return lines.map((line) => line.trim()).filter((line) => line !== '');
}

function paragraphs(text: string): string[] {
  return text.split(/\n\s*\n/).map((block) => block.trim()).filter((block) => block !== '');
}

/** BibTeX fields of one entry (braces and quotes removed, LaTeX accents dropped). */
function bibtexFields(entry: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const body = entry.slice(entry.indexOf('{') + 1);
  const pattern = /([a-zA-Z]+)\s*=\s*/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(body))) {
    const name = match[1]!.toLowerCase();
    let index = pattern.lastIndex;
    let value = '';
    if (body[index] === '{') {
      let depth = 0;
      for (; index < body.length; index += 1) {
        const char = body[index]!;
        if (char === '{') depth += 1;
        else if (char === '}') {
          depth -= 1;
          if (depth === 0) break;
        }
        value += char;
      }
      value = value.slice(1);
    } else if (body[index] === '"') {
      const end = body.indexOf('"', index + 1);
      value = body.slice(index + 1, end === -1 ? undefined : end);
      index = end;
    } else {
      value = /^[^,}\n]*/.exec(body.slice(index))![0];
      index += value.length;
    }
    pattern.lastIndex = Math.max(index, pattern.lastIndex);
    fields[name] = value.replace(/\\[`'^"~=.uvHtcdbk]\{?(\w)\}?/g, '$1').replace(/[{}]/g, '').replace(/\s+/g, ' ').trim();
  }
  return fields;
}

function fromBibtex(raw: string): ParsedReference {
  const fields = bibtexFields(raw);
  const authors = fields.author?.split(/\s+and\s+/i).map((author) => author.trim()).filter(Boolean);
  const year = Number(/\d{4}/.exec(fields.year ?? fields.date ?? '')?.[0]);
  return finish({
    raw,
    authors,
    title: fields.title,
    year: Number.isInteger(year) ? year : undefined,
    journal: fields.journal ?? fields.journaltitle ?? fields.booktitle,
    volume: fields.volume,
    issue: fields.number ?? fields.issue,
    pages: fields.pages?.replace(/-+/g, '-'),
    doi: fields.doi ? extractDois(fields.doi)[0] : extractDois(raw)[0],
  });
}

/** Splits an author list written "A, B, & C", "A and B", "A; B" or Vancouver "Smith J, Doe A". */
export function splitAuthors(text: string): string[] {
  const cleaned = text.replace(/\bet al\.?/gi, '').replace(/\s*&\s*/g, ', ').replace(/,?\s+and\s+/gi, ', ').replace(/\.\s*$/, '').trim();
  if (cleaned.includes(';')) return cleaned.split(';').map((part) => part.trim()).filter(Boolean);
  const parts = cleaned.split(/\s*,\s*/).filter(Boolean);
  // "Smith, J., Doe, A." — a family name followed by initials: pair them up again.
  const paired: string[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    const next = parts[index + 1];
    if (next && /^([A-Z]\.\s?-?)+$|^([A-Z]\.?\s?)+$/.test(next) && !/\s/.test(part.trim()) && !/^([A-Z]\.?\s?)+$/.test(part)) {
      paired.push(`${part}, ${next}`);
      index += 1;
    } else paired.push(part);
  }
  return paired.map((author) => author.trim()).filter((author) => author !== '' && author.length < 80);
}

/** Family name of the first author, as cited. */
function firstFamily(author: string | undefined): string | undefined {
  if (!author) return undefined;
  const text = author.trim();
  if (text.includes(',')) return text.split(',')[0]!.trim();
  const words = text.split(/\s+/);
  // Vancouver "Smith JA" / "van der Berg JH": trailing initials.
  if (words.length > 1 && /^[A-Z]{1,3}$/.test(words[words.length - 1]!)) return words.slice(0, -1).join(' ');
  // "J. A. Smith" / "John Smith": the last word (with particles).
  let start = words.length - 1;
  while (start > 0 && /^(van|von|der|den|de|da|del|della|di|du|la|le|ter|ten)$/i.test(words[start - 1]!)) start -= 1;
  return words.slice(start).join(' ').replace(/[.,]$/, '');
}

function finish(reference: ParsedReference): ParsedReference {
  const clean = (value: string | undefined) => value?.replace(/\s+/g, ' ').replace(/^[\s,.;:]+|[\s,.;:]+$/g, '').trim() || undefined;
  const result: ParsedReference = {
    raw: reference.raw,
    authors: reference.authors && reference.authors.length > 0 ? reference.authors : undefined,
    title: clean(reference.title?.replace(/^["“”'‘’]+|["“”'‘’]+$/g, '')),
    year: reference.year,
    journal: clean(reference.journal),
    volume: clean(reference.volume),
    issue: clean(reference.issue),
    pages: clean(reference.pages)?.replace(/[–—]/g, '-'),
    doi: reference.doi,
  };
  result.firstAuthor = firstFamily(result.authors?.[0]);
  return Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined)) as unknown as ParsedReference;
}

/** Volume, issue and pages from the tail of a reference: "12(3), 45-67", "12:45-67", "vol. 12, no. 3, pp. 45-67", "12 (3): 45-67". */
function readNumbers(tail: string): { volume?: string; issue?: string; pages?: string; rest: string } {
  const ieee = /vol\.\s*(\w+)(?:,\s*no\.\s*(\w+))?(?:,\s*(?:pp?\.\s*)?([A-Za-z]?\d+(?:\s*[-–—]\s*[A-Za-z]?\d+)?))?/i.exec(tail);
  if (ieee) return { volume: ieee[1], issue: ieee[2], pages: ieee[3], rest: tail.slice(0, ieee.index) };
  const apa = /(\d+)\s*(?:\(([^)]+)\))?\s*[,:]\s*(?:pp?\.\s*)?([A-Za-z]?\d+(?:\s*[-–—]\s*[A-Za-z]?\d+)?)/.exec(tail);
  if (apa) return { volume: apa[1], issue: apa[2], pages: apa[3], rest: tail.slice(0, apa.index) };
  const volumeOnly = /(\d+)\s*\(([^)]+)\)/.exec(tail);
  if (volumeOnly) return { volume: volumeOnly[1], issue: volumeOnly[2], rest: tail.slice(0, volumeOnly.index) };
  const pagesOnly = /,?\s*pp?\.\s*([A-Za-z]?\d+(?:\s*[-–—]\s*[A-Za-z]?\d+)?)/.exec(tail);
  if (pagesOnly) return { pages: pagesOnly[1], rest: tail.slice(0, pagesOnly.index) };
  return { rest: tail };
}

/** One reference in any common style. */
export function parseReference(input: string): ParsedReference {
  const raw = input.trim();
  if (/^@\w+\s*\{/.test(raw)) return fromBibtex(raw);
  const doi = extractDois(raw)[0];
  let text = raw.replace(/(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)?10\.\d{4,9}\/\S+/gi, ' ').replace(/\b(available at|retrieved from)\b.*$/i, '').replace(/https?:\/\/\S+/g, ' ').replace(/\s+/g, ' ').trim();
  text = text.replace(/^\s*(\[\d{1,3}\]|\d{1,3}[.)])\s+/, '');

  // A quoted title (IEEE, Harvard, Chicago, MLA): authors before it, venue after it.
  const quoted = /["“'‘](.{8,}?)[,.]?["”'’](?=[\s,.]|$)/.exec(text);
  if (quoted) {
    const before = text.slice(0, quoted.index);
    const after = text.slice(quoted.index + quoted[0].length).replace(/^[\s,.]+/, '');
    const yearMatch = /\((\d{4})[a-z]?\)|\b(1[89]\d{2}|20\d{2})[a-z]?\b/.exec(before) ?? /\b(1[89]\d{2}|20\d{2})\b/.exec(after);
    const authorsText = before.replace(/\(?\b\d{4}[a-z]?\)?\.?/g, ' ').replace(/[\s,.]+$/, '');
    const venueText = after.replace(/^\s*in:?\s+/i, '').replace(/,?\s*\b(1[6-9]\d{2}|20\d{2})\b(?=\s*[,.]|\s*$)/, '');
    const numbers = readNumbers(venueText);
    const journal = numbers.rest.split(/,\s+/)[0];
    return finish({
      raw, doi, title: quoted[1], authors: splitAuthors(authorsText.replace(/,?\s*(eds?\.?|\(eds?\.?\))$/i, '')),
      year: yearMatch ? Number(yearMatch[1] ?? yearMatch[2]) : undefined, journal, volume: numbers.volume, issue: numbers.issue, pages: numbers.pages,
    });
  }

  // Author-year (APA, Harvard): "Authors (2020). Title. Journal, 12(3), 45-67."
  const authorYear = /^(.+?)\s*\(((?:1[6-9]|20)\d{2})[a-z]?(?:,[^)]*)?\)\.?\s*(.+)$/.exec(text);
  if (authorYear) {
    const [titlePart, ...restParts] = splitSentences(authorYear[3]!);
    const rest = restParts.join(' ');
    const numbers = readNumbers(rest);
    return finish({
      raw, doi, authors: splitAuthors(authorYear[1]!), year: Number(authorYear[2]), title: titlePart,
      journal: numbers.rest.split(/,\s*/)[0], volume: numbers.volume, issue: numbers.issue, pages: numbers.pages,
    });
  }

  // Chicago author-date: "Smith, John, and Anna Doe. 2020. Title. Journal 12 (3): 45–67."
  const chicago = /^(.+?)\.\s+((?:1[6-9]|20)\d{2})[a-z]?\.\s+(.+)$/.exec(text);
  if (chicago) {
    const [titlePart, ...restParts] = splitSentences(chicago[3]!);
    const numbers = readNumbers(restParts.join(' '));
    return finish({
      raw, doi, authors: splitAuthors(chicago[1]!), year: Number(chicago[2]), title: titlePart,
      journal: numbers.rest.replace(/\s+\d+\s*$/, ''), volume: numbers.volume, issue: numbers.issue, pages: numbers.pages,
    });
  }

  // Vancouver/NLM: "Smith J, Doe AB. Title. J Name. 2020;12(3):45-67." — authors "Family INITIALS", then title, journal, date.
  const vancouverAuthors = VANCOUVER_AUTHORS.exec(text);
  const dateAt = /\b((?:1[6-9]|20)\d{2})(?:\s+[A-Z][a-z]{2}(?:\s+\d{1,2})?)?\s*[;:]/g;
  if (vancouverAuthors) {
    const rest = text.slice(vancouverAuthors[0].length);
    const dates = [...rest.matchAll(dateAt)];
    const date = dates.at(-1);
    if (date) {
      const before = rest.slice(0, date.index).replace(/[\s.]+$/, '');
      const cut = Math.max(before.lastIndexOf('. '), before.lastIndexOf('? '), before.lastIndexOf('! '));
      const title = cut === -1 ? before : before.slice(0, cut + 1);
      const journal = cut === -1 ? undefined : before.slice(cut + 2).replace(/^in:?\s+/i, '');
      const numbers = /^\s*(?:;\s*([\w-]+)?\s*(?:\(([^)]+)\))?)?\s*(?::\s*([A-Za-z]?\d+(?:\s*[-–—]\s*[A-Za-z]?\d+)?))?/.exec(rest.slice(date.index! + date[0].length - 1));
      return finish({
        raw, doi, authors: splitAuthors(vancouverAuthors[1]!), title: title.replace(/[.]$/, ''), year: Number(date[1]), journal,
        volume: numbers?.[1], issue: numbers?.[2], pages: numbers?.[3],
      });
    }
  }
  const sentences = splitSentences(text);
  if (sentences.length >= 3) {
    const [authorsText, titlePart, ...rest] = sentences;
    const tail = rest.join(' ');
    const year = Number(/\b(1[6-9]\d{2}|20\d{2})\b/.exec(tail)?.[1]);
    return finish({ raw, doi, authors: splitAuthors(authorsText!), title: titlePart, year: Number.isInteger(year) ? year : undefined, journal: rest[0]?.replace(/[.\s]+$/, '') });
  }
  const year = Number(/\b(1[89]\d{2}|20\d{2})\b/.exec(text)?.[1]);
  return finish({ raw, doi, title: sentences.length === 2 ? sentences[1] : text, year: Number.isInteger(year) ? year : undefined });
}

const NAME = "\\p{Lu}[\\p{L}'’\\-]+(?:\\s\\p{Lu}[\\p{L}'’\\-]+)*";
/** A Vancouver author list: "Family INITIALS" items (a lone name allowed) separated by commas, ended by a full stop. */
const VANCOUVER_AUTHORS = new RegExp(`^((?:${NAME}(?:\\s\\p{Lu}{1,3})?,\\s)*${NAME}(?:\\s\\p{Lu}{1,3})?(?:,?\\set al)?)\\.\\s`, 'u');

/** Sentences split at ". " (or "? " / "! "), not after initials ("J. Smith") or common abbreviations. */
function splitSentences(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  const tokens = text.split(/(?<=[.?!])\s+/);
  for (const token of tokens) {
    current = current ? `${current} ${token}` : token;
    const lastWord = /(\S+)$/.exec(current)?.[1] ?? '';
    if (/^([A-Z]\.)+$|^(vol|no|pp|eds?|Proc|Int|J|Natl|Acad|Sci|Soc|Am|Rev|Res|Lett|Phys|Chem|Biol|Med)\.$/.test(lastWord)) continue;
    parts.push(current.replace(/[.]$/, '').trim());
    current = '';
  }
  if (current.trim() !== '') parts.push(current.replace(/[.]$/, '').trim());
  return parts.filter((part) => part !== '');
}

/** The references of the input: an array is one per item; a text block is split. */
export function referencesOf(input: string | string[]): string[] {
  return Array.isArray(input) ? input.map((item) => item.trim()).filter((item) => item !== '') : splitReferences(input);
}

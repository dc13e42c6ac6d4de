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

const BIBTEX_ENTRY =
  /@(article|inproceedings|incollection|book|misc|phdthesis|mastersthesis|techreport|inbook|proceedings|unpublished|online|conference)\s*\{/gi;

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
  return text
    .split(/\n\s*\n/)
    .map((block) => block.trim())
    .filter((block) => block !== '');
}

/** LaTeX accent commands and the combining marks they stand for. */
const LATEX_ACCENTS: Record<string, string> = {
  "'": '\u0301',
  '`': '\u0300',
  '^': '\u0302',
  '"': '\u0308',
  '~': '\u0303',
  '=': '\u0304',
  '.': '\u0307',
  u: '\u0306',
  v: '\u030c',
  H: '\u030b',
  c: '\u0327',
  k: '\u0328',
  r: '\u030a',
  d: '\u0323',
  b: '\u0331',
};
/** LaTeX commands for letters of their own. */
const LATEX_LETTERS: Record<string, string> = { aa: 'å', AA: 'Å', o: 'ø', O: 'Ø', ae: 'æ', AE: 'Æ', oe: 'œ', OE: 'Œ', ss: 'ß', l: 'ł', L: 'Ł', i: 'ı', j: 'ȷ' };

/** LaTeX in a BibTeX value read as text: {\"u}, \"{u}, \'e, {\aa}, {\o}, \v{c}, \& → ü, é, å, ø, č, &; braces dropped. */
export function fromLatex(value: string): string {
  return value
    .replace(/\\([`'^"~=.])\s*\{?\s*(\\?[A-Za-z])\s*\}?/g, (_, accent: string, letter: string) => `${letter.replace('\\', '')}${LATEX_ACCENTS[accent]}`)
    .replace(/\\([uvHckrdb])\s*\{\s*(\\?[A-Za-z])\s*\}/g, (_, accent: string, letter: string) => `${letter.replace('\\', '')}${LATEX_ACCENTS[accent]}`)
    .replace(/\\(aa|AA|ae|AE|oe|OE|ss|o|O|l|L|i|j)(?![A-Za-z])\s?/g, (_, name: string) => LATEX_LETTERS[name]!)
    .replace(/\\([&%$#_])/g, '$1')
    .replace(/\\(textendash|textemdash)\b\s?/g, '–')
    .replace(/[{}]/g, '')
    .replace(/~/g, ' ')
    .normalize('NFC')
    .replace(/\s+/g, ' ')
    .trim();
}

/** BibTeX fields of one entry (braces and quotes removed, LaTeX read as text). */
function bibtexFields(entry: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const body = entry.slice(entry.indexOf('{') + 1);
  const pattern = /([a-zA-Z-]+)\s*=\s*/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(body))) {
    const name = match[1]!.toLowerCase();
    let index = pattern.lastIndex;
    let value = '';
    if (body[index] === '{') {
      let depth = 0;
      for (; index < body.length; index += 1) {
        const char = body[index]!;
        if (char === '{' && body[index - 1] !== '\\') depth += 1;
        else if (char === '}' && body[index - 1] !== '\\') {
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
    fields[name] = name === 'doi' || name === 'url' ? value.trim() : fromLatex(value);
  }
  return fields;
}

function fromBibtex(raw: string): ParsedReference {
  const fields = bibtexFields(raw);
  const authors = fields.author
    ?.split(/\s+and\s+/i)
    .map((author) => author.trim())
    .filter((author) => author !== '' && !/^others$/i.test(author));
  const year = Number(/\d{4}/.exec(fields.year ?? fields.date ?? '')?.[0]);
  const venue =
    fields.journal ??
    fields.journaltitle ??
    fields.booktitle ??
    (/arxiv/i.test(`${fields.eprinttype ?? ''} ${fields.archiveprefix ?? ''} ${fields.howpublished ?? ''}`) ? 'arXiv' : fields.howpublished);
  return finish({
    raw,
    authors,
    title: fields.title,
    year: Number.isInteger(year) ? year : undefined,
    journal: venue,
    volume: fields.volume,
    issue: fields.number ?? fields.issue,
    pages: fields.pages?.replace(/\s*[-–—]+\s*/g, '-'),
    doi: fields.doi ? extractDois(fields.doi)[0] : extractDois(raw)[0],
  });
}

const PARTICLE = '(?:van|von|der|den|de|da|del|della|di|du|la|le|ter|ten|dos|das|al|el|bin)';
/** A family name as written before its initials: "Smith", "O'Regan", "van der Berg", "La Manno", "Pérez Cáceres". */
const FAMILY_BEFORE_INITIALS = new RegExp(`^(?:${PARTICLE}\\s+)*\\p{Lu}[\\p{L}'’\\-]*(?:\\s+(?:${PARTICLE}\\s+)*\\p{Lu}[\\p{L}'’\\-]*){0,2}$`, 'iu');
const INITIALS_ONLY = /^(\p{Lu}\.?\s?-?)+$/u;

/** Splits an author list written "A, B, & C", "A and B", "A; B" or Vancouver "Smith J, Doe A". */
export function splitAuthors(text: string): string[] {
  const cleaned = text
    .replace(/,?\s*\bet al\b\.?/gi, '')
    .replace(/\s*&\s*/g, ', ')
    .replace(/,?\s+and\s+/gi, ', ')
    .replace(/\.\s*$/, '')
    .trim();
  if (cleaned.includes(';'))
    return cleaned
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean);
  const parts = cleaned.split(/\s*,\s*/).filter(Boolean);
  // "Smith, J., van der Berg, A." — a family name followed by its initials: pair them up again.
  const paired: string[] = [];
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index]!;
    const next = parts[index + 1];
    // Chicago and MLA invert the first author only: "Watts, Duncan J., and Steven H. Strogatz".
    const invertedFirst = index === 0 && next !== undefined && /^\p{Lu}[\p{Ll}'’-]+(?:\s\p{Lu}\.)+$/u.test(next);
    if (next && (INITIALS_ONLY.test(next) || invertedFirst) && !INITIALS_ONLY.test(part) && FAMILY_BEFORE_INITIALS.test(part.trim())) {
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
  if (words.length > 1 && /^\p{Lu}{1,3}$/u.test(words[words.length - 1]!)) return words.slice(0, -1).join(' ');
  // "J. A. Smith" / "John Smith": the last word (with particles).
  let start = words.length - 1;
  while (start > 0 && new RegExp(`^${PARTICLE}$`, 'i').test(words[start - 1]!)) start -= 1;
  return words.slice(start).join(' ').replace(/[.,]$/, '');
}

function finish(reference: ParsedReference): ParsedReference {
  const clean = (value: string | undefined) =>
    value
      ?.replace(/\s+/g, ' ')
      .replace(/^[\s,.;:]+|[\s,.;:]+$/g, '')
      .trim() || undefined;
  const result: ParsedReference = {
    raw: reference.raw,
    authors: reference.authors && reference.authors.length > 0 ? reference.authors : undefined,
    title: clean(reference.title?.replace(/^["“”'‘’]+|["“”'‘’]+$/g, '')),
    year: reference.year,
    journal: clean(reference.journal?.replace(/^\s*in:?\s+/i, '')),
    volume: clean(reference.volume),
    issue: clean(reference.issue),
    pages: clean(reference.pages)?.replace(/\s*[–—-]+\s*/g, '-'),
    doi: reference.doi,
  };
  result.firstAuthor = firstFamily(result.authors?.[0]);
  return Object.fromEntries(Object.entries(result).filter(([, value]) => value !== undefined)) as unknown as ParsedReference;
}

/** A page or page range: "45-67", "E4832–E4841", "e30", "P10008", "928-943.e22", "2310-5". */
const PAGES = String.raw`[A-Za-z]{0,4}\d+(?:\.e\d+)?(?:\s*[-\u2013\u2014]+\s*[A-Za-z]{0,4}\d+(?:\.e\d+)?)?`;
const YEAR = String.raw`(?:1[6-9]|20)\d{2}`;

interface Numbers {
  volume?: string;
  issue?: string;
  pages?: string;
  /** The text before the first number expression (the venue). */
  rest: string;
}

/**
 * Volume, issue and pages from the tail of a reference: IEEE "vol. 12, no. 3, pp. 45–67" and
 * "Art. no. 1820"; APA/Harvard "12(3), 45-67" and "12(3), pp. 45-67"; Chicago "12 (3): 45–67";
 * or pages alone ("pp. 45-67", proceedings).
 */
function readNumbers(tail: string): Numbers {
  // Chicago "9, no. 3 (2010): 393-404" and Google Scholar's MLA "393.6684 (1998): 440-442".
  const dated = new RegExp(String.raw`(?<![\d.])(\d+)(?:,\s*no\.\s*([\w-]+)|\.(\d+))?\s*\(\s*${YEAR}\s*\)\s*:\s*(${PAGES})`).exec(tail);
  if (dated) return { volume: dated[1], issue: dated[2] ?? dated[3], pages: dated[4], rest: tail.slice(0, dated.index) };
  const volume = /\bvol\.\s*([\w.-]+)/i.exec(tail);
  const article = new RegExp(String.raw`\b(?:Art(?:icle)?\.?\s*(?:no\.|number)|Article)\s*([A-Za-z]{0,4}\d+)`, 'i').exec(tail);
  const issue = /\b(?:no\.?|issues?)\s*(\d[\w-]*)/i.exec(tail.replace(/\bArt(?:icle)?\.?\s*no\./gi, (text) => ' '.repeat(text.length)));
  const pagesMatch = new RegExp(String.raw`\bpp?\.?\s+(${PAGES})|\bpp?\.(${PAGES})`).exec(tail);
  const pages = pagesMatch ? { index: pagesMatch.index, 1: pagesMatch[1] ?? pagesMatch[2] } : null;
  if (volume || article || (issue && pages)) {
    const starts = [volume, article, issue, pages].filter((match): match is RegExpExecArray => match !== null).map((match) => match.index);
    return { volume: volume?.[1], issue: issue?.[1], pages: pages?.[1] ?? article?.[1], rest: tail.slice(0, Math.min(...starts)) };
  }
  const apa = new RegExp(String.raw`(?<![\d.])(\d+)\s*(?:\(([^)]+)\))?\s*[,:]\s*(?:pp?\.\s*)?(${PAGES})(?!\d)`).exec(tail);
  // "…, 1992, pp. 343–348" (a proceedings year before its pages) is no volume; "2008(10), P10008" is.
  const yearBeforePages = apa !== null && apa[2] === undefined && new RegExp(`^${YEAR}$`).test(apa[1]!);
  if (apa && !yearBeforePages && !new RegExp(`^${YEAR}$`).test(apa[3]!))
    return { volume: apa[1], issue: apa[2], pages: apa[3], rest: tail.slice(0, apa.index) };
  const volumeOnly = /(?<![\d.])(\d+)\s*\(([^)]+)\)/.exec(tail);
  if (volumeOnly) return { volume: volumeOnly[1], issue: volumeOnly[2], rest: tail.slice(0, volumeOnly.index) };
  if (pages) return { pages: pages[1], rest: tail.slice(0, pages.index) };
  // Chicago proceedings: "In Venue, 131–138." — a bare page range closing the reference.
  const closingRange = new RegExp(String.raw`,\s*(\d+\s*[-\u2013\u2014]+\s*\d+(?:\.e\d+)?)\s*\.?\s*$`).exec(tail);
  if (closingRange) return { pages: closingRange[1], rest: tail.slice(0, closingRange.index) };
  const volumeAlone = new RegExp(String.raw`,\s*(\d{1,4})\s*\.?\s*$`).exec(tail);
  if (volumeAlone && !new RegExp(`^${YEAR}$`).test(volumeAlone[1]!)) return { volume: volumeAlone[1], rest: tail.slice(0, volumeAlone.index) };
  return { rest: tail };
}

/** The year of a venue part: the last year-like number once page, volume and issue expressions are taken out ("pp. 1898–1909, 2007" is 2007). */
function yearIn(text: string): number | undefined {
  const cleaned = text
    .replace(new RegExp(String.raw`\b(?:pp?\.|Art(?:icle)?\.?\s*no\.|vol\.|no\.)\s*(?:${PAGES}|[\w.-]+)`, 'gi'), ' ')
    .replace(new RegExp(String.raw`(?<![\d.])\d+\s*(?:\([^)]*\))?\s*[,:]\s*${PAGES}`, 'g'), ' ');
  const years = [...cleaned.matchAll(new RegExp(String.raw`(?<![\d.\-\u2013/])(${YEAR})[a-z]?(?![\d\-\u2013/])`, 'g'))].map((match) => Number(match[1]));
  return years.at(-1);
}

/**
 * A quoted title: “…”, ``…'' (LaTeX), "…", ‘…’ or '…'. A straight or curly apostrophe inside a word (O'Regan,
 * Platt's) opens or closes nothing: a quote opens after a non-letter and closes before one.
 */
function quotedTitle(text: string): { index: number; length: number; title: string } | undefined {
  const patterns = [
    /“(.{8,}?)[,.]?”/u,
    /``(.{8,}?)[,.]?''/u,
    /(?<![\p{L}\d])"(.{8,}?)[,.]?"(?![\p{L}\d])/u,
    /(?<![\p{L}\d])‘(.{8,}?)[,.]?’(?![\p{L}\d])/u,
    /(?<![\p{L}\d])'(.{8,}?)[,.]?'(?![\p{L}\d])/u,
  ];
  const found = patterns
    .map((pattern) => pattern.exec(text))
    .filter((match): match is RegExpExecArray => match !== null)
    .sort((a, b) => a.index - b.index)[0];
  return found ? { index: found.index, length: found[0].length, title: found[1]! } : undefined;
}

/** The venue: the text before the numbers, without "In:", a trailing year or a publisher place. */
function venueOf(rest: string): string | undefined {
  const venue = rest
    .replace(/^\s*in:?\s+/i, '')
    .replace(new RegExp(String.raw`[,;.]?\s*(?:\(\s*)?${YEAR}[a-z]?\)?\s*[,;.]?\s*$`), '')
    .split(/[,;]\s+(?=(?:vol|no|pp?)\.)/i)[0];
  return venue?.replace(/[\s,;.:(]+$/, '').trim() || undefined;
}

/** One reference in any common style. */
export function parseReference(input: string): ParsedReference {
  const raw = input.trim();
  if (/^@\w+\s*\{/.test(raw)) return fromBibtex(raw);
  const doi = extractDois(raw)[0];
  let text = raw
    .replace(/(https?:\/\/(dx\.)?doi\.org\/|\bdoi:\s*)?10\.\d{4,9}\/\S+/gi, ' ')
    .replace(/\b(available at|retrieved from)\b.*$/i, '')
    .replace(/https?:\/\/\S+/g, ' ');
  text = text
    .replace(/[,.]?\s*\bdoi:?\s*$/i, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^\s*(\[\d{1,3}\]|\d{1,3}[.)])\s+/, '');

  // A quoted title (IEEE, Harvard, Chicago, MLA): authors (and year) before it, venue after it.
  const quoted = quotedTitle(text);
  if (quoted) {
    const before = text.slice(0, quoted.index);
    const after = text.slice(quoted.index + quoted.length).replace(/^[\s,.]+/, '');
    const yearBefore = new RegExp(String.raw`\((${YEAR})[a-z]?\)|(?:^|[\s,.])(${YEAR})[a-z]?[.,]?\s*$`).exec(before);
    const authorsText = before.replace(new RegExp(String.raw`\(?\b${YEAR}[a-z]?\)?\.?`, 'g'), ' ').replace(/[\s,.]+$/, '');
    const numbers = readNumbers(after);
    return finish({
      raw,
      doi,
      title: quoted.title,
      authors: splitAuthors(authorsText.replace(/,?\s*(eds?\.?|\(eds?\.?\))$/i, '')),
      year: yearBefore ? Number(yearBefore[1] ?? yearBefore[2]) : yearIn(after),
      journal: venueOf(numbers.rest),
      volume: numbers.volume,
      issue: numbers.issue,
      pages: numbers.pages,
    });
  }

  // Author-year (APA, Harvard): "Authors (2020). Title. Journal, 12(3), 45-67."
  const authorYear = new RegExp(String.raw`^(.+?)\s*\((${YEAR})[a-z]?(?:,[^)]*)?\)\.?\s*(.+)$`).exec(text);
  if (authorYear) {
    const [titlePart, venuePart] = titleAndVenue(authorYear[3]!);
    const numbers = readNumbers(venuePart);
    return finish({
      raw,
      doi,
      authors: splitAuthors(authorYear[1]!),
      year: Number(authorYear[2]),
      title: titlePart,
      journal: venueOf(numbers.rest.split(/,\s*(?=\d)/)[0]!.replace(/\s*\((?:pp?\.)?[^)]*\)\s*$/, '')),
      volume: numbers.volume,
      issue: numbers.issue,
      pages: numbers.pages,
    });
  }

  // Chicago author-date without quotes: "Smith, John, and Anna Doe. 2020. Title. Journal 12 (3): 45–67."
  const chicago = new RegExp(String.raw`^(.+?)\.\s+(${YEAR})[a-z]?\.\s+(.+)$`).exec(text);
  if (chicago) {
    const [titlePart, venuePart] = titleAndVenue(chicago[3]!);
    const numbers = readNumbers(venuePart);
    return finish({
      raw,
      doi,
      authors: splitAuthors(chicago[1]!),
      year: Number(chicago[2]),
      title: titlePart,
      journal: venueOf(numbers.rest.replace(/\s+\d+\s*$/, '')),
      volume: numbers.volume,
      issue: numbers.issue,
      pages: numbers.pages,
    });
  }

  // Vancouver/NLM: "Smith J, Doe AB. Title. J Name. 2020;12(3):45-67." and "… Title. In: Proceedings; 2014. p. 785-94."
  const vancouverAuthors = VANCOUVER_AUTHORS.exec(text);
  if (vancouverAuthors) {
    const rest = text.slice(vancouverAuthors[0].length);
    const dates = [...rest.matchAll(new RegExp(String.raw`(?:^|[.;]\s*)(${YEAR})(?:\s+[A-Z][a-z]{2}(?:\s+\d{1,2})?)?\s*([;:.]|$)`, 'g'))];
    const date = dates.at(-1);
    if (date) {
      const before = rest.slice(0, date.index).replace(/[\s.;]+$/, '');
      const proceedings = /\.\s+In:?\s+/i.exec(before);
      const cut = proceedings ? proceedings.index : Math.max(before.lastIndexOf('. '), before.lastIndexOf('? '), before.lastIndexOf('! '));
      const title = cut === -1 ? before : before.slice(0, cut + 1);
      const journal = cut === -1 ? undefined : before.slice(cut + (proceedings ? proceedings[0].length : 2));
      const after = rest.slice(date.index! + date[0].length - date[2]!.length);
      const numbers = new RegExp(String.raw`^\s*(?:;\s*([\w-]+)?\s*(?:\(([^)]+)\))?)?\s*(?::\s*(${PAGES}))?`).exec(after);
      const pages = numbers?.[3] ?? new RegExp(String.raw`\bpp?\.\s*(${PAGES})`).exec(after)?.[1];
      return finish({
        raw,
        doi,
        authors: splitAuthors(vancouverAuthors[1]!),
        title: title.replace(/[.]$/, ''),
        year: Number(date[1]),
        journal,
        volume: numbers?.[1],
        issue: numbers?.[2],
        pages,
      });
    }
  }
  // ACS: "Smith, J. A.; Doe, B. Title. J. Am. Chem. Soc. 2016, 7, 45-67." — "Family, I." authors, then title, then venue, year, volume, pages.
  const acs = new RegExp(String.raw`^((?:[\p{L}'\u2019 -]+,\s*(?:\p{Lu}\.\s?-?)+(?:[;,]\s*|\s+(?=\p{Lu})))+)(.+)$`, 'u').exec(text);
  const acsVenue = acs ? new RegExp(String.raw`^(.+?)\s+(${YEAR}),\s*(\d+)(?:\s*\(([^)]+)\))?(?:,\s*(${PAGES}))?$`).exec(titleAndVenue(acs[2]!)[1]) : null;
  if (acs && acsVenue) {
    return finish({
      raw,
      doi,
      authors: acs[1]!
        .split(/;\s*|,\s*(?=[\p{L}'’ -]+,\s*\p{Lu}\.)/u)
        .map((author) => author.replace(/[;,]\s*$/, '').trim())
        .filter(Boolean),
      title: titleAndVenue(acs[2]!)[0],
      journal: acsVenue[1],
      year: Number(acsVenue[2]),
      volume: acsVenue[3],
      issue: acsVenue[4],
      pages: acsVenue[5],
    });
  }
  const sentences = splitSentences(text);
  if (sentences.length >= 3) {
    const [authorsText, titlePart, ...rest] = sentences;
    return finish({ raw, doi, authors: splitAuthors(authorsText!), title: titlePart, year: yearIn(rest.join(' ')), journal: rest[0]?.replace(/[.\s]+$/, '') });
  }
  return finish({ raw, doi, title: sentences.length === 2 ? sentences[1] : text, year: yearIn(text) });
}

const NAME = `(?:${PARTICLE}\\s)*\\p{Lu}[\\p{L}'’\\-]+(?:\\s(?:${PARTICLE}\\s)*\\p{Lu}[\\p{L}'’\\-]+)*`;
/** A Vancouver author list: "Family INITIALS" items (a lone name allowed) separated by commas, ended by a full stop. */
const VANCOUVER_AUTHORS = new RegExp(`^((?:${NAME}(?:\\s\\p{Lu}{1,3})?,\\s)*${NAME}(?:\\s\\p{Lu}{1,3})?(?:,?\\set al)?)\\.\\s`, 'u');

/**
 * An unquoted title and the venue after it: the venue is the last sentence (the one carrying the
 * volume and pages), the title everything before it, so a title with a question or a full stop
 * inside ("Do wildlife laws work? Species protection…") stays whole.
 */
function titleAndVenue(text: string): [string, string] {
  const sentences = splitSentences(text);
  if (sentences.length < 2) return [sentences[0] ?? text, ''];
  // A proceedings venue opens with "In": it and what follows are the venue.
  const opening = sentences.findIndex((sentence, index) => index > 0 && /^In:?\s/.test(sentence));
  if (opening > 0) return [joinSentences(sentences.slice(0, opening)), sentences.slice(opening).join('. ')];
  return [joinSentences(sentences.slice(0, -1)), sentences.at(-1)!];
}

/** Sentences joined back with the stop they lost ("Do laws work?" keeps its question mark). */
function joinSentences(sentences: string[]): string {
  return sentences.reduce((joined, sentence) => (joined === '' ? sentence : /[?!]$/.test(joined) ? `${joined} ${sentence}` : `${joined}. ${sentence}`), '');
}

/** Sentences split at ". " (or "? " / "! "), not after initials ("J. Smith") or common abbreviations. */
function splitSentences(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  const tokens = text.split(/(?<=[.?!])\s+/);
  for (const token of tokens) {
    current = current ? `${current} ${token}` : token;
    const lastWord = (/(\S+)$/.exec(current)?.[1] ?? '').replace(/^[([]/, '');
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

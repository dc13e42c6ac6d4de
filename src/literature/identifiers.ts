/**
 * Identifier forms of scholarly works and their normal forms: DOIs (bare, `doi:`, resolver URLs),
 * arXiv ids (new `2104.12255v1` and old `hep-th/9901001`), PMIDs, PMCIDs and OpenAlex work ids.
 */

/** A DOI in normal form: bare, lower-case, without a resolver prefix or trailing punctuation; undefined when it is not one. */
export function normalizeDoi(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  let text = value.trim();
  try {
    text = decodeURIComponent(text);
  } catch {
    // keep it as given
  }
  text = text
    .replace(/^(https?:\/\/)?(dx\.)?doi\.org\//i, '')
    .replace(/^doi:\s*/i, '')
    .trim();
  text = text.replace(/[.,;:)\]}>'"]+$/, '');
  return /^10\.\d{4,9}\/\S+$/.test(text) ? text.toLowerCase() : undefined;
}

/** DOIs found in a text, in order of appearance, normalised, without repeats. */
export function extractDois(text: string): string[] {
  const found: string[] = [];
  // Old Wiley/SICI DOIs carry "<…>" and ";": 10.1002/(sici)1097-0258(20000815)19:15<1997::aid-sim511>3.0.co;2-c.
  for (const match of text.matchAll(/\b10\.\d{4,9}\/(?:[^\s"<>{}]|<[^\s"<>{}]*>)+/g)) {
    const doi = normalizeDoi(match[0]);
    if (doi && !found.includes(doi)) found.push(doi);
  }
  return found;
}

const NEW_ARXIV = /^(\d{4}\.\d{4,5})(v\d+)?$/;
const OLD_ARXIV = /^([a-z-]+(?:\.[A-Z]{2})?\/\d{7})(v\d+)?$/;

/** An arXiv id in normal form (old ids keep their archive, versions are kept when given); undefined when not one. */
export function normalizeArxivId(value: string | undefined | null): string | undefined {
  if (!value) return undefined;
  const text = value
    .trim()
    .replace(/^arxiv:\s*/i, '')
    .replace(/^https?:\/\/(export\.)?arxiv\.org\/(abs|pdf)\//i, '')
    .replace(/\.pdf$/i, '');
  const modern = NEW_ARXIV.exec(text);
  if (modern) return `${modern[1]}${modern[2] ?? ''}`;
  const old = OLD_ARXIV.exec(text);
  if (old) return `${old[1]}${old[2] ?? ''}`;
  return undefined;
}

/** arXiv id without its version: the form used for de-duplication. */
export function arxivBase(id: string | undefined): string | undefined {
  return id?.replace(/v\d+$/, '');
}

export type PaperId =
  | { kind: 'doi'; value: string }
  | { kind: 'pmid'; value: string }
  | { kind: 'pmcid'; value: string }
  | { kind: 'arxiv'; value: string }
  | { kind: 'openalex'; value: string };

/** One of the spec's identifier forms for get_paper, or undefined when the text is none of them. */
export function parsePaperId(input: string): PaperId | undefined {
  const text = input.trim();
  const doi = /^(doi:|https?:\/\/(dx\.)?doi\.org\/|10\.)/i.test(text) ? normalizeDoi(text) : undefined;
  if (doi) return { kind: 'doi', value: doi };
  const pmid = /^(pmid:\s*|https?:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/)(\d{1,9})\/?$/i.exec(text);
  if (pmid) return { kind: 'pmid', value: pmid[2]! };
  const pmcid = /^(pmcid:\s*)?pmc(\d{1,9})$/i.exec(text);
  if (pmcid) return { kind: 'pmcid', value: `PMC${pmcid[2]}` };
  const openalex = /^(https?:\/\/openalex\.org\/)?(W\d{2,12})$/i.exec(text);
  if (openalex) return { kind: 'openalex', value: openalex[2]!.toUpperCase() };
  const arxiv = normalizeArxivId(text);
  if (arxiv) return { kind: 'arxiv', value: arxiv };
  return undefined;
}

/** A PMCID in normal form `PMC<digits>`. */
export function normalizePmcid(value: string | undefined | null): string | undefined {
  const match = value ? /^(?:pmcid:\s*)?pmc(\d+)$/i.exec(value.trim()) : null;
  return match ? `PMC${match[1]}` : undefined;
}

/** `https://openalex.org/W123` → `W123`. */
export function openalexShortId(value: string | undefined | null): string | undefined {
  const match = value ? /(W\d+)$/i.exec(value) : null;
  return match ? match[1]!.toUpperCase() : undefined;
}

/**
 * A cited paper written out in the common citation styles, as reference managers and people write
 * them: APA 7, Vancouver/NLM (abbreviated journal, "et al." after six authors, short page ranges),
 * Chicago author-date, Harvard (single-quoted title), IEEE (abbreviated journal, "pp. …, year",
 * "Art. no."), and BibTeX (LaTeX accents, doubled braces, "--" ranges).
 */
import type { EvalPaper } from './papers.ts';

export const STYLES = ['apa', 'vancouver', 'chicago', 'harvard', 'ieee', 'bibtex'] as const;
export type Style = (typeof STYLES)[number];

/** What a reference cites: a paper's metadata, possibly with an error in it. */
export type Cited = Pick<EvalPaper, 'kind' | 'authors' | 'moreAuthors' | 'year' | 'title' | 'venue' | 'volume' | 'issue' | 'pages' | 'doi'>;

/** "Udaya B." → ["U", "B"]; "Jean-Loup" → ["J-L"]. */
function initials(given: string): string[] {
  return given
    .split(/\s+/)
    .filter(Boolean)
    .map((name) =>
      name
        .split('-')
        .map((part) =>
          part
            .replace(/[^\p{L}]/gu, '')
            .charAt(0)
            .toUpperCase(),
        )
        .filter(Boolean)
        .join('-'),
    )
    .filter(Boolean);
}
const dotted = (given: string) =>
  initials(given)
    .map((initial) => `${initial.replace(/-/g, '.-')}.`)
    .join(' ');
const run = (given: string) =>
  initials(given)
    .map((initial) => initial.replace(/-/g, ''))
    .join('');

/** NLM-like abbreviation of a journal title word by word (unknown words kept). */
const ABBREVIATIONS: Record<string, string> = {
  journal: 'J',
  statistics: 'Stat',
  statistical: 'Stat',
  american: 'Am',
  association: 'Assoc',
  biology: 'Biol',
  biological: 'Biol',
  biotechnology: 'Biotechnol',
  communications: 'Commun',
  machine: 'Mach',
  learning: 'Learn',
  research: 'Res',
  annals: 'Ann',
  applied: 'Appl',
  computational: 'Comput',
  computing: 'Comput',
  medicine: 'Med',
  medical: 'Med',
  science: 'Sci',
  sciences: 'Sci',
  proceedings: 'Proc',
  national: 'Natl',
  academy: 'Acad',
  international: 'Int',
  conference: 'Conf',
  transactions: 'Trans',
  analysis: 'Anal',
  intelligence: 'Intell',
  artificial: 'Artif',
  systems: 'Syst',
  software: 'Softw',
  molecular: 'Mol',
  royal: 'R',
  society: 'Soc',
  series: 'Ser',
  quality: 'Qual',
  technology: 'Technol',
  information: 'Inf',
  recognition: 'Recognit',
  letters: 'Lett',
  operational: 'Oper',
  european: 'Eur',
  global: 'Glob',
  optimization: 'Optim',
  graphical: 'Graph',
  biometrical: 'Biom',
  processing: 'Process',
  advances: 'Adv',
  evolutionary: 'Evol',
  computation: 'Comput',
  engineering: 'Eng',
  reports: 'Rep',
  protocols: 'Protoc',
  genetics: 'Genet',
  metabolism: 'Metab',
  diagnostics: 'Diagn',
  experiment: 'Exp',
  mechanics: 'Mech',
  network: 'Netw',
  canadian: 'Can',
  knowledge: 'Knowl',
  computer: 'Comput',
  practice: 'Pract',
  experience: 'Exp',
  biomedical: 'Biomed',
  informatics: 'Inform',
  political: 'Polit',
  mathematical: 'Math',
  nonparametric: 'Nonparametr',
  methodology: 'Methodol',
  methodological: 'Methodol',
  theory: 'Theory',
  neural: 'Neural',
  pattern: 'Pattern',
  physics: 'Phys',
  physica: 'Physica',
  record: 'Rec',
  nature: 'Nat',
  cell: 'Cell',
  genome: 'Genome',
  methods: 'Methods',
  systematic: 'Syst',
  perspectives: 'Perspect',
  structural: 'Struct',
  neurocomputing: 'Neurocomputing',
  general: 'Gen',
  mathematics: 'Math',
  economics: 'Econ',
  quantitative: 'Quant',
  philosophy: 'Philos',
  biochimica: 'Biochim',
  biophysica: 'Biophys',
  acta: 'Acta',
  protein: 'Protein',
  structure: 'Struct',
  weather: 'Weather',
  review: 'Rev',
  monthly: 'Mon',
  basic: 'Basic',
  diagnostic: 'Diagn',
  spatial: 'Spat',
  source: 'Source',
  open: 'Open',
  electrical: 'Electr',
  electronics: 'Electron',
};
const NLM_STOPWORDS = new Set(['of', 'the', 'and', 'in', 'for', 'on', '&', 'la', 'de', 'et']);

export function abbreviateJournal(venue: string, withDots = false): string {
  const words = venue
    .replace(/\(.*?\)/g, ' ')
    .replace(/[:,]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  if (words.length === 1) return venue;
  return words
    .filter((word) => !NLM_STOPWORDS.has(word.toLowerCase()))
    .map((word) => {
      const short = ABBREVIATIONS[word.toLowerCase()];
      if (!short || short.toLowerCase() === word.toLowerCase()) return word.replace(/^-$/, '');
      return withDots ? `${short}.` : short;
    })
    .filter(Boolean)
    .join(' ');
}

/** "2175-2197" → "2175-97" (Vancouver); "e98679" and "928-943.e22" stay. */
function shortRange(pages: string): string {
  const match = /^(\d+)-(\d+)$/.exec(pages);
  if (!match || match[1]!.length !== match[2]!.length) return pages;
  const [first, last] = [match[1]!, match[2]!];
  let index = 0;
  while (index < first.length - 1 && first[index] === last[index]) index += 1;
  return `${first}-${last.slice(index)}`;
}

const LATEX: Record<string, string> = {
  á: "{\\'a}",
  é: "{\\'e}",
  í: "{\\'i}",
  ó: "{\\'o}",
  ú: "{\\'u}",
  à: '{\\`a}',
  è: '{\\`e}',
  ä: '{\\"a}',
  ë: '{\\"e}',
  ö: '{\\"o}',
  ü: '{\\"u}',
  Ö: '{\\"O}',
  Ü: '{\\"U}',
  ñ: '{\\~n}',
  ç: '{\\c{c}}',
  å: '{\\aa}',
  Å: '{\\AA}',
  ø: '{\\o}',
  Ø: '{\\O}',
  æ: '{\\ae}',
  ß: '{\\ss}',
  ł: '{\\l}',
  ž: '{\\v{z}}',
  š: '{\\v{s}}',
  č: '{\\v{c}}',
  Ž: '{\\v{Z}}',
  ń: "{\\'n}",
  ś: "{\\'s}",
  ã: '{\\~a}',
  â: '{\\^a}',
  ê: '{\\^e}',
  î: '{\\^i}',
  ô: '{\\^o}',
  Ä: '{\\"A}',
  É: "{\\'E}",
};
const latex = (text: string) => [...text].map((char) => LATEX[char] ?? char).join('');

function pagesOrArticle(pages: string): { range: boolean } {
  return { range: pages.includes('-') };
}

const etAl = (cited: Cited) => cited.moreAuthors;

function apa(cited: Cited): string {
  const names = cited.authors.map((author) => `${author.family}, ${dotted(author.given)}`.replace(/, $/, ''));
  const authors = etAl(cited) ? `${names.join(', ')}, et al.` : names.length > 1 ? `${names.slice(0, -1).join(', ')}, & ${names.at(-1)}` : names[0]!;
  const doi = cited.doi ? ` https://doi.org/${cited.doi}` : '';
  if (cited.kind === 'arxiv') return `${authors} (${cited.year}). ${cited.title}. arXiv.${doi}`;
  if (cited.kind === 'proceedings')
    return `${authors} (${cited.year}). ${cited.title}. In ${cited.venue}${cited.pages ? ` (pp. ${cited.pages.replace('-', '–')})` : ''}.${doi}`;
  const volume = cited.volume ? `, ${cited.volume}${cited.issue ? `(${cited.issue})` : ''}` : '';
  const pages = cited.pages ? `, ${cited.pages.replace('-', '–')}` : '';
  return `${authors} (${cited.year}). ${cited.title}. ${cited.venue}${volume}${pages}.${doi}`;
}

function vancouver(cited: Cited): string {
  const names = cited.authors.slice(0, 6).map((author) => `${author.family} ${run(author.given)}`.trim());
  const authors = `${names.join(', ')}${etAl(cited) ? ', et al' : ''}`;
  const doi = cited.doi ? ` doi:${cited.doi}` : '';
  const title = /[?!.]$/.test(cited.title) ? cited.title : `${cited.title}.`;
  if (cited.kind === 'arxiv') return `${authors}. ${title} arXiv. ${cited.year}.${doi}`;
  if (cited.kind === 'proceedings')
    return `${authors}. ${title} In: ${cited.venue}; ${cited.year}.${cited.pages ? ` p. ${shortRange(cited.pages)}.` : ''}${doi}`;
  const volume = cited.volume ? `;${cited.volume}${cited.issue ? `(${cited.issue})` : ''}` : '';
  const pages = cited.pages ? `:${shortRange(cited.pages)}` : '';
  return `${authors}. ${title} ${abbreviateJournal(cited.venue)}. ${cited.year}${volume}${pages}.${doi}`;
}

function chicago(cited: Cited): string {
  const [first, ...rest] = cited.authors;
  const names = [`${first!.family}, ${first!.given}`.replace(/, $/, ''), ...rest.map((author) => `${author.given} ${author.family}`.trim())];
  const authors = etAl(cited) ? `${names.join(', ')}, et al.` : names.length > 1 ? `${names.slice(0, -1).join(', ')}, and ${names.at(-1)}.` : `${names[0]}.`;
  const doi = cited.doi ? ` https://doi.org/${cited.doi}.` : '';
  const title = /[?!]$/.test(cited.title) ? `“${cited.title}”` : `“${cited.title}.”`;
  if (cited.kind === 'arxiv') return `${authors} ${cited.year}. ${title} arXiv.${doi}`;
  if (cited.kind === 'proceedings')
    return `${authors} ${cited.year}. ${title} In ${cited.venue}${cited.pages ? `, ${cited.pages.replace('-', '–')}` : ''}.${doi}`;
  const volume = cited.volume ? ` ${cited.volume}${cited.issue ? ` (${cited.issue})` : ''}` : '';
  const pages = cited.pages ? `: ${cited.pages.replace('-', '–')}` : '';
  return `${authors} ${cited.year}. ${title} ${cited.venue}${volume}${pages}.${doi}`;
}

function harvard(cited: Cited): string {
  const names = cited.authors.map((author) => `${author.family}, ${dotted(author.given).replace(/ /g, '')}`.replace(/, $/, ''));
  const authors = etAl(cited) ? `${names[0]} et al.` : names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : names[0]!;
  const doi = cited.doi ? ` doi:${cited.doi}.` : '';
  if (cited.kind === 'arxiv') return `${authors} (${cited.year}) '${cited.title}', arXiv.${doi}`;
  if (cited.kind === 'proceedings') return `${authors} (${cited.year}) '${cited.title}', in ${cited.venue}${cited.pages ? `, pp. ${cited.pages}` : ''}.${doi}`;
  const volume = cited.volume ? `, ${cited.volume}${cited.issue ? `(${cited.issue})` : ''}` : '';
  const pages = cited.pages ? (pagesOrArticle(cited.pages).range ? `, pp. ${cited.pages}` : `, p. ${cited.pages}`) : '';
  return `${authors} (${cited.year}) '${cited.title}', ${cited.venue}${volume}${pages}.${doi}`;
}

function ieee(cited: Cited): string {
  const names = cited.authors.map((author) => `${dotted(author.given)} ${author.family}`.trim());
  const authors =
    etAl(cited) || names.length > 6 ? `${names[0]} et al.` : names.length > 2 ? `${names.slice(0, -1).join(', ')}, and ${names.at(-1)}` : names.join(' and ');
  const doi = cited.doi ? `, doi: ${cited.doi}` : '';
  const pages = cited.pages ? (pagesOrArticle(cited.pages).range ? `pp. ${cited.pages.replace('-', '–')}, ` : `Art. no. ${cited.pages}, `) : '';
  if (cited.kind === 'arxiv') return `${authors}, “${cited.title},” arXiv, ${cited.year}${doi}.`;
  if (cited.kind === 'proceedings')
    return `${authors}, “${cited.title},” in ${cited.venue}, ${cited.year}${cited.pages ? `, pp. ${cited.pages.replace('-', '–')}` : ''}${doi}.`;
  const volume = cited.volume ? `vol. ${cited.volume}, ` : '';
  const issue = cited.issue ? `no. ${cited.issue}, ` : '';
  return `${authors}, “${cited.title},” ${abbreviateJournal(cited.venue, true)}, ${volume}${issue}${pages}${cited.year}${doi}.`;
}

function bibtex(cited: Cited, key: string): string {
  const authors = [
    ...cited.authors.map((author) => latex(author.given ? `${author.family}, ${author.given}` : author.family)),
    ...(cited.moreAuthors ? ['others'] : []),
  ].join(' and ');
  const entry = cited.kind === 'proceedings' ? 'inproceedings' : cited.kind === 'article' ? 'article' : 'misc';
  const fields: Array<[string, string | undefined]> = [
    ['author', authors],
    ['title', `{${latex(cited.title)}}`],
    [
      cited.kind === 'proceedings' ? 'booktitle' : cited.kind === 'article' ? 'journal' : 'howpublished',
      cited.kind === 'arxiv' ? 'arXiv' : cited.kind === 'posted' ? 'bioRxiv' : latex(cited.venue),
    ],
    ['year', String(cited.year)],
    ['volume', cited.volume],
    ['number', cited.issue],
    ['pages', cited.pages?.replace('-', '--')],
    ['doi', cited.doi],
  ];
  return `@${entry}{${key},\n${fields
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `  ${name} = {${value}}`)
    .join(',\n')}\n}`;
}

export function render(style: Style, cited: Cited, key: string): string {
  switch (style) {
    case 'apa':
      return apa(cited);
    case 'vancouver':
      return vancouver(cited);
    case 'chicago':
      return chicago(cited);
    case 'harvard':
      return harvard(cited);
    case 'ieee':
      return ieee(cited);
    case 'bibtex':
      return bibtex(cited, key);
  }
}

/**
 * The labelled set of the verify_references evaluation, built deterministically from the real
 * papers of papers.ts. Each reference cites one paper in one of the six styles and is labelled:
 * - correct: copied right → verified (and matched to that paper);
 * - verbatim: a reference exactly as a person wrote it in a real reference list (its style is
 *   "verbatim") → verified;
 * - near_duplicate: a paper whose near-twin (preprint and published version, an earlier or later
 *   paper by the same authors with an overlapping title) is also in the index → verified, matched
 *   to the cited one, not the twin;
 * - retracted: a retracted paper (cited plainly, or with the index's "RETRACTED:" prefix) →
 *   verified, matched to the paper (never to its notice) and flagged retracted;
 * - wrong_year / wrong_volume / wrong_pages / wrong_first_author / wrong_journal / wrong_doi
 *   (a mistyped DOI that resolves nowhere) / borrowed_doi (the DOI of another real paper of the
 *   set) → corrected, naming that field;
 * - fabricated: an invented paper built the way invented references look (half the words of a real
 *   title with others, other authors and year, a real journal; some with a real paper's DOI)
 *   → not_found.
 * One paper in three (by id) is held out: its references are reported apart and were never looked
 * at while the matcher was tuned.
 */
import { loadPapers, type Author, type EvalPaper } from './papers.ts';
import { render, STYLES, type Cited, type Style } from './styles.ts';

export const CATEGORIES = [
  'correct',
  'verbatim',
  'near_duplicate',
  'retracted',
  'wrong_year',
  'wrong_volume',
  'wrong_pages',
  'wrong_first_author',
  'wrong_journal',
  'wrong_doi',
  'borrowed_doi',
  'fabricated',
] as const;
export type Category = (typeof CATEGORIES)[number];
export type ExpectedStatus = 'verified' | 'corrected' | 'not_found';
export type Field = 'year' | 'volume' | 'pages' | 'doi' | 'journal' | 'first_author';

export interface Labelled {
  reference: string;
  style: Style | 'verbatim';
  category: Category;
  expected: ExpectedStatus;
  /** The field an error was put in (corrected references). */
  field?: Field;
  /** The paper the reference cites (absent for fabricated ones). */
  paper?: EvalPaper;
  /** Part of the held-out third. */
  heldOut: boolean;
}

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export const isHeldOut = (paper: EvalPaper) => paper.id % 3 === 2;

/** Titles (as in the data file) of papers whose near-twin is in the set too. */
const NEAR_DUPLICATES = [
  'Deep learning and alignment of spatially-resolved whole transcriptomes of single cells in the mouse brain with Tangram',
  'Deep learning and alignment of spatially resolved single-cell transcriptomes with Tangram',
  'Hazard plotting for incomplete failure data',
  'Theory and applications of hazard plotting for censored failure data',
  'Random survival forests',
  'Random survival forests for competing risks',
  'Oblique random survival forests',
  'Accelerated and interpretable oblique random survival forests',
  'Boosting with the L2 loss: regression and classification',
  'Boosting for High-Dimensional Linear Models',
  'Diffusion maps for high-dimensional single-cell analysis of differentiation data',
  'Diffusion pseudotime robustly reconstructs lineage branching',
  'Characterization of the single-cell transcriptional landscape by highly multiplex RNA-seq',
  'Quantitative single-cell RNA-seq with unique molecular identifiers',
  'Time-to-event prediction with neural networks and Cox regression',
  'Continuous and discrete-time survival prediction with neural networks',
  'Accurate predictions on small data with a tabular foundation model',
  'TabPFN: A transformer that solves small tabular classification problems in a second',
  'Deep Generative Models for Detecting Differential Expression in Single Cells',
  'Deep generative modeling of sample-level heterogeneity in single-cell genomics',
  'Evaluating Prediction Rules for t-Year Survivors With Censored Regression Models',
  'On the C-statistics for evaluating overall adequacy of risk prediction procedures with censored survival data',
  'Generalized simulated annealing',
  'Generalized Simulated Annealing for Global Optimization: The GenSA Package',
  'Improved performance on high-dimensional survival data by application of Survival-SVM',
  'Support vector methods for survival analysis: a comparison between ranking and regression approaches',
  'Density-based clustering based on hierarchical density estimates',
  'A density-based algorithm for discovering clusters in large spatial databases with noise',
];

/** Made-up words and names for fabricated references (none is in the set's titles). */
const INVENTED_WORDS = [
  'adaptive',
  'federated',
  'hierarchical',
  'causal',
  'robust',
  'sparse',
  'multimodal',
  'longitudinal',
  'quantum',
  'contrastive',
  'spectral',
  'topological',
  'bayesian',
  'graph-based',
  'scalable',
  'interpretable',
];
const INVENTED_TOPICS = [
  'urban air quality',
  'coral reef resilience',
  'wastewater surveillance',
  'glacier retreat',
  'pediatric sepsis',
  'crop yield forecasting',
  'seismic hazard',
  'maternal health records',
  'soil microbiomes',
  'traffic flow',
];
const INVENTED_AUTHORS: Author[] = [
  { family: 'Okonkwo', given: 'Chidi' },
  { family: 'Lindqvist', given: 'Petra' },
  { family: 'Varga', given: 'Eszter' },
  { family: 'Nakamura', given: 'Hiroshi' },
  { family: 'Osei', given: 'Kwame' },
  { family: 'Brandt', given: 'Sofie' },
  { family: 'Ferreira', given: 'Ana' },
  { family: 'Holm', given: 'Jonas' },
  { family: 'Wójcik', given: 'Agnieszka' },
  { family: 'Mbeki', given: 'Sipho' },
  { family: "O'Kane", given: 'Declan' },
  { family: 'de la Cruz', given: 'María' },
];

const CONTENT = (word: string) => word.length > 3 && !/^(with|from|that|this|using|their|into|under|over|between|for|and|the)$/i.test(word);

/** An invented title: about half the words of a real title, the rest invented. */
function halfTitle(paper: EvalPaper, next: () => number): string {
  const words = paper.title.split(/\s+/);
  const keep = words.map((word, index) => index < Math.ceil(words.length / 2) || !CONTENT(word));
  const replaced = words.map((word, index) => (keep[index] ? word : INVENTED_WORDS[Math.floor(next() * INVENTED_WORDS.length)]!));
  return `${replaced.join(' ')} for ${INVENTED_TOPICS[Math.floor(next() * INVENTED_TOPICS.length)]}`;
}

function citedOf(paper: EvalPaper): Cited {
  return {
    kind: paper.kind,
    authors: paper.authors,
    moreAuthors: paper.moreAuthors,
    year: paper.year,
    title: paper.title,
    venue: paper.venue,
    volume: paper.volume,
    issue: paper.issue,
    pages: paper.pages,
    doi: paper.doi,
  };
}

/** The paper's metadata with one field wrong; undefined when the paper lacks that field. */
function withError(field: Category, paper: EvalPaper, papers: EvalPaper[], next: () => number): Cited | undefined {
  const cited = citedOf(paper);
  const other = () => papers[Math.floor(next() * papers.length)]!;
  switch (field) {
    case 'wrong_year':
      return { ...cited, year: paper.year + (next() < 0.5 ? -2 : 3) };
    case 'wrong_volume':
      return applies(field, paper) ? { ...cited, volume: String(Number(paper.volume) + 3) } : undefined;
    case 'wrong_pages': {
      const range = /^(\d+)-(\d+)$/.exec(paper.pages ?? '');
      return range ? { ...cited, pages: `${Number(range[1]) + 40}-${Number(range[2]) + 40}` } : undefined;
    }
    case 'wrong_first_author': {
      let name = other().authors[0]!;
      while (name.family === paper.authors[0]!.family) name = other().authors[0]!;
      return { ...cited, authors: [name, ...paper.authors.slice(1)] };
    }
    case 'wrong_journal': {
      if (paper.kind !== 'article') return undefined;
      let venue = other();
      while (venue.kind !== 'article' || venue.venue.toLowerCase() === paper.venue.toLowerCase()) venue = other();
      return { ...cited, venue: venue.venue };
    }
    case 'wrong_doi':
      return applies(field, paper) ? { ...cited, doi: paper.doi!.replace(/(\d)(?!.*\d)/, (digit) => String((Number(digit) + 1) % 10)) } : undefined;
    case 'borrowed_doi': {
      if (!applies(field, paper)) return undefined;
      let lender = other();
      while (!lender.doi || lender.id === paper.id || lender.doi.startsWith('10.48550/')) lender = other();
      return { ...cited, doi: lender.doi };
    }
    default:
      return cited;
  }
}

/** Whether the paper has the field an error category changes. */
function applies(category: Category, paper: EvalPaper): boolean {
  switch (category) {
    case 'wrong_volume':
      return paper.kind === 'article' && paper.volume !== undefined && /^\d+$/.test(paper.volume);
    case 'wrong_pages':
      return /^(\d+)-(\d+)$/.test(paper.pages ?? '');
    case 'wrong_journal':
      return paper.kind === 'article';
    case 'wrong_doi':
    case 'borrowed_doi':
      return paper.doi !== undefined && !paper.doi.startsWith('10.48550/');
    default:
      return true;
  }
}

const FIELD_OF: Partial<Record<Category, Field>> = {
  wrong_year: 'year',
  wrong_volume: 'volume',
  wrong_pages: 'pages',
  wrong_first_author: 'first_author',
  wrong_journal: 'journal',
  wrong_doi: 'doi',
  borrowed_doi: 'doi',
};

/** References per category (near-duplicate and retracted ones: every listed paper). */
const QUOTA: Partial<Record<Category, number>> = {
  correct: 90,
  wrong_year: 14,
  wrong_volume: 14,
  wrong_pages: 14,
  wrong_first_author: 14,
  wrong_journal: 12,
  wrong_doi: 9,
  borrowed_doi: 12,
  fabricated: 42,
};

export function buildLabelled(papers = loadPapers()): Labelled[] {
  const next = random(20261123);
  const labelled: Labelled[] = [];
  let styleTurn = 0;
  const style = () => STYLES[styleTurn++ % STYLES.length]!;
  const add = (category: Category, cited: Cited, paper: EvalPaper | undefined, chosen = style()) => {
    const expected: ExpectedStatus = category === 'fabricated' ? 'not_found' : FIELD_OF[category] ? 'corrected' : 'verified';
    labelled.push({
      reference: render(chosen, cited, `ref${labelled.length + 1}`),
      style: chosen,
      category,
      expected,
      field: FIELD_OF[category],
      paper,
      heldOut: paper ? isHeldOut(paper) : labelled.length % 3 === 2,
    });
  };

  const asWritten = (category: Category, paper: EvalPaper, reference: string) =>
    labelled.push({ reference, style: 'verbatim', category, expected: 'verified', paper, heldOut: isHeldOut(paper) });
  for (const paper of papers) for (const reference of paper.verbatim) asWritten(paper.retraction ? 'retracted' : 'verbatim', paper, reference);

  const twins = NEAR_DUPLICATES.map(
    (title) =>
      papers.find((paper) => paper.title === title) ??
      (() => {
        throw new Error(`near-duplicate not in the data: ${title}`);
      })(),
  );
  for (const paper of twins) add('near_duplicate', citedOf(paper), paper);
  for (const paper of papers.filter((entry) => entry.retraction)) {
    add('retracted', citedOf(paper), paper);
    add('retracted', { ...citedOf(paper), title: paper.retraction!.indexTitle }, paper);
  }

  // Every other paper is used once at most; the order is shuffled so categories mix sources.
  const pool = papers
    .filter((paper) => !paper.retraction && !twins.includes(paper))
    .map((paper) => ({ paper, key: next() }))
    .sort((a, b) => a.key - b.key)
    .map((entry) => entry.paper);
  const erroneous: Category[] = ['wrong_year', 'wrong_volume', 'wrong_pages', 'wrong_first_author', 'wrong_journal', 'wrong_doi', 'borrowed_doi'];
  const left = new Map(erroneous.map((category) => [category, QUOTA[category]!]));
  const rest: EvalPaper[] = [];
  for (const paper of pool) {
    const category = erroneous.find((candidate) => left.get(candidate)! > 0 && applies(candidate, paper));
    if (!category) {
      rest.push(paper);
      continue;
    }
    left.set(category, left.get(category)! - 1);
    add(category, withError(category, paper, papers, next)!, paper);
  }
  for (const paper of rest.slice(0, QUOTA.correct)) add('correct', citedOf(paper), paper);

  // Fabricated: other authors, another year, a real journal; a third carry a real paper's DOI.
  for (let index = 0; index < QUOTA.fabricated!; index += 1) {
    const model = papers[Math.floor(next() * papers.length)]!;
    const journal = papers.filter((paper) => paper.kind === 'article')[Math.floor(next() * 200)]!;
    const authors = [0, 1, 2].slice(0, 1 + (index % 3)).map(() => INVENTED_AUTHORS[Math.floor(next() * INVENTED_AUTHORS.length)]!);
    const lender = papers.filter((paper) => paper.doi && !paper.doi.startsWith('10.48550/'))[Math.floor(next() * 150)]!;
    const firstPage = 100 + Math.floor(next() * 800);
    add(
      'fabricated',
      {
        kind: 'article',
        authors,
        moreAuthors: false,
        year: 2016 + Math.floor(next() * 9),
        title: halfTitle(model, next),
        venue: journal.venue,
        volume: String(10 + Math.floor(next() * 90)),
        issue: String(1 + Math.floor(next() * 12)),
        pages: `${firstPage}-${firstPage + 12}`,
        doi: index % 3 === 0 ? lender.doi : undefined,
      },
      undefined,
    );
  }
  return labelled;
}

export const labelled = buildLabelled();

/**
 * The verify_references evaluation: the labelled set checked through the real tool code, the real
 * connectors and the real upstream layer, against the fake Crossref/OpenAlex index. A reference
 * counts as correct when its status is the expected one and, for a verified or corrected one, it
 * was matched to the cited paper (by DOI, or by title when the paper has none), a retracted paper
 * is flagged retracted, and a corrected one names the field that was changed.
 */
import { normalizeText } from '../../../src/literature/paper.ts';
import { checkAll, isRetracted, type Checked } from '../../../src/tools/verify-references.ts';
import { UpstreamClient } from '../../../src/upstream/client.ts';
import { HostGroupLimiter } from '../../../src/upstream/limits.ts';
import { startIndexServer } from './index-server.ts';
import { CATEGORIES, labelled as fullSet, type Labelled } from './labelled-references.ts';
import { STYLES } from './styles.ts';

export interface Row extends Labelled {
  actual: string;
  fields: string[];
  matchedRight: boolean;
  retracted: boolean;
  correct: boolean;
}

export interface Tally {
  total: number;
  correct: number;
}

export interface EvaluationResult {
  rows: Row[];
  overall: Tally;
  tuning: Tally;
  heldOut: Tally;
  byCategory: Record<string, Tally>;
  byStyle: Record<string, Tally>;
  fabricatedVerified: number;
  borrowedDoiVerified: number;
  retractedFlagged: Tally;
  /** Corrected references whose changed field is among the reported differences. */
  fieldNamed: Tally;
}

const STRIP_PREFIX = /^(retracted( article)?|withdrawn)\s*[:.]\s*/i;

function matchedRight(item: Labelled, checked: Checked): boolean {
  const paper = checked.verdict.status === 'not_found' ? undefined : checked.verdict.best?.paper;
  if (!item.paper || !paper) return false;
  if (item.paper.doi) return paper.doi === item.paper.doi;
  return normalizeText(paper.title?.replace(STRIP_PREFIX, '')) === normalizeText(item.paper.title);
}

function rowOf(item: Labelled, checked: Checked): Row {
  const actual = checked.verdict.status;
  const fields = checked.verdict.differences.map((difference) => difference.field);
  const right = matchedRight(item, checked);
  const retracted = actual !== 'not_found' && checked.verdict.best !== undefined && isRetracted(checked.verdict.best.paper);
  const correct =
    item.expected === 'not_found'
      ? actual === 'not_found'
      : actual === item.expected && right && (item.field === undefined || fields.includes(item.field)) && (item.category !== 'retracted' || retracted);
  return { ...item, actual, fields, matchedRight: right, retracted, correct };
}

const tally = (rows: Row[]): Tally => ({ total: rows.length, correct: rows.filter((row) => row.correct).length });

export async function runEvaluation(set: Labelled[] = fullSet): Promise<EvaluationResult> {
  const server = await startIndexServer();
  const upstream = new UpstreamClient({
    sources: { CROSSREF: { url: server.url }, OPENALEX: { url: server.url, key: 'evaluation-key' } },
    contactEmail: 'evaluation@example.org',
  });
  // The fake index is a local server: paced like one, not at the real APIs' published rates.
  Object.assign(upstream, { limiter: new HostGroupLimiter(() => ({ requestsPerSecond: 10_000, concurrency: 8 })) });
  try {
    const checked = await checkAll(
      upstream,
      set.map((item) => item.reference),
    );
    const rows = set.map((item, index) => rowOf(item, checked[index]!));
    const corrected = rows.filter((row) => row.expected === 'corrected');
    return {
      rows,
      overall: tally(rows),
      tuning: tally(rows.filter((row) => !row.heldOut)),
      heldOut: tally(rows.filter((row) => row.heldOut)),
      byCategory: Object.fromEntries(CATEGORIES.map((category) => [category, tally(rows.filter((row) => row.category === category))])),
      byStyle: Object.fromEntries([...STYLES, 'verbatim' as const].map((style) => [style, tally(rows.filter((row) => row.style === style))])),
      fabricatedVerified: rows.filter((row) => row.category === 'fabricated' && row.actual === 'verified').length,
      borrowedDoiVerified: rows.filter(
        (row) => (row.category === 'borrowed_doi' || (row.category === 'fabricated' && /\b10\.\d{4,9}\//.test(row.reference))) && row.actual === 'verified',
      ).length,
      retractedFlagged: {
        total: rows.filter((row) => row.category === 'retracted').length,
        correct: rows.filter((row) => row.category === 'retracted' && row.retracted && row.matchedRight).length,
      },
      fieldNamed: { total: corrected.length, correct: corrected.filter((row) => row.field !== undefined && row.fields.includes(row.field)).length },
    };
  } finally {
    await upstream.close();
    await server.close();
  }
}

const percent = ({ total, correct }: Tally) => `${correct}/${total} = ${total === 0 ? '-' : ((100 * correct) / total).toFixed(1)}%`;

/** The figures as text; misses are listed for the tuning part only unless `showHeldOut`. */
export function report(result: EvaluationResult, showHeldOut = false): string {
  const papers = new Set(result.rows.flatMap((row) => (row.paper ? [row.paper.id] : []))).size;
  const lines = [
    `verify_references evaluation: ${result.overall.total} labelled references citing ${papers} real papers (index: every paper of the data file, retraction notices included)`,
    `accuracy overall      ${percent(result.overall)}`,
    `  tuning part         ${percent(result.tuning)}`,
    `  held-out part       ${percent(result.heldOut)}`,
    '',
    'by category:',
    ...Object.entries(result.byCategory).map(([category, value]) => `  ${category.padEnd(20)}${percent(value)}`),
    'by style:',
    ...Object.entries(result.byStyle).map(([style, value]) => `  ${style.padEnd(20)}${percent(value)}`),
    '',
    'expected \\ got     verified  corrected  not_found  uncertain',
    ...(['verified', 'corrected', 'not_found'] as const).map((expected) => {
      const rows = result.rows.filter((row) => row.expected === expected);
      return `  ${expected.padEnd(16)}${['verified', 'corrected', 'not_found', 'uncertain'].map((actual) => String(rows.filter((row) => row.actual === actual).length).padStart(9)).join('  ')}`;
    }),
    '',
    `fabricated references verified:      ${result.fabricatedVerified}`,
    `borrowed-DOI references verified:    ${result.borrowedDoiVerified}`,
    `retracted papers matched and flagged ${percent(result.retractedFlagged)}`,
    `corrected field named                ${percent(result.fieldNamed)}`,
  ];
  const misses = result.rows.filter((row) => !row.correct && (showHeldOut || !row.heldOut));
  const hidden = result.rows.filter((row) => !row.correct && row.heldOut && !showHeldOut).length;
  if (misses.length > 0) {
    lines.push(
      '',
      'misses:',
      ...misses.map(
        (row) =>
          `  [${row.category}/${row.style}${row.heldOut ? '/held-out' : ''}] expected ${row.expected}${row.field ? ` (${row.field})` : ''}, got ${row.actual} [${row.fields.join(', ')}]${row.expected !== 'not_found' && !row.matchedRight ? ' (other paper)' : ''}: ${row.reference.replace(/\s+/g, ' ').slice(0, 160)}`,
      ),
    );
  }
  if (hidden > 0) lines.push(`  (${hidden} held-out misses not shown)`);
  return lines.join('\n');
}

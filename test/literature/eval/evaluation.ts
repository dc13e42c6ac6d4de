/**
 * The verify_references evaluation: the labelled set checked through the real connectors and the
 * real upstream layer, against the fake index server. Returns the confusion matrix and accuracies.
 */
import { checkAll } from '../../../src/tools/verify-references.ts';
import { UpstreamClient } from '../../../src/upstream/client.ts';
import { startIndexServer } from './index-server.ts';
import { labelled, type Labelled } from './labelled-references.ts';

export const STATUSES = ['verified', 'corrected', 'not_found', 'uncertain'] as const;
type Status = (typeof STATUSES)[number];

export interface EvaluationResult {
  total: number;
  correct: number;
  accuracy: number;
  /** matrix[expected][actual] */
  matrix: Record<Status, Record<Status, number>>;
  perStatus: Record<Status, { total: number; correct: number }>;
  rows: Array<Labelled & { actual: Status; fields: string[] }>;
}

export async function runEvaluation(): Promise<EvaluationResult> {
  const server = await startIndexServer();
  const upstream = new UpstreamClient({
    sources: { CROSSREF: { url: server.url }, OPENALEX: { url: server.url, key: 'evaluation-key' } },
    contactEmail: 'evaluation@example.org',
  });
  try {
    const checked = await checkAll(upstream, labelled.map((item) => item.reference));
    const matrix = Object.fromEntries(STATUSES.map((row) => [row, Object.fromEntries(STATUSES.map((column) => [column, 0]))])) as EvaluationResult['matrix'];
    const perStatus = Object.fromEntries(STATUSES.map((status) => [status, { total: 0, correct: 0 }])) as EvaluationResult['perStatus'];
    const rows = labelled.map((item, index) => {
      const actual = checked[index]!.verdict.status;
      matrix[item.expected][actual] += 1;
      perStatus[item.expected].total += 1;
      if (actual === item.expected) perStatus[item.expected].correct += 1;
      return { ...item, actual, fields: checked[index]!.verdict.differences.map((difference) => difference.field) };
    });
    const correct = rows.filter((row) => row.actual === row.expected && (row.field === undefined || row.fields.includes(row.field))).length;
    return { total: rows.length, correct, accuracy: correct / rows.length, matrix, perStatus, rows };
  } finally {
    await upstream.close();
    await server.close();
  }
}

export function report(result: EvaluationResult): string {
  const pad = (text: string | number, width = 11) => String(text).padStart(width);
  const lines = [
    `verify_references evaluation: ${result.total} labelled references (${labelled.filter((item) => item.kind === 'correct').length} correct, ${labelled.filter((item) => item.expected === 'corrected').length} with an injected error, ${labelled.filter((item) => item.kind === 'fabricated').length} fabricated)`,
    '',
    `${'expected \\ got'.padEnd(16)}${STATUSES.map((status) => pad(status)).join('')}`,
    ...STATUSES.map((row) => `${row.padEnd(16)}${STATUSES.map((column) => pad(result.matrix[row][column])).join('')}`),
    '',
    ...STATUSES.filter((status) => result.perStatus[status].total > 0).map((status) => {
      const { total, correct } = result.perStatus[status];
      return `accuracy ${status.padEnd(10)} ${correct}/${total} = ${((100 * correct) / total).toFixed(1)}%`;
    }),
    `accuracy overall    ${result.correct}/${result.total} = ${(100 * result.accuracy).toFixed(1)}% (a corrected reference counts only when the injected field is among those reported)`,
  ];
  const wrong = result.rows.filter((row) => row.actual !== row.expected || (row.field !== undefined && !row.fields.includes(row.field)));
  if (wrong.length > 0) lines.push('', 'misses:', ...wrong.map((row) => `  [${row.kind}] expected ${row.expected}${row.field ? ` (${row.field})` : ''}, got ${row.actual} [${row.fields.join(', ')}]: ${row.reference.slice(0, 90)}`));
  return lines.join('\n');
}

/** Output formats: text (default), markdown (a pull-request comment), json, github (Actions annotations). */
import type { Change } from './diff.ts';
import { levelRank, type Level } from './rules.ts';

export const FORMATS = ['text', 'markdown', 'json', 'github'] as const;
export type Format = (typeof FORMATS)[number];

export interface Report {
  base: string;
  revision: string;
  changes: Change[];
  /** The revision file, when it is a file (annotations point at it). */
  file?: string;
}

export function counts(changes: Change[]): Record<Level, number> {
  const out: Record<Level, number> = { ERR: 0, WARN: 0, INFO: 0 };
  for (const change of changes) out[change.level]++;
  return out;
}

/** Most severe first; the walk order is kept within a level. */
export function sorted(changes: Change[]): Change[] {
  return changes
    .map((change, index) => ({ change, index }))
    .sort((a, b) => levelRank(b.change.level) - levelRank(a.change.level) || a.index - b.index)
    .map(({ change }) => change);
}

function summary(changes: Change[]): string {
  const c = counts(changes);
  return changes.length === 0 ? 'no changes' : `${changes.length} change${changes.length === 1 ? '' : 's'}: ${c.ERR} ERR, ${c.WARN} WARN, ${c.INFO} INFO`;
}

function text(report: Report): string {
  const lines = [`OpenAPI diff ${report.base} -> ${report.revision}: ${summary(report.changes)}`];
  for (const change of sorted(report.changes)) {
    lines.push(`${change.level.padEnd(4)} ${change.id}${change.operation ? `  ${change.operation}` : ''}`);
    lines.push(`     ${change.message}`);
    lines.push(`     at ${change.path}`);
  }
  return lines.join('\n');
}

function cell(value: string): string {
  return value.replaceAll('|', '\\|').replaceAll('\n', ' ');
}

function markdown(report: Report): string {
  const c = counts(report.changes);
  const lines = [`### OpenAPI changes: \`${report.base}\` → \`${report.revision}\``, ''];
  if (report.changes.length === 0) {
    lines.push('No changes.');
    return lines.join('\n');
  }
  lines.push(`**${c.ERR} breaking (ERR)**, ${c.WARN} possibly breaking (WARN), ${c.INFO} not breaking (INFO).`, '');
  lines.push('| level | rule | operation | change | path |', '| --- | --- | --- | --- | --- |');
  for (const change of sorted(report.changes)) {
    lines.push(`| ${change.level} | \`${change.id}\` | ${cell(change.operation ?? '')} | ${cell(change.message)} | \`${cell(change.path)}\` |`);
  }
  return lines.join('\n');
}

function json(report: Report): string {
  return JSON.stringify({ base: report.base, revision: report.revision, summary: counts(report.changes), changes: sorted(report.changes) }, null, 2);
}

function escapeData(value: string): string {
  return value.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');
}

function escapeProperty(value: string): string {
  return escapeData(value).replaceAll(':', '%3A').replaceAll(',', '%2C');
}

function github(report: Report): string {
  const command = { ERR: 'error', WARN: 'warning', INFO: 'notice' } as const;
  const lines = sorted(report.changes).map((change) => {
    const properties = [`title=${escapeProperty(`${change.id}${change.operation ? ` (${change.operation})` : ''}`)}`];
    if (report.file) properties.unshift(`file=${escapeProperty(report.file)}`);
    return `::${command[change.level]} ${properties.join(',')}::${escapeData(`${change.message} at ${change.path}`)}`;
  });
  lines.push(`OpenAPI diff ${report.base} -> ${report.revision}: ${summary(report.changes)}`);
  return lines.join('\n');
}

export function render(report: Report, format: Format): string {
  switch (format) {
    case 'markdown':
      return markdown(report);
    case 'json':
      return json(report);
    case 'github':
      return github(report);
    default:
      return text(report);
  }
}

/**
 * TAP/ADQL helpers shared by the SIMBAD, Exoplanet Archive and Gaia connectors. Every argument
 * enters a query through these functions: strings as quoted literals with quotes doubled and
 * control characters removed, numbers only as finite numbers written by JavaScript, so no argument
 * can change the structure of a query.
 */
import { bodySnippet } from '../upstream/body.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { parseJsonKeepingBigIntegers } from '../upstream/json.ts';
import { votableRows } from './votable.ts';

/** A string literal: `O'Brien` → `'O''Brien'`. Control characters (newlines included) are dropped. */
export function adqlString(value: string): string {
  const clean = value.replace(/[\u0000-\u001f\u007f]/g, '');
  return `'${clean.replace(/'/g, "''")}'`;
}

/** A LIKE pattern matching `value` anywhere; its own quotes are doubled like any literal. */
export function adqlContains(value: string): string {
  return adqlString(`%${value}%`);
}

/** A numeric literal; anything but a finite number is refused. */
export function adqlNumber(value: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`not a finite number: ${String(value)}`);
  return String(value).replace('e', 'E');
}

/** An integer literal (row limits, years). */
export function adqlInteger(value: number): string {
  if (!Number.isSafeInteger(value)) throw new TypeError(`not an integer: ${String(value)}`);
  return String(value);
}

export type TapRow = Record<string, unknown>;

/**
 * Rows of a TAP JSON answer. Two layouts are in use: `{metadata:[{name,…}], data:[[…]]}` (CDS,
 * ESA) with rows aligned to metadata, and a bare array of row objects (NASA Exoplanet Archive).
 */
export function tapRows(source: string, body: unknown): TapRow[] {
  if (Array.isArray(body)) return body.filter((row): row is TapRow => row !== null && typeof row === 'object' && !Array.isArray(row));
  if (body && typeof body === 'object' && Array.isArray((body as { metadata?: unknown }).metadata) && Array.isArray((body as { data?: unknown }).data)) {
    const { metadata, data } = body as { metadata: Array<{ name: string }>; data: unknown[][] };
    const names = metadata.map((column) => column.name);
    return data.map((row) => Object.fromEntries(names.map((name, index) => [name, row[index]])));
  }
  throw new UpstreamError(source, 'bad_body', `${source} answered with JSON that is not a TAP result table`);
}

/**
 * Rows of a TAP answer read as text, whatever format came back: a VOTable (the TAP default, and
 * the format of TAP error answers) or one of the JSON layouts above.
 */
export function tapAnswerRows(source: string, text: string): TapRow[] {
  if (text.trimStart().startsWith('<')) return votableRows(source, text);
  let body: unknown;
  try {
    body = parseJsonKeepingBigIntegers(text);
  } catch {
    throw new UpstreamError(source, 'bad_body', `${source} answered with a body that is neither a VOTable nor JSON, beginning "${bodySnippet(text)}"`);
  }
  return tapRows(source, body);
}

/** A finite number from a TAP cell (numbers may also arrive as strings), otherwise undefined. */
export function numberCell(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

export function textCell(value: unknown): string | undefined {
  if (typeof value !== 'string') return value === null || value === undefined ? undefined : String(value);
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

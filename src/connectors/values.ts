/**
 * Readers of loosely typed upstream JSON: each gives a clean value or undefined (never null, never
 * ""), so a missing value stays absent in the record. Numbers may arrive as strings (COD, NSF,
 * PubChem weights): `num` reads both.
 */
export type Json = Record<string, unknown>;

export const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
export const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
export const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

/** A finite number from a number or a numeric string ("180.16", "216722"); anything else undefined. */
export const num = (value: unknown): number | undefined => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value.trim()) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : undefined;
};

export const int = (value: unknown): number | undefined => {
  const parsed = num(value);
  return parsed !== undefined && Number.isInteger(parsed) ? parsed : undefined;
};

/** Non-empty strings of an array, trimmed and without repeats; undefined when none. */
export const strings = (value: unknown): string[] | undefined => {
  const list = Array.isArray(value) ? [...new Set(value.flatMap((item) => str(item) ?? []))] : [];
  return list.length > 0 ? list : undefined;
};

/** `list` itself, or undefined when it is empty (an empty array is a missing value). */
export const nonEmpty = <T>(list: T[]): T[] | undefined => (list.length > 0 ? list : undefined);

/** The date part (YYYY-MM-DD) of an ISO date or date-time; undefined otherwise. */
export const isoDate = (value: unknown): string | undefined => /^(\d{4}-\d{2}-\d{2})/.exec(str(value) ?? '')?.[1];

/** Plain text from an HTML fragment: tags dropped, common entities decoded, whitespace collapsed. */
export function plainText(html: unknown): string | undefined {
  const text = str(html)
    ?.replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return text ? text : undefined;
}

/** `text` cut at a word boundary to at most `max` characters, with an ellipsis when cut. */
export function shorten(text: string | undefined, max: number): string | undefined {
  if (text === undefined || text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

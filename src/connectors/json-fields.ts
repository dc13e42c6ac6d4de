/** Readers of loosely typed JSON fields, shared by the connectors of the earth and archive tools. */

/** A non-empty string, trimmed, inner whitespace collapsed; undefined otherwise. */
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim().replace(/\s+/g, ' ') : undefined);

/** A finite number; undefined otherwise (never NaN, never a numeric string). */
export const finite = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** The first string of a field that may be a string or an array of strings. */
export const first = (value: unknown): string | undefined => (Array.isArray(value) ? value.map(text).find(Boolean) : text(value));

/** The distinct strings of a field that may be a string or an array; undefined when there are none. */
export function strings(value: unknown): string[] | undefined {
  const list = (Array.isArray(value) ? value : [value]).map(text).filter((item): item is string => item !== undefined);
  return list.length > 0 ? [...new Set(list)] : undefined;
}

/** A text cut to `length` characters, an ellipsis marking the cut. */
export const clip = (value: string | undefined, length: number): string | undefined =>
  value && value.length > length ? `${value.slice(0, length - 1)}…` : value;

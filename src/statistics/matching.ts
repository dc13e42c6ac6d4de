/**
 * The words of a query: lower case, stop words and years left out, a plural -s removed. The
 * catalogue search (./catalogue-index.ts) treats terms the same way.
 */
export const STOP_WORDS = new Set([
  'a',
  'an',
  'and',
  'at',
  'by',
  'data',
  'for',
  'from',
  'in',
  'of',
  'on',
  'since',
  'the',
  'to',
  'total',
  'what',
  'was',
  'is',
  'how',
  'series',
]);

/** A lower-case word without its plural -s ("rates" → "rate", "class" kept). */
export const singular = (word: string): string => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word);

/** Lower-case words of a text, stop words and a plural -s removed ("rates" → "rate"). */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((word) => !STOP_WORDS.has(word) && !/^\d{4}$/.test(word)).map(singular);
}

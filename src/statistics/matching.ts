/**
 * Word matching for the sources that have no search endpoint (World Bank, BLS, OECD, Eurostat,
 * IMF, Census): their catalogue titles are searched here, client-side.
 */
const STOP_WORDS = new Set([
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

/** Lower-case words of a text, stop words and a plural -s removed ("rates" → "rate"). */
export function wordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? [])
    .filter((word) => !STOP_WORDS.has(word) && !/^\d{4}$/.test(word))
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}

/** Share of the query's words found in the title (0 when none); every word found gives 1. */
export function matchScore(title: string, queryWords: string[]): number {
  if (queryWords.length === 0) return 0;
  const titleWords = new Set(wordsOf(title));
  return queryWords.filter((word) => titleWords.has(word)).length / queryWords.length;
}

/** The items whose title matches at least one query word, best first (ties keep catalogue order), at most `limit`. */
export function bestMatches<T>(items: readonly T[], titleOf: (item: T) => string, queryWords: string[], limit: number): T[] {
  return items
    .map((item, index) => ({ item, index, score: matchScore(titleOf(item), queryWords) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, limit)
    .map((entry) => entry.item);
}

/** Text helpers shared by the two client emitters. */
import type { DefaultFrom } from '../manifest/types.ts';

/** The version both client packages carry. */
export const CLIENT_VERSION = '1.0.0';

/** Words of `text` (whitespace and line breaks collapsed) in lines of at most `width` characters; a longer word stays whole. */
export function wrapText(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** "Default: depends on kind: '16:9' when it is graphical_abstract or workflow, otherwise '4:3'." */
export function describeDefaultFrom(defaultFrom: DefaultFrom, literal: (value: unknown) => string): string {
  const byValue = new Map<string, string[]>();
  for (const [when, value] of Object.entries(defaultFrom.map)) {
    const key = literal(value);
    byValue.set(key, [...(byValue.get(key) ?? []), when]);
  }
  const cases = [...byValue].map(([value, whens]) => `${value} when ${defaultFrom.field} is ${whens.join(' or ')}`);
  return `Default: ${cases.join(', ')}, otherwise ${literal(defaultFrom.otherwise)}.`;
}

/**
 * Crystallography Open Database search (`/result?format=json`): experimental crystal structures by
 * formula (Hill order with spaces: "Fe2 O3"), exact element set (`el1`… with `strictmin`/`strictmax`)
 * or id. Every value is a string (missing ones null); formulas come wrapped as "- C9 H8 O4 -". There
 * is no paging: all matches come at once.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { crystalSystemOf, hillFormula, parseFormula, type Lattice, type Material } from './materials.ts';
import { arr, int, num, str } from './values.ts';

export const SOURCE = 'cod' as const;
const PUBLIC_SITE = 'https://www.crystallography.net/cod';
/** COD's element search takes at most eight elements (el1 … el8). */
export const MAX_ELEMENTS = 8;

export type Criteria = { formula: string } | { elements: string[] } | { codId: string };

export const cifUrl = (id: string): string => `${PUBLIC_SITE}/${id}.cif`;
export const pageUrl = (id: string): string => `${PUBLIC_SITE}/${id}.html`;

/** "- C9 H8 O4 -" → "C9H8O4". */
export function compactFormula(value: unknown): string | undefined {
  const text = str(value)
    ?.replace(/^-\s*|\s*-$/g, '')
    .trim();
  return text ? text.replace(/\s+/g, '') : undefined;
}

function parseLattice(entry: Record<string, unknown>): Lattice | undefined {
  const [a, b, c, alpha, beta, gamma] = [entry.a, entry.b, entry.c, entry.alpha, entry.beta, entry.gamma].map(num);
  if (a === undefined || b === undefined || c === undefined || alpha === undefined || beta === undefined || gamma === undefined) return undefined;
  return { a, b, c, alpha, beta, gamma, volume: num(entry.vol) };
}

export function parseEntries(body: unknown): Material[] {
  // COD answers an empty body (or nothing but whitespace) when nothing matches.
  if (body === null) return [];
  if (!Array.isArray(body)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a list of entries`);
  return arr(body).flatMap((entry) => {
    const file = str(entry.file);
    const formula = compactFormula(entry.formula);
    if (!file || !/^\d+$/.test(file) || !formula) return [];
    const spaceGroupNumber = int(entry.sgNumber);
    const elements = parseFormula(formula)
      ?.map((part) => part.element)
      .sort();
    return [
      {
        materialId: `cod-${file}`,
        formula,
        elements,
        mineralName: str(entry.mineral) ?? str(entry.commonname) ?? str(entry.chemname),
        spaceGroupSymbol: str(entry.sg),
        spaceGroupNumber,
        crystalSystem: crystalSystemOf(spaceGroupNumber),
        lattice: parseLattice(entry),
        cifUrl: cifUrl(file),
        pageUrl: pageUrl(file),
        referenceDoi: str(entry.doi),
      },
    ];
  });
}

export function searchParams(criteria: Criteria): Record<string, string> {
  if ('codId' in criteria) return { id: criteria.codId };
  if ('formula' in criteria) {
    const formula = hillFormula(criteria.formula);
    if (!formula)
      throw new UpstreamError(
        SOURCE,
        'bad_body',
        `${SOURCE} cannot search for "${criteria.formula}": only simple formulas such as Fe2O3 can be put in Hill order`,
      );
    return { formula };
  }
  if (criteria.elements.length > MAX_ELEMENTS) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} searches at most ${MAX_ELEMENTS} elements at once`);
  const count = String(criteria.elements.length);
  return { ...Object.fromEntries(criteria.elements.map((element, index) => [`el${index + 1}`, element])), strictmin: count, strictmax: count };
}

export async function searchEntries(upstream: UpstreamClient, criteria: Criteria, limit: number): Promise<{ materials: Material[]; retrievedAt: string }> {
  const answer = await upstream.getText(SOURCE, { path: '/result', searchParams: { ...searchParams(criteria), format: 'json' } });
  const text = answer.body.trim();
  let parsed: unknown;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with a body that is not JSON, beginning "${text.slice(0, 60)}"`);
  }
  return { materials: parseEntries(parsed).slice(0, limit), retrievedAt: answer.retrievedAt };
}

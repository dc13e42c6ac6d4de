/**
 * The one shape of a crystalline material shared by the computed (Materials Project) and experimental
 * (COD) connectors, and the formula handling both need.
 */
import type { LookupMaterialData } from '../../generated/types.ts';

/** Cell lengths a, b, c in ångström, angles in degrees, volume in Å³: the record's own shape. */
export type Lattice = NonNullable<LookupMaterialData['lattice']>;

export interface Material {
  /** `mp-<n>` or `cod-<n>`. */
  materialId: string;
  formula: string;
  elements?: string[];
  mineralName?: string;
  bandGapEv?: number;
  formationEnergyPerAtomEv?: number;
  energyAboveHullEv?: number;
  isStable?: boolean;
  theoretical?: boolean;
  spaceGroupSymbol?: string;
  spaceGroupNumber?: number;
  crystalSystem?: string;
  lattice?: Lattice;
  cifUrl?: string;
  pageUrl?: string;
  referenceDoi?: string;
}

/** The crystal system of an international space-group number (1–230). */
export function crystalSystemOf(spaceGroup: number | undefined): string | undefined {
  if (spaceGroup === undefined || spaceGroup < 1 || spaceGroup > 230) return undefined;
  if (spaceGroup <= 2) return 'triclinic';
  if (spaceGroup <= 15) return 'monoclinic';
  if (spaceGroup <= 74) return 'orthorhombic';
  if (spaceGroup <= 142) return 'tetragonal';
  if (spaceGroup <= 167) return 'trigonal';
  if (spaceGroup <= 194) return 'hexagonal';
  return 'cubic';
}

/** Element symbols and counts of a simple formula ("Fe2O3", "C9 H8 O4"); undefined for anything else (brackets, hydrates). */
export function parseFormula(formula: string): Array<{ element: string; count: number }> | undefined {
  const text = formula.replace(/\s+/g, '');
  if (!/^(?:[A-Z][a-z]?\d*(?:\.\d+)?)+$/.test(text)) return undefined;
  const counts = new Map<string, number>();
  for (const [, element, count] of text.matchAll(/([A-Z][a-z]?)(\d*(?:\.\d+)?)/g))
    counts.set(element!, (counts.get(element!) ?? 0) + (count ? Number(count) : 1));
  return [...counts].map(([element, count]) => ({ element, count }));
}

/** Hill order (C, then H, then alphabetical; alphabetical when there is no carbon) with spaces, as COD wants it: "Fe2O3" → "Fe2 O3". */
export function hillFormula(formula: string): string | undefined {
  const parts = parseFormula(formula);
  if (!parts) return undefined;
  const hasCarbon = parts.some((part) => part.element === 'C');
  const rank = (element: string) => (hasCarbon && element === 'C' ? 0 : hasCarbon && element === 'H' ? 1 : 2);
  return parts
    .sort((x, y) => rank(x.element) - rank(y.element) || x.element.localeCompare(y.element))
    .map((part) => `${part.element}${part.count === 1 ? '' : part.count}`)
    .join(' ');
}

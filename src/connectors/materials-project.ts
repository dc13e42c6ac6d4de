/**
 * Materials Project API (`/materials/summary/`, key in the `X-API-KEY` header): computed materials by
 * formula, exact element set (`chemsys`) or id. `_fields` is always sent (without it only the
 * endpoint's defaults come back). Answers are `{"data":[…],"meta":{…}}`; failures
 * `{"errors":[{"message"}]}` or FastAPI's `{"detail"}`. No recording exists (every request needs a
 * personal key): the document fields follow the API's published summary schema.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { crystalSystemOf, type Lattice, type Material } from './materials.ts';
import { arr, int, num, obj, str, strings } from './values.ts';

export const SOURCE = 'materials-project' as const;
export const FIELDS = [
  'material_id',
  'formula_pretty',
  'elements',
  'band_gap',
  'formation_energy_per_atom',
  'energy_above_hull',
  'is_stable',
  'theoretical',
  'symmetry',
  'structure',
];

export type Criteria = { formula: string } | { elements: string[] } | { materialId: string };

export const materialUrl = (id: string): string => `https://next-gen.materialsproject.org/materials/${id}`;

function parseLattice(structure: unknown): Lattice | undefined {
  const lattice = obj(obj(structure).lattice);
  const [a, b, c, alpha, beta, gamma] = [lattice.a, lattice.b, lattice.c, lattice.alpha, lattice.beta, lattice.gamma].map(num);
  if (a === undefined || b === undefined || c === undefined || alpha === undefined || beta === undefined || gamma === undefined) return undefined;
  return { a, b, c, alpha, beta, gamma, volume: num(lattice.volume) };
}

export function parseSummary(body: unknown): Material[] {
  const data = obj(body).data;
  if (!Array.isArray(data)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a data list`);
  return arr(data).flatMap((doc) => {
    const materialId = str(doc.material_id);
    const formula = str(doc.formula_pretty);
    if (!materialId || !/^mp-\d+$/.test(materialId) || !formula) return [];
    const symmetry = obj(doc.symmetry);
    const spaceGroupNumber = int(symmetry.number);
    return [
      {
        materialId,
        formula,
        elements: strings(doc.elements)?.sort(),
        bandGapEv: num(doc.band_gap),
        formationEnergyPerAtomEv: num(doc.formation_energy_per_atom),
        energyAboveHullEv: num(doc.energy_above_hull),
        isStable: typeof doc.is_stable === 'boolean' ? doc.is_stable : undefined,
        theoretical: typeof doc.theoretical === 'boolean' ? doc.theoretical : undefined,
        spaceGroupSymbol: str(symmetry.symbol),
        spaceGroupNumber,
        crystalSystem: str(symmetry.crystal_system)?.toLowerCase() ?? crystalSystemOf(spaceGroupNumber),
        lattice: parseLattice(doc.structure),
        pageUrl: materialUrl(materialId),
      },
    ];
  });
}

/** Non-deprecated summary documents matching the criteria, most stable first. */
export async function searchSummary(
  upstream: UpstreamClient,
  criteria: Criteria,
  options: { stableOnly?: boolean; limit: number },
): Promise<{ materials: Material[]; retrievedAt: string }> {
  const filter =
    'formula' in criteria
      ? { formula: criteria.formula }
      : 'elements' in criteria
        ? { chemsys: [...criteria.elements].sort().join('-') }
        : { material_ids: criteria.materialId };
  const answer = await upstream.getJson(SOURCE, {
    path: '/materials/summary/',
    searchParams: {
      ...filter,
      is_stable: options.stableOnly ? 'true' : undefined,
      deprecated: 'false',
      _sort_fields: 'energy_above_hull',
      _fields: FIELDS.join(','),
      _limit: options.limit,
    },
    key: { header: 'X-API-KEY' },
  });
  return { materials: parseSummary(answer.body), retrievedAt: answer.retrievedAt };
}

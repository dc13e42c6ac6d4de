/**
 * lookup_material: computed materials (Materials Project: band gap, formation energy, stability) and
 * experimental crystal structures (COD: CIF download) by id, formula or exact element set, asked in
 * parallel and interleaved (each in its own order) up to `limit`. An `mp-` id asks only the Materials
 * Project, a COD id only COD; `stable_only` skips COD, which has no energies. Without a Materials
 * Project key that source fails with a message naming SOURCE_MATERIALS_PROJECT_KEY and COD still answers.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { LookupMaterialArgs, LookupMaterialData } from '../../generated/types.ts';
import * as cod from '../connectors/cod.ts';
import type { Material } from '../connectors/materials.ts';
import * as mp from '../connectors/materials-project.ts';
import { ApiError } from '../errors.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, interleave, makeRecord, type SourceCall } from './result.ts';

type Data = LookupMaterialData;
type Answer = { materials: Material[]; retrievedAt: string };

export function materialData(material: Material): Data {
  return {
    material_id: material.materialId,
    formula: material.formula,
    elements: material.elements,
    mineral_name: material.mineralName,
    band_gap_ev: material.bandGapEv,
    formation_energy_per_atom_ev: material.formationEnergyPerAtomEv,
    energy_above_hull_ev: material.energyAboveHullEv,
    is_stable: material.isStable,
    theoretical: material.theoretical,
    space_group_symbol: material.spaceGroupSymbol,
    space_group_number: material.spaceGroupNumber,
    crystal_system: material.crystalSystem,
    lattice: material.lattice ? { ...material.lattice } : undefined,
    cif_url: material.cifUrl,
    page_url: material.pageUrl,
    reference_doi: material.referenceDoi,
  };
}

/** The sources to ask and what to ask each: an id names its database; a formula wins over an element set. */
type Plan = { source: 'materials-project'; criteria: mp.Criteria } | { source: 'cod'; criteria: cod.Criteria };

function plan(args: LookupMaterialArgs): Plan[] {
  const id = args.material_id;
  if (id?.startsWith('mp-')) return [{ source: 'materials-project', criteria: { materialId: id } }];
  if (id !== undefined) {
    if (args.stable_only)
      throw new ApiError('invalid_input', 'material_id: a COD id names an experimental entry, which stable_only excludes (COD has no energies)');
    return [{ source: 'cod', criteria: { codId: id.replace(/^cod-/, '') } }];
  }
  const criteria = args.formula !== undefined ? { formula: args.formula } : { elements: args.elements! };
  const computed: Plan = { source: 'materials-project', criteria };
  return args.stable_only ? [computed] : [computed, { source: 'cod', criteria }];
}

export const lookupMaterial: ToolHandler<LookupMaterialArgs, Data, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const limit = args.limit;
  const calls: Array<SourceCall<Answer>> = plan(args).map((step) => ({
    source: step.source,
    run: () =>
      step.source === 'materials-project'
        ? mp.searchSummary(upstream, step.criteria, { stableOnly: args.stable_only, limit })
        : cod.searchEntries(upstream, step.criteria, limit),
  }));
  const fan = await fanOut(calls, (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'), context.progress);
  const lists = fan.answered.map(({ source, value }) => value.materials.map((material) => ({ source, material, retrievedAt: value.retrievedAt })));
  const shown = interleave(lists, limit);
  const records = shown.map(({ source, material, retrievedAt }) =>
    makeRecord<Data>(upstream, source, {
      nativeId: material.materialId,
      type: 'material',
      title: material.mineralName ? `${material.formula} (${material.mineralName})` : material.formula,
      url: material.pageUrl,
      retrievedAt,
      data: materialData(material),
    }),
  );
  const asked = args.material_id ?? args.formula ?? args.elements!.join('-');
  const bySource = fan.answered.map(({ source }) => `${shown.filter((entry) => entry.source === source).length} from ${source}`).join(', ');
  const summary = `${count(records.length, 'material')} for ${asked}${args.stable_only ? ' (stable phases only)' : ''}${bySource ? `: ${bySource}` : ''}.`;
  return assemble(fan, records, summary);
};

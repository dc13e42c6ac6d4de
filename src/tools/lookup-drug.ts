/**
 * lookup_drug: ChEMBL molecule facts, mechanisms and their targets, joined with openFDA's most
 * frequently reported adverse-event terms (spontaneous report counts, not incidence or risk) and the
 * highlights of the most recent US label. Each part is asked only when `include` names it.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { LookupDrugArgs, LookupDrugData } from '../../generated/types.ts';
import * as chembl from '../connectors/chembl.ts';
import * as openfda from '../connectors/openfda.ts';
import { Join } from '../life/parts.ts';
import type { ToolContext } from './context.ts';
import { makeRecord } from './result.ts';

export const TOP_TERMS = 10;
export const MAX_TARGETS = 10;
export const COUNT_BASIS = 'spontaneous_report_counts' as const;

type Data = LookupDrugData;

export const lookupDrug: ToolHandler<LookupDrugArgs, Data, ToolContext> = async (args, context) => {
  const upstream = context.upstream;
  const include = new Set(args.include);
  const name = args.name.trim();
  const isChemblId = /^CHEMBL\d+$/i.test(name);
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));

  const findMolecule = () =>
    join.attempt('chembl', `molecule facts${include.has('targets') ? ', mechanisms and targets' : ''}`, async () => {
      const found = isChemblId ? await chembl.getMolecule(upstream, name) : await chembl.searchMolecules(upstream, name);
      const molecule = found.molecule;
      if (!molecule || !include.has('targets')) return { ...found, mechanisms: undefined };
      const mechanisms = await chembl.getMechanisms(upstream, molecule.parentChemblId ?? molecule.chemblId);
      const targetIds = [...new Set(mechanisms.flatMap((mechanism) => mechanism.targetChemblId ?? []))].slice(0, MAX_TARGETS);
      const targets = new Map(
        (await Promise.all(targetIds.map((id) => chembl.getTarget(upstream, id)))).flatMap((target) => (target ? [[target.chemblId, target] as const] : [])),
      );
      return {
        ...found,
        mechanisms: mechanisms.map((mechanism) => ({ mechanism, target: mechanism.targetChemblId ? targets.get(mechanism.targetChemblId) : undefined })),
      };
    });
  const askFda = (names: string[]) =>
    Promise.all([
      include.has('adverse_events')
        ? join.attempt('openfda', 'adverse-event report counts', () => openfda.countAdverseEventTerms(upstream, names[0]!, TOP_TERMS))
        : undefined,
      include.has('label') ? join.attempt('openfda', 'label highlights', () => openfda.searchLabels(upstream, names)) : undefined,
    ]);

  // A ChEMBL id gives openFDA nothing to search for until ChEMBL names the molecule; a name is asked of both at once.
  let chemblAnswer: Awaited<ReturnType<typeof findMolecule>>;
  let events: Awaited<ReturnType<typeof askFda>>[0];
  let labels: Awaited<ReturnType<typeof askFda>>[1];
  if (isChemblId) {
    chemblAnswer = await findMolecule();
    const preferred = chemblAnswer?.molecule?.name;
    [events, labels] = preferred ? await askFda([preferred]) : [undefined, undefined];
  } else {
    [chemblAnswer, [events, labels]] = await Promise.all([findMolecule(), askFda([name])]);
  }

  const molecule = chemblAnswer?.molecule;
  const label = labels?.label;
  const terms = events?.terms ?? [];
  if (!molecule && !label && terms.length === 0) {
    return join.outcome<Data>([], `No drug named "${name}" was found.`);
  }
  const data: Data = {
    chembl_id: molecule?.chemblId,
    name: molecule?.name ?? label?.genericNames?.[0] ?? name.toUpperCase(),
    max_phase: molecule?.maxPhase,
    molecule_type: molecule?.moleculeType,
    formula: molecule?.formula,
    molecular_weight: molecule?.molecularWeight,
    mechanisms:
      chemblAnswer?.mechanisms && chemblAnswer.mechanisms.length > 0
        ? chemblAnswer.mechanisms.map(({ mechanism, target }) => ({
            mechanism_of_action: mechanism.mechanismOfAction,
            action_type: mechanism.actionType,
            target_chembl_id: mechanism.targetChemblId,
            target_name: target?.name,
            target_type: target?.type,
            target_organism: target?.organism,
            uniprot_accessions: target?.accessions,
          }))
        : undefined,
    adverse_events: events && terms.length > 0 ? { count_basis: COUNT_BASIS, terms } : undefined,
    label: label
      ? { indications: label.indications, has_boxed_warning: label.hasBoxedWarning, effective_date: label.effectiveDate, set_id: label.setId }
      : undefined,
  };
  const record = molecule
    ? makeRecord<Data>(upstream, 'chembl', {
        nativeId: molecule.chemblId,
        type: 'drug',
        title: data.name,
        url: chembl.moleculeUrl(molecule.chemblId),
        retrievedAt: chemblAnswer!.retrievedAt,
        data,
      })
    : makeRecord<Data>(upstream, 'openfda', { nativeId: data.name, type: 'drug', title: data.name, retrievedAt: (events ?? labels)!.retrievedAt, data });
  const parts = [
    molecule && 'molecule facts',
    data.mechanisms && `${data.mechanisms.length === 1 ? '1 mechanism' : `${data.mechanisms.length} mechanisms`}`,
    data.adverse_events && `top ${terms.length} adverse-event terms by spontaneous report count (not incidence or risk)`,
    data.label && `label highlights${label!.hasBoxedWarning ? ' (boxed warning)' : ''}`,
  ].filter(Boolean);
  return join.outcome([record], `${data.name}: ${parts.join(', ')}.`);
};

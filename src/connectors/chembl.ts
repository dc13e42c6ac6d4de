/**
 * ChEMBL web services (`…/chembl/api/data`, `.json` suffix): molecules by id, preferred name or
 * synonym (brand names and research codes are synonyms), their mechanisms and the targets of those.
 * `max_phase` is a decimal string on molecules ("4.0", "0.5") but an integer on mechanisms; decimal
 * properties (`full_mwt`) are strings. Unknown ids answer 404.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'chembl' as const;

export interface Molecule {
  chemblId: string;
  name?: string;
  maxPhase?: number;
  moleculeType?: string;
  formula?: string;
  molecularWeight?: number;
  parentChemblId?: string;
  firstApproval?: number;
  blackBoxWarning?: boolean;
  synonyms?: string[];
}

export interface Mechanism {
  mechanismOfAction: string;
  actionType?: string;
  targetChemblId?: string;
  maxPhase?: number;
}

export interface Target {
  chemblId: string;
  name?: string;
  type?: string;
  organism?: string;
  accessions?: string[];
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const arr = (value: unknown): Json[] => (Array.isArray(value) ? value.map(obj) : []);
const str = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);
/** A number that may arrive as a decimal string ("4.0", "180.16"); null, "" and "-1" (unknown) give undefined. */
export const decimal = (value: unknown): number | undefined => {
  const parsed = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) && parsed >= 0 ? parsed : undefined;
};

export const moleculeUrl = (chemblId: string): string => `https://www.ebi.ac.uk/chembl/explore/compound/${chemblId}`;

export function parseMolecule(value: unknown): Molecule | undefined {
  const molecule = obj(value);
  const chemblId = str(molecule.molecule_chembl_id);
  if (!chemblId) return undefined;
  const properties = obj(molecule.molecule_properties);
  const firstApproval = molecule.first_approval;
  const synonyms = [...new Set(arr(molecule.molecule_synonyms).flatMap((synonym) => str(synonym.molecule_synonym) ?? []))];
  return {
    chemblId,
    name: str(molecule.pref_name),
    maxPhase: decimal(molecule.max_phase),
    moleculeType: str(molecule.molecule_type),
    formula: str(properties.full_molformula),
    molecularWeight: decimal(properties.full_mwt),
    parentChemblId: str(obj(molecule.molecule_hierarchy).parent_chembl_id),
    firstApproval: typeof firstApproval === 'number' ? firstApproval : undefined,
    blackBoxWarning:
      molecule.black_box_warning === 1 || molecule.black_box_warning === '1'
        ? true
        : molecule.black_box_warning === 0 || molecule.black_box_warning === '0'
          ? false
          : undefined,
    synonyms: synonyms.length > 0 ? synonyms : undefined,
  };
}

export function parseMolecules(body: unknown): Molecule[] {
  const list = obj(body).molecules;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a molecules list`);
  return list.flatMap((item) => parseMolecule(item) ?? []);
}

export function parseMechanisms(body: unknown): Mechanism[] {
  const list = obj(body).mechanisms;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a mechanisms list`);
  return arr(list).flatMap((item) => {
    const mechanismOfAction = str(item.mechanism_of_action);
    return mechanismOfAction
      ? [{ mechanismOfAction, actionType: str(item.action_type), targetChemblId: str(item.target_chembl_id), maxPhase: decimal(item.max_phase) }]
      : [];
  });
}

export function parseTarget(body: unknown): Target {
  const target = obj(body);
  const chemblId = str(target.target_chembl_id);
  if (!chemblId) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with a target without an id`);
  const accessions = [...new Set(arr(target.target_components).flatMap((component) => str(component.accession) ?? []))];
  return {
    chemblId,
    name: str(target.pref_name),
    type: str(target.target_type),
    organism: str(target.organism),
    accessions: accessions.length > 0 ? accessions : undefined,
  };
}

async function notFoundAsUndefined<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return undefined;
    throw error;
  }
}

export async function getMolecule(upstream: UpstreamClient, chemblId: string): Promise<{ molecule: Molecule | undefined; retrievedAt: string }> {
  const answer = await notFoundAsUndefined(() => upstream.getJson(SOURCE, { path: path`/molecule/${chemblId.toUpperCase()}.json` }));
  return { molecule: answer ? parseMolecule(answer.body) : undefined, retrievedAt: answer?.retrievedAt ?? new Date().toISOString() };
}

/** A molecule by preferred name, else by synonym (brand name, research code); undefined when ChEMBL has none. */
export async function searchMolecules(upstream: UpstreamClient, name: string): Promise<{ molecule: Molecule | undefined; retrievedAt: string }> {
  const byName = await upstream.getJson(SOURCE, { path: '/molecule.json', searchParams: { pref_name__iexact: name, limit: 1 } });
  const named = parseMolecules(byName.body)[0];
  if (named) return { molecule: named, retrievedAt: byName.retrievedAt };
  const bySynonym = await upstream.getJson(SOURCE, { path: '/molecule.json', searchParams: { molecule_synonyms__molecule_synonym__iexact: name, limit: 5 } });
  const found = parseMolecules(bySynonym.body);
  // A salt or form points at its parent: prefer the parent when it is among the answers.
  const parent = found.find((molecule) => molecule.parentChemblId === molecule.chemblId) ?? found[0];
  return { molecule: parent, retrievedAt: bySynonym.retrievedAt };
}

export async function getMechanisms(upstream: UpstreamClient, chemblId: string): Promise<Mechanism[]> {
  const answer = await upstream.getJson(SOURCE, { path: '/mechanism.json', searchParams: { molecule_chembl_id: chemblId, limit: 50 } });
  return parseMechanisms(answer.body);
}

export async function getTarget(upstream: UpstreamClient, chemblId: string): Promise<Target | undefined> {
  const answer = await notFoundAsUndefined(() => upstream.getJson(SOURCE, { path: path`/target/${chemblId}.json` }));
  return answer ? parseTarget(answer.body) : undefined;
}

/**
 * PubChem PUG REST (`…/rest/pug/compound/…/JSON`): a query (name, CAS number, SMILES, InChIKey or
 * CID) resolved to CIDs, the computed properties of one CID and its synonyms. Since the 2025 rename
 * PubChem answers `SMILES` (isomeric) and `ConnectivitySMILES` (former canonical); older answers carry
 * `IsomericSMILES` / `CanonicalSMILES`: both are read. `MolecularWeight` comes as a string.
 * Failures are `{"Fault":{"Code","Message"}}`; "no CID found" (PUGREST.NotFound, 404) is no match.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { path } from '../upstream/path.ts';
import { arr, int, num, obj, str, strings } from './values.ts';

export const SOURCE = 'pubchem' as const;
/** Synonyms kept per compound, most common first (aspirin has 477). */
export const MAX_SYNONYMS = 20;
const PUBLIC_SITE = 'https://pubchem.ncbi.nlm.nih.gov';

export type QueryKind = 'cid' | 'inchikey' | 'smiles' | 'name';

export interface Properties {
  cid: number;
  title?: string;
  iupacName?: string;
  formula?: string;
  molecularWeight?: number;
  smiles?: string;
  connectivitySmiles?: string;
  inchi?: string;
  inchikey?: string;
  xlogp?: number;
  hBondDonorCount?: number;
  hBondAcceptorCount?: number;
  tpsa?: number;
}

/** Properties asked for; the answer may still name the SMILES the pre-2025 way. */
export const PROPERTY_NAMES = [
  'Title',
  'IUPACName',
  'MolecularFormula',
  'MolecularWeight',
  'SMILES',
  'ConnectivitySMILES',
  'InChI',
  'InChIKey',
  'XLogP',
  'HBondDonorCount',
  'HBondAcceptorCount',
  'TPSA',
];

export const compoundUrl = (cid: number): string => `${PUBLIC_SITE}/compound/${cid}`;
export const imageUrl = (cid: number): string => `${PUBLIC_SITE}/rest/pug/compound/cid/${cid}/PNG`;

const SMILES_SYMBOLS = /[=#()[\]@\\/+]/;
const ORGANIC_ATOMS_ONLY = /^(?:Cl|Br|[BCNOPSFIbcnops]|\d)+$/;

/**
 * What the query is: a bare number is a CID, the 27-character key an InChIKey, a string without
 * spaces made of SMILES symbols (bonds, rings, brackets) or organic-subset atoms only ("CCO") a
 * SMILES; anything else — names and CAS numbers, which PubChem resolves as names — a name.
 */
export function queryKind(query: string): QueryKind {
  const text = query.trim();
  if (/^\d+$/.test(text)) return 'cid';
  if (/^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(text)) return 'inchikey';
  if (!/\s/.test(text) && (SMILES_SYMBOLS.test(text) || (text.length > 1 && ORGANIC_ATOMS_ONLY.test(text)))) return 'smiles';
  return 'name';
}

function fault(body: unknown): string | undefined {
  const found = obj(obj(body).Fault);
  const message = str(found.Message);
  const details = (strings(found.Details) ?? []).join('; ');
  return message ? `${str(found.Code) ?? 'Fault'}: ${message}${details ? ` (${details})` : ''}` : undefined;
}

export function parseCids(body: unknown): number[] {
  const list = obj(obj(body).IdentifierList).CID;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a CID list${fault(body) ? `: ${fault(body)}` : ''}`);
  return list.flatMap((cid) => int(cid) ?? []);
}

export function parseProperties(body: unknown): Properties[] {
  const list = obj(obj(body).PropertyTable).Properties;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a property table${fault(body) ? `: ${fault(body)}` : ''}`);
  return arr(list).flatMap((row) => {
    const cid = int(row.CID);
    if (cid === undefined) return [];
    return [
      {
        cid,
        title: str(row.Title),
        iupacName: str(row.IUPACName),
        formula: str(row.MolecularFormula),
        molecularWeight: num(row.MolecularWeight),
        smiles: str(row.SMILES) ?? str(row.IsomericSMILES),
        connectivitySmiles: str(row.ConnectivitySMILES) ?? str(row.CanonicalSMILES),
        inchi: str(row.InChI),
        inchikey: str(row.InChIKey),
        xlogp: num(row.XLogP),
        hBondDonorCount: int(row.HBondDonorCount),
        hBondAcceptorCount: int(row.HBondAcceptorCount),
        tpsa: num(row.TPSA),
      },
    ];
  });
}

/** Synonyms of the first compound in the answer, most common first, capped. */
export function parseSynonyms(body: unknown, max = MAX_SYNONYMS): { cid?: number; synonyms: string[] } {
  const list = obj(obj(body).InformationList).Information;
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without synonyms${fault(body) ? `: ${fault(body)}` : ''}`);
  const first = obj(list[0]);
  return { cid: int(first.CID), synonyms: (strings(first.Synonym) ?? []).slice(0, max) };
}

/** A ChEBI id among the synonyms ("CHEBI:15365"), when PubChem lists one. */
export function chebiIdIn(synonyms: string[]): string | undefined {
  return synonyms.find((synonym) => /^CHEBI:\d+$/.test(synonym));
}

/** Digits of the largest CID taken: 15 stay within the integers a JSON number holds exactly (tools.yaml's pattern says the same). */
export const MAX_CID_DIGITS = 15;

/** The CID a query of digits alone names; undefined for any other query, and for digits that are no CID (0, or more than MAX_CID_DIGITS). */
export function cidOf(query: string): number | undefined {
  const text = query.trim();
  if (queryKind(text) !== 'cid') return undefined;
  const digits = text.replace(/^0+/, '');
  return digits.length >= 1 && digits.length <= MAX_CID_DIGITS ? Number(digits) : undefined;
}

/**
 * The CIDs matching a query that is not a CID itself (see cidOf), best first; [] when PubChem finds
 * none (its 404 PUGREST.NotFound). Digits that are no CID are asked as a name. A query taken for
 * SMILES that PubChem cannot read as one (400) is asked again as a name.
 */
export async function resolveCids(upstream: UpstreamClient, query: string): Promise<{ kind: Exclude<QueryKind, 'cid'>; cids: number[] }> {
  const text = query.trim();
  const found = queryKind(text);
  const kind = found === 'cid' ? 'name' : found;
  try {
    return { kind, cids: await lookUpCids(upstream, kind, text) };
  } catch (error) {
    if (kind === 'smiles' && error instanceof UpstreamError && error.status === 400) return { kind: 'name', cids: await lookUpCids(upstream, 'name', text) };
    throw error;
  }
}

async function lookUpCids(upstream: UpstreamClient, kind: Exclude<QueryKind, 'cid'>, text: string): Promise<number[]> {
  try {
    // The value goes in a form body, so SMILES slashes and names with any character need no path escaping.
    const answer = await upstream.getJson(SOURCE, { path: path`/pug/compound/${kind}/cids/JSON`, form: { [kind]: text } });
    return parseCids(answer.body);
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return [];
    throw error;
  }
}

/** The computed properties of a CID; `properties` undefined when PubChem has no such compound (its 404 PUGREST.NotFound). */
export async function getProperties(upstream: UpstreamClient, cid: number): Promise<{ properties: Properties | undefined; retrievedAt: string }> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: `${path`/pug/compound/cid/${cid}`}/property/${PROPERTY_NAMES.join(',')}/JSON` });
    return { properties: parseProperties(answer.body).find((row) => row.cid === cid), retrievedAt: answer.retrievedAt };
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return { properties: undefined, retrievedAt: new Date().toISOString() };
    throw error;
  }
}

export async function getSynonyms(upstream: UpstreamClient, cid: number): Promise<string[]> {
  try {
    const answer = await upstream.getJson(SOURCE, { path: path`/pug/compound/cid/${cid}/synonyms/JSON` });
    return parseSynonyms(answer.body, Number.POSITIVE_INFINITY).synonyms;
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return [];
    throw error;
  }
}

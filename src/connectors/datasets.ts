/**
 * What the dataset repositories' connectors share: the dataset they give back, DOI and licence
 * normalisation (licences as SPDX ids, from ids in any case or from licence URLs), and the length a
 * description is trimmed to.
 */
import type { SearchDatasetsData } from '../../generated/types.ts';
import { normalizeDoi } from '../literature/identifiers.ts';
import { str } from './values.ts';

export const DESCRIPTION_MAX = 500;

export interface Dataset {
  /** The repository's own id of the dataset. */
  nativeId: string;
  title?: string;
  url?: string;
  data: Omit<SearchDatasetsData, 'found_in'>;
}

export interface DatasetAnswer {
  datasets: Dataset[];
  retrievedAt: string;
}

export interface DatasetSearch {
  query: string;
  limit: number;
}

/** A DOI bare and lower-case ("doi:10.5061/dryad.X", "https://doi.org/10.5281/ZENODO.1" → "10.5061/dryad.x", "10.5281/zenodo.1"). */
export function bareDoi(value: unknown): string | undefined {
  return normalizeDoi(str(value));
}

const CC_KINDS = ['BY', 'BY-SA', 'BY-NC', 'BY-NC-SA', 'BY-ND', 'BY-NC-ND'];
const CC_VERSIONS = ['1.0', '2.0', '2.5', '3.0', '4.0'];
const SPDX_IDS = [
  'CC0-1.0',
  'PDDL-1.0',
  'ODbL-1.0',
  'ODC-By-1.0',
  'MIT',
  'Apache-2.0',
  'GPL-2.0',
  'GPL-3.0',
  'LGPL-3.0',
  'AGPL-3.0',
  'BSD-2-Clause',
  'BSD-3-Clause',
  'MPL-2.0',
  'Unlicense',
  ...CC_KINDS.flatMap((kind) => CC_VERSIONS.map((version) => `CC-${kind}-${version}`)),
];
const BY_LOWER_CASE = new Map(SPDX_IDS.map((id) => [id.toLowerCase(), id]));
/** Short names some repositories use (Hugging Face tags) for SPDX ids; names without a version ("cc-by", "gpl") are not guessed. */
const ALIASES: Record<string, string> = { cc0: 'CC0-1.0', 'odc-by': 'ODC-By-1.0', odbl: 'ODbL-1.0', pddl: 'PDDL-1.0' };

/** An SPDX licence id from an id in any case, a known short name or a Creative Commons URL; undefined otherwise. */
export function spdxLicense(value: unknown): string | undefined {
  const text = str(value)?.toLowerCase();
  if (!text) return undefined;
  const known = BY_LOWER_CASE.get(text) ?? ALIASES[text];
  if (known) return known;
  if (/creativecommons\.org\/publicdomain\/zero\/1\.0/.test(text)) return 'CC0-1.0';
  const cc = /creativecommons\.org\/licenses\/([a-z-]+)\/(\d\.\d)/.exec(text);
  if (cc) return BY_LOWER_CASE.get(`cc-${cc[1]}-${cc[2]}`);
  if (/opensource\.org\/licenses\/mit/.test(text)) return 'MIT';
  return undefined;
}

/** The year of an ISO date ("2022-09-14" → 2022). */
export const yearOf = (date: string | undefined): number | undefined => (date && /^\d{4}/.test(date) ? Number(date.slice(0, 4)) : undefined);

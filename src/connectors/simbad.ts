/**
 * SIMBAD TAP (GET <base>/simbad/sim-tap/sync?REQUEST=doQuery&LANG=ADQL&FORMAT=json&QUERY=…):
 * one query resolves any identifier through the `ident` table and joins the basic data, the
 * object-type description, the V magnitude and the list of identifiers. The answer is read
 * whether it comes as JSON (rows aligned with `metadata`) or as a TABLEDATA VOTable, the TAP
 * default. Columns keep SIMBAD's own names (`main_id`, `ra`, `dec`, `plx_value`, …, as in its cone
 * service); the type code is `otype_code` because the cone service's `otype` holds a label instead.
 * Identifiers keep SIMBAD's internal spacing (`M   1`): normalised for display.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { adqlString, numberCell, tapAnswerRows, textCell, type TapRow } from './tap.ts';

export const SOURCE = 'simbad' as const;

export interface AstroObject {
  mainId: string;
  objectType?: string;
  objectTypeCode?: string;
  raDeg?: number;
  decDeg?: number;
  parallaxMas?: number;
  pmRaMasYr?: number;
  pmDecMasYr?: number;
  radialVelocityKmS?: number;
  spectralType?: string;
  vMagnitude?: number;
  identifiers?: string[];
}

export function objectQuery(name: string): string {
  return [
    // Columns as SIMBAD documents them, unaliased (so `dec`, an SQL reserved word, is never an alias); the type code is renamed.
    'SELECT TOP 1 basic.main_id, basic.otype AS otype_code, otypedef.description AS otype_label,',
    'basic.ra, basic.dec, basic.plx_value, basic.pmra, basic.pmdec,',
    'basic.rvz_radvel, basic.sp_type, allfluxes.V AS v_mag, ids.ids',
    'FROM ident JOIN basic ON basic.oid = ident.oidref',
    'LEFT JOIN otypedef ON otypedef.otype = basic.otype',
    'LEFT JOIN allfluxes ON allfluxes.oidref = basic.oid',
    'LEFT JOIN ids ON ids.oidref = basic.oid',
    `WHERE ident.id = ${adqlString(name.trim())}`,
  ].join(' ');
}

export async function tapQuery(upstream: UpstreamClient, name: string): Promise<{ objects: AstroObject[]; retrievedAt: string }> {
  const answer = await upstream.getText(SOURCE, {
    path: '/simbad/sim-tap/sync',
    searchParams: { REQUEST: 'doQuery', LANG: 'ADQL', FORMAT: 'json', QUERY: objectQuery(name) },
  });
  return { objects: tapAnswerRows(SOURCE, answer.body).flatMap(parseObject), retrievedAt: answer.retrievedAt };
}

/** SIMBAD's identifier spacing (`HD   8890`) collapsed to single spaces. */
export function normaliseIdentifier(identifier: string): string {
  return identifier.replace(/\s+/g, ' ').trim();
}

export function parseObject(row: TapRow): AstroObject[] {
  const mainId = textCell(row.main_id);
  if (!mainId) return [];
  const main = normaliseIdentifier(mainId);
  const identifiers = (textCell(row.ids) ?? '')
    .split('|')
    .map(normaliseIdentifier)
    .filter((identifier) => identifier !== '' && identifier !== main);
  return [
    {
      mainId: main,
      objectType: textCell(row.otype_label),
      objectTypeCode: textCell(row.otype_code),
      raDeg: numberCell(row.ra),
      decDeg: numberCell(row.dec),
      parallaxMas: numberCell(row.plx_value),
      pmRaMasYr: numberCell(row.pmra),
      pmDecMasYr: numberCell(row.pmdec),
      radialVelocityKmS: numberCell(row.rvz_radvel),
      spectralType: textCell(row.sp_type),
      vMagnitude: numberCell(row.v_mag),
      identifiers: identifiers.length > 0 ? identifiers : undefined,
    },
  ];
}

/** The object's page at SIMBAD. */
export function objectUrl(mainId: string): string {
  return `https://simbad.cds.unistra.fr/simbad/sim-id?Ident=${encodeURIComponent(mainId)}`;
}

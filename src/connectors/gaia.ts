/**
 * ESA Gaia Archive TAP (GET <base>/sync?REQUEST=doQuery&LANG=ADQL&FORMAT=json&QUERY=…) on
 * gaiadr3.gaia_source: a cone search, brightest (smallest G magnitude) first. The JSON answer is
 * {metadata, data} with rows aligned to metadata; a TABLEDATA VOTable (the TAP default) is read
 * as well. `source_id` is a 64-bit integer beyond JavaScript's safe range, kept exact as a decimal
 * string by both readers.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { adqlInteger, adqlNumber, numberCell, tapAnswerRows, type TapRow } from './tap.ts';

export const SOURCE = 'gaia' as const;

export interface ConeQuery {
  ra: number;
  dec: number;
  radiusDeg: number;
  maxGMag?: number;
  limit: number;
}

export interface GaiaSource {
  sourceId: string;
  raDeg: number;
  decDeg: number;
  distanceDeg?: number;
  parallaxMas?: number;
  parallaxErrorMas?: number;
  pmRaMasYr?: number;
  pmDecMasYr?: number;
  gMag?: number;
  bpMag?: number;
  rpMag?: number;
  radialVelocityKmS?: number;
  teffK?: number;
}

export function coneQuery(query: ConeQuery): string {
  const centre = `POINT('ICRS', ${adqlNumber(query.ra)}, ${adqlNumber(query.dec)})`;
  const where = [`1 = CONTAINS(POINT('ICRS', ra, dec), CIRCLE('ICRS', ${adqlNumber(query.ra)}, ${adqlNumber(query.dec)}, ${adqlNumber(query.radiusDeg)}))`];
  if (query.maxGMag !== undefined) where.push(`phot_g_mean_mag <= ${adqlNumber(query.maxGMag)}`);
  return [
    `SELECT TOP ${adqlInteger(query.limit)} source_id, ra, dec, parallax, parallax_error, pmra, pmdec,`,
    'phot_g_mean_mag, phot_bp_mean_mag, phot_rp_mean_mag, radial_velocity, teff_gspphot,',
    `DISTANCE(POINT('ICRS', ra, dec), ${centre}) AS dist`,
    'FROM gaiadr3.gaia_source',
    `WHERE ${where.join(' AND ')}`,
    'ORDER BY phot_g_mean_mag ASC',
  ].join(' ');
}

export async function tapQuery(upstream: UpstreamClient, query: ConeQuery): Promise<{ sources: GaiaSource[]; retrievedAt: string }> {
  const answer = await upstream.getText(SOURCE, {
    path: '/sync',
    searchParams: { REQUEST: 'doQuery', LANG: 'ADQL', FORMAT: 'json', QUERY: coneQuery(query) },
  });
  return { sources: brightestFirst(tapAnswerRows(SOURCE, answer.body).flatMap(parseSource)), retrievedAt: answer.retrievedAt };
}

/** Smallest G magnitude first; sources without one last, in their upstream order. */
export function brightestFirst(sources: GaiaSource[]): GaiaSource[] {
  return sources
    .map((source, index) => ({ source, index }))
    .sort((a, b) => (a.source.gMag ?? Infinity) - (b.source.gMag ?? Infinity) || a.index - b.index)
    .map(({ source }) => source);
}

export function parseSource(row: TapRow): GaiaSource[] {
  const id = row.source_id;
  // Both readers turn unsafe integers into strings; an id that arrives as a number is small enough to be exact.
  const sourceId = typeof id === 'string' && /^\d+$/.test(id) ? id : typeof id === 'number' && Number.isSafeInteger(id) ? String(id) : undefined;
  if (sourceId === undefined) {
    if (id === undefined || id === null) return [];
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered with a source_id that is not an integer`);
  }
  const raDeg = numberCell(row.ra);
  const decDeg = numberCell(row.dec);
  if (raDeg === undefined || decDeg === undefined) return [];
  const parallaxError = numberCell(row.parallax_error);
  const teff = numberCell(row.teff_gspphot);
  return [
    {
      sourceId,
      raDeg,
      decDeg,
      distanceDeg: numberCell(row.dist),
      parallaxMas: numberCell(row.parallax),
      parallaxErrorMas: parallaxError !== undefined && parallaxError >= 0 ? parallaxError : undefined,
      pmRaMasYr: numberCell(row.pmra),
      pmDecMasYr: numberCell(row.pmdec),
      gMag: numberCell(row.phot_g_mean_mag),
      bpMag: numberCell(row.phot_bp_mean_mag),
      rpMag: numberCell(row.phot_rp_mean_mag),
      radialVelocityKmS: numberCell(row.radial_velocity),
      teffK: teff !== undefined && teff > 0 ? teff : undefined,
    },
  ];
}

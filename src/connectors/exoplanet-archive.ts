/**
 * NASA Exoplanet Archive TAP (GET <base>/TAP/sync?query=<ADQL>&format=json) on `pscomppars`, the
 * composite table with one row per confirmed planet. The JSON answer is a bare array of row objects;
 * missing values are null. `disc_refname` is an HTML anchor (text = reference, href = link).
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { adqlContains, adqlInteger, adqlNumber, adqlString, numberCell, tapRows, textCell, type TapRow } from './tap.ts';

export const SOURCE = 'exoplanet-archive' as const;

/** Insolation band (Earth = 1) of the approximate habitable-zone filter. */
export const HABITABLE_INSOLATION = { min: 0.25, max: 1.7 } as const;

export interface PlanetQuery {
  hostStar?: string;
  planetName?: string;
  discoveryMethod?: string;
  maxDistancePc?: number;
  minRadiusEarth?: number;
  maxRadiusEarth?: number;
  inHabitableZone?: boolean;
  discoveredAfter?: number;
  limit: number;
}

export interface Planet {
  planetName: string;
  /** Absent only when the answer lacks the hostname column (an answer to a narrower query). */
  hostStar?: string;
  discoveryMethod?: string;
  discoveryYear?: number;
  orbitalPeriodDays?: number;
  radiusEarth?: number;
  massEarth?: number;
  equilibriumTemperatureK?: number;
  insolationEarth?: number;
  distancePc?: number;
  discoveryReference?: string;
  discoveryReferenceUrl?: string;
}

const COLUMNS = 'pl_name, hostname, discoverymethod, disc_year, pl_orbper, pl_rade, pl_bmasse, pl_eqt, pl_insol, sy_dist, disc_refname';

export function planetQuery(query: PlanetQuery): string {
  const where: string[] = [];
  if (query.hostStar !== undefined) where.push(`hostname = ${adqlString(query.hostStar)}`);
  if (query.planetName !== undefined) where.push(`pl_name LIKE ${adqlContains(query.planetName)}`);
  if (query.discoveryMethod !== undefined) where.push(`discoverymethod = ${adqlString(query.discoveryMethod)}`);
  if (query.maxDistancePc !== undefined) where.push(`sy_dist <= ${adqlNumber(query.maxDistancePc)}`);
  if (query.minRadiusEarth !== undefined) where.push(`pl_rade >= ${adqlNumber(query.minRadiusEarth)}`);
  if (query.maxRadiusEarth !== undefined) where.push(`pl_rade <= ${adqlNumber(query.maxRadiusEarth)}`);
  if (query.inHabitableZone === true) {
    where.push(`pl_insol >= ${adqlNumber(HABITABLE_INSOLATION.min)}`, `pl_insol <= ${adqlNumber(HABITABLE_INSOLATION.max)}`);
  }
  if (query.discoveredAfter !== undefined) where.push(`disc_year > ${adqlInteger(query.discoveredAfter)}`);
  return `SELECT TOP ${adqlInteger(query.limit)} ${COLUMNS} FROM pscomppars${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY pl_name`;
}

export async function tapQuery(upstream: UpstreamClient, query: PlanetQuery): Promise<{ planets: Planet[]; retrievedAt: string }> {
  const answer = await upstream.getJson(SOURCE, { path: '/TAP/sync', searchParams: { query: planetQuery(query), format: 'json' } });
  return { planets: readPlanets(tapRows(SOURCE, answer.body)), retrievedAt: answer.retrievedAt };
}

/**
 * Planets of an answer. A row is a planet when it names one (`pl_name`); every other column is read
 * when the answer has it, so an answer to a narrower query (such as `select pl_name,discoverymethod
 * from ps`) gives records with what it carries. An answer whose rows have no pl_name column (a
 * table of something else) is a failure to report, not "no planets".
 */
export function readPlanets(rows: TapRow[]): Planet[] {
  if (rows.length > 0 && !('pl_name' in rows[0]!)) {
    throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered rows without the column pl_name`);
  }
  return rows.flatMap(parsePlanet);
}

/** `<a refstr=… href=https://… target=ref>Gillon et al. 2016</a>` → text and link. */
export function parseReference(html: string | undefined): { text?: string; url?: string } {
  if (!html) return {};
  const href = /href\s*=\s*["']?([^"'\s>]+)/i.exec(html)?.[1];
  const text = html
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return { text: text || undefined, url: href && /^https?:\/\//.test(href) ? href : undefined };
}

export function parsePlanet(row: TapRow): Planet[] {
  const planetName = textCell(row.pl_name);
  if (!planetName) return [];
  const reference = parseReference(textCell(row.disc_refname));
  const year = numberCell(row.disc_year);
  return [
    {
      planetName,
      hostStar: textCell(row.hostname),
      discoveryMethod: textCell(row.discoverymethod),
      discoveryYear: year !== undefined && Number.isInteger(year) ? year : undefined,
      orbitalPeriodDays: positive(numberCell(row.pl_orbper)),
      radiusEarth: positive(numberCell(row.pl_rade)),
      massEarth: positive(numberCell(row.pl_bmasse)),
      equilibriumTemperatureK: positive(numberCell(row.pl_eqt)),
      insolationEarth: nonNegative(numberCell(row.pl_insol)),
      distancePc: positive(numberCell(row.sy_dist)),
      discoveryReference: reference.text,
      discoveryReferenceUrl: reference.url,
    },
  ];
}

const positive = (value: number | undefined) => (value !== undefined && value > 0 ? value : undefined);
const nonNegative = (value: number | undefined) => (value !== undefined && value >= 0 ? value : undefined);

/**
 * The seriesId of spec part 4.2: `<source>:<id>` with optional `?<dimension>=<CODE>` parts joined by
 * `&` (`world-bank:NY.GDP.MKTP.CD?country=DEU`, `eurostat:une_rt_m?geo=DE&sex=T`). Codes keep their
 * exact form; only the parts the source needs are written.
 */
import { ApiError } from '../errors.ts';

export const STATISTICS_SOURCES = ['fred', 'world-bank', 'bls', 'oecd', 'eurostat', 'imf', 'owid', 'census'] as const;
export type StatisticsSource = (typeof STATISTICS_SOURCES)[number];

export interface SeriesId {
  source: StatisticsSource;
  id: string;
  dimensions: Record<string, string>;
}

const DIMENSION = /^([A-Za-z][A-Za-z0-9_.-]*)=([^&=?\s]+)$/;

/** Reads a seriesId; a wrong shape is a 400 naming `field`. */
export function parseSeriesId(text: string, field = 'series_id'): SeriesId {
  const invalid = (why: string) =>
    new ApiError(
      'invalid_input',
      `${field}: ${why}; expected <source>:<id> with optional ?<dimension>=<CODE> parts, e.g. world-bank:NY.GDP.MKTP.CD?country=DEU`,
    );
  const colon = text.indexOf(':');
  const source = text.slice(0, colon) as StatisticsSource;
  if (colon < 0 || !STATISTICS_SOURCES.includes(source)) throw invalid(`"${text}" does not begin with one of ${STATISTICS_SOURCES.join(', ')} and a colon`);
  const rest = text.slice(colon + 1);
  const question = rest.indexOf('?');
  const id = question < 0 ? rest : rest.slice(0, question);
  if (id.trim() === '' || /\s/.test(id)) throw invalid(`"${text}" has no ${id.trim() === '' ? '' : 'well-formed '}id after "${source}:"`);
  const dimensions: Record<string, string> = {};
  if (question >= 0) {
    for (const part of rest.slice(question + 1).split('&')) {
      const match = DIMENSION.exec(part);
      if (!match) throw invalid(`"${part}" in "${text}" is not a <dimension>=<CODE> part`);
      if (dimensions[match[1]!] !== undefined) throw invalid(`dimension ${match[1]} is given twice in "${text}"`);
      dimensions[match[1]!] = match[2]!;
    }
  }
  return { source, id, dimensions };
}

/** Writes a seriesId, dimensions in the order given, undefined ones left out. */
export function formatSeriesId(source: StatisticsSource, id: string, dimensions: Record<string, string | undefined> = {}): string {
  const parts = Object.entries(dimensions).flatMap(([name, code]) => (code === undefined ? [] : [`${name}=${code}`]));
  return `${source}:${id}${parts.length > 0 ? `?${parts.join('&')}` : ''}`;
}

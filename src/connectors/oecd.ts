/**
 * OECD Data API (sdmx.oecd.org/public/rest, SDMX REST; the old stats.oecd.org is retired): data as
 * SDMX-CSV with labels from `/data/{agency},{flow},{version}/{key}`. The API has no search and a key
 * needs each dataflow's dimension order, so the dataflows this service knows are listed here with
 * their order (taken from the API's own CSV headers) and a few ready-made series for find_series.
 * Rows are not sorted and may fall outside the period asked: they are sorted and filtered here.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { countryOf } from '../statistics/countries.ts';
import { bestMatches } from '../statistics/matching.ts';
import { frequencyOf, observationsFrom, withinPeriod } from '../statistics/periods.ts';
import { pickSeries, readSdmxCsv, type SdmxSeries } from '../statistics/sdmx.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import { pickedNote, type Candidates, type FetchedSeries, type Frequency, type Series, type SeriesRequest, type SeriesSearch } from '../statistics/series.ts';

export const SOURCE = 'oecd' as const;

export interface Dataflow {
  agency: string;
  id: string;
  version: string;
  title: string;
  /** Dimension ids in key order (the order of the dimension columns of the dataflow's SDMX-CSV). */
  dimensions: readonly string[];
}

export const DATAFLOWS: readonly Dataflow[] = [
  {
    agency: 'OECD.SDD.STES',
    id: 'DSD_KEI@DF_KEI',
    version: '4.0',
    title: 'Key short-term economic indicators',
    dimensions: ['REF_AREA', 'FREQ', 'MEASURE', 'UNIT_MEASURE', 'ACTIVITY', 'ADJUSTMENT', 'TRANSFORMATION'],
  },
  {
    agency: 'OECD.SDD.TPS',
    id: 'DSD_LFS@DF_IALFS_UNE_M',
    version: '1.0',
    title: 'Monthly unemployment rates',
    dimensions: ['REF_AREA', 'MEASURE', 'UNIT_MEASURE', 'TRANSFORMATION', 'ADJUSTMENT', 'SEX', 'AGE', 'ACTIVITY', 'FREQ'],
  },
];

interface Preset {
  flow: string;
  title: string;
  units: string;
  frequency: Frequency;
  dimensions: Record<string, string>;
}

/** Ready-made series of the known dataflows; the country (REF_AREA) is added from the query. */
export const PRESETS: readonly Preset[] = [
  {
    flow: 'DSD_KEI@DF_KEI',
    title: 'Long-term interest rates (government bond yields)',
    units: 'Percent per annum',
    frequency: 'monthly',
    dimensions: { FREQ: 'M', MEASURE: 'IRLT' },
  },
  {
    flow: 'DSD_KEI@DF_KEI',
    title: 'Short-term interest rates (3-month interbank)',
    units: 'Percent per annum',
    frequency: 'monthly',
    dimensions: { FREQ: 'M', MEASURE: 'IR3TIB' },
  },
  {
    flow: 'DSD_LFS@DF_IALFS_UNE_M',
    title: 'Monthly unemployment rate, total, 15 years or over, seasonally adjusted',
    units: 'Percentage of labour force',
    frequency: 'monthly',
    dimensions: { MEASURE: 'UNE_LF_M', ADJUSTMENT: 'Y', SEX: '_T', AGE: 'Y_GE15', FREQ: 'M' },
  },
];

export const dataflowOf = (id: string): Dataflow | undefined => DATAFLOWS.find((flow) => flow.id === id || `${flow.agency},${flow.id},${flow.version}` === id);

export const explorerUrl = (flow: Dataflow) =>
  `https://data-explorer.oecd.org/vis?df[ds]=dsDisseminateFinalDMZ&df[id]=${encodeURIComponent(flow.id)}&df[ag]=${encodeURIComponent(flow.agency)}`;

/** The SDMX key: the dimension codes in the dataflow's order, an open dimension left empty. */
export function keyOf(flow: Dataflow, dimensions: Record<string, string>): string {
  return flow.dimensions.map((id) => dimensions[id] ?? '').join('.');
}

/** The CSV's series → one series (totals preferred when a dimension was open), with what was picked. */
export function parseData(csv: string, flow: Dataflow): { series: SdmxSeries | undefined; picked: Record<string, string> } {
  return pickSeries(readSdmxCsv(csv, flow.dimensions));
}

export async function searchDataflows(_upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  const retrievedAt = new Date().toISOString();
  // OECD series are per country: without a country in the query there is nothing definite to offer.
  if (!search.country) return { candidates: [], retrievedAt };
  const country = search.country;
  const presets = bestMatches(PRESETS, (preset) => `${preset.title} ${dataflowOf(preset.flow)!.title}`, search.words, search.limit);
  return {
    candidates: presets.map((preset) => {
      const flow = dataflowOf(preset.flow)!;
      return {
        seriesId: formatSeriesId(SOURCE, flow.id, { REF_AREA: country.iso3, ...preset.dimensions }),
        title: `${preset.title}, ${country.name}`,
        units: preset.units,
        frequency: preset.frequency,
        geography: country.name,
        countryCode: country.iso3,
        dataset: flow.title,
        url: explorerUrl(flow),
      };
    }),
    retrievedAt,
  };
}

/** An SDMX-CSV answer → the one series (rows sorted, periods outside [start, end] dropped). */
export function seriesFromCsv(csv: string, flow: Dataflow, request: Pick<SeriesRequest, 'start' | 'end'>, dimensions: Record<string, string>): Series {
  const { series, picked } = parseData(csv, flow);
  if (!series) throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} has no data for ${flow.id} with ${keyOf(flow, dimensions)}`);
  const full = Object.fromEntries(flow.dimensions.map((id) => [id, series.dimensions[id]?.code]));
  const label = (id: string) => series.dimensions[id]?.label ?? series.dimensions[id]?.code;
  const preset = PRESETS.find((candidate) => candidate.flow === flow.id && Object.entries(candidate.dimensions).every(([id, code]) => full[id] === code));
  const area = series.dimensions.REF_AREA;
  return {
    seriesId: formatSeriesId(SOURCE, flow.id, full),
    title: series.dimensions.MEASURE?.label ?? preset?.title ?? `${flow.title}: ${label('MEASURE')}`,
    units: series.dimensions.UNIT_MEASURE?.label ?? preset?.units ?? label('UNIT_MEASURE'),
    frequency: frequencyOf(series.dimensions.FREQ?.code),
    seasonalAdjustment: series.dimensions.ADJUSTMENT?.label,
    geography: area?.label ?? (area ? (countryOf(area.code)?.name ?? area.code) : undefined),
    countryCode: area?.code,
    dataset: flow.title,
    url: explorerUrl(flow),
    observations: withinPeriod(observationsFrom(series.observations), request.start, request.end),
    notes: pickedNote(picked),
  };
}

export async function getData(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const flow = dataflowOf(request.id);
  if (!flow)
    throw new UpstreamError(
      SOURCE,
      'http_error',
      `${SOURCE}: dataflow ${request.id} is not one this service can read (known: ${DATAFLOWS.map((known) => known.id).join(', ')})`,
    );
  const dimensions = { ...request.dimensions, ...(request.country ? { REF_AREA: request.country.iso3 } : {}) };
  const unknown = Object.keys(dimensions).filter((id) => !flow.dimensions.includes(id));
  if (unknown.length > 0)
    throw new UpstreamError(
      SOURCE,
      'http_error',
      `${SOURCE}: dataflow ${flow.id} has no dimension ${unknown.join(', ')} (its dimensions: ${flow.dimensions.join(', ')})`,
    );
  const answer = await upstream.getText(SOURCE, {
    // A data download: the kind OECD's hourly limit counts (structure queries are kind 'structure').
    kind: 'data',
    path: `/data/${flow.agency},${flow.id},${flow.version}/${keyOf(flow, dimensions)}`,
    searchParams: {
      startPeriod: request.start,
      endPeriod: request.end,
      dimensionAtObservation: 'TIME_PERIOD',
      detail: 'dataonly',
      format: 'csvfilewithlabels',
    },
  });
  return { series: seriesFromCsv(answer.body, flow, request, dimensions), retrievedAt: answer.retrievedAt };
}

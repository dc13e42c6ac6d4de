/**
 * OECD Data API (sdmx.oecd.org/public/rest, SDMX REST; the old stats.oecd.org is retired): data as
 * SDMX-CSV with labels from `/data/{agency},{flow},{version}/{key}`. The API has no search:
 * find_series searches the dataflow list and the matching dataflows' structures and available codes
 * (./oecd-catalogue.ts) and builds each series key from them; when the catalogue cannot be read,
 * OECD is a failed source. The three dataflows listed here (their dimension order taken from the
 * API's own CSV headers) are read without a structure request, and their presets weigh more.
 * Rows are not sorted and may fall outside the period asked: they are sorted and filtered here.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { countryOf } from '../statistics/countries.ts';
import { indexOf } from '../statistics/catalogue-index.ts';
import { availabilityFor, dataflowList, measureDimension, keyCodes, refOf, structureOf, type DataflowRef } from './oecd-catalogue.ts';
import { frequencyOf, observationsFrom, withinPeriod } from '../statistics/periods.ts';
import { pickSeries, readSdmxCsv, type SdmxSeries } from '../statistics/sdmx.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import {
  notApplicable,
  pickedNote,
  type Candidates,
  type FetchedSeries,
  type Frequency,
  type Series,
  type SeriesRequest,
  type SeriesSearch,
} from '../statistics/series.ts';

export const SOURCE = 'oecd' as const;

export interface Dataflow {
  agency: string;
  id: string;
  version: string;
  title: string;
  /** Dimension ids in key order (the order of the dimension columns of the dataflow's SDMX-CSV). */
  dimensions: readonly string[];
  /** English labels of the codes, by dimension, when read from the dataflow's structure (a codes-only answer is labelled with them). */
  labels?: ReadonlyMap<string, ReadonlyMap<string, string>>;
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
  {
    agency: 'OECD.SDD.TPS',
    id: 'DSD_PRICES@DF_PRICES_ALL',
    version: '1.0',
    title: 'Consumer price indices (CPIs, HICPs), COICOP 1999',
    dimensions: ['REF_AREA', 'FREQ', 'METHODOLOGY', 'MEASURE', 'UNIT_MEASURE', 'EXPENDITURE', 'ADJUSTMENT', 'TRANSFORMATION'],
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
  {
    flow: 'DSD_PRICES@DF_PRICES_ALL',
    title: 'Consumer price index, all items, growth over 1 year',
    units: 'Percent per annum',
    frequency: 'monthly',
    dimensions: { FREQ: 'M', METHODOLOGY: 'N', MEASURE: 'CPI', UNIT_MEASURE: 'PA', EXPENDITURE: '_T', ADJUSTMENT: 'N', TRANSFORMATION: 'GY' },
  },
];

export const dataflowOf = (id: string): Dataflow | undefined => DATAFLOWS.find((flow) => flow.id === id || `${flow.agency},${flow.id},${flow.version}` === id);

export const explorerUrl = (flow: Pick<Dataflow, 'id' | 'agency'>) =>
  `https://data-explorer.oecd.org/vis?df[ds]=dsDisseminateFinalDMZ&df[id]=${encodeURIComponent(flow.id)}&df[ag]=${encodeURIComponent(flow.agency)}`;

/** The id a seriesId gives the dataflow: its short id when listed here, else AGENCY,FLOW,VERSION. */
export const seriesFlowId = (flow: Pick<Dataflow, 'agency' | 'id' | 'version'>) => (dataflowOf(refOf(flow)) ? flow.id : refOf(flow));

/** The SDMX key: the dimension codes in the dataflow's order, an open dimension left empty. */
export function keyOf(flow: Dataflow, dimensions: Record<string, string>): string {
  return flow.dimensions.map((id) => dimensions[id] ?? '').join('.');
}

/** The CSV's series → one series (totals preferred when a dimension was open), with what was picked. */
export function parseData(csv: string, flow: Dataflow): { series: SdmxSeries | undefined; picked: Record<string, string> } {
  return pickSeries(readSdmxCsv(csv, flow.dimensions));
}

/** The presets' titles by dataflow id: their words also find their dataflow in the list ("bond yields" finds KEI). */
export const PRESET_WORDS: ReadonlyMap<string, string> = PRESETS.reduce(
  (words, preset) => words.set(preset.flow, [words.get(preset.flow), preset.title].filter(Boolean).join(' ')),
  new Map<string, string>(),
);

/** Dataflows whose structures are read for one search: the best matches of the dataflow list. */
export const FLOWS_PER_SEARCH = 3;
/** A preset's measure weighs this much more than another of the same match. */
export const PRESET_BOOST = 2;

interface MeasureCandidate {
  flow: DataflowRef;
  dimension: string;
  code: string;
  label: string;
  codes: Record<string, string>;
}

/** The candidate measures of one dataflow for one country: every measure with data there, with its key. */
async function measuresOf(upstream: UpstreamClient, flow: DataflowRef, country: string): Promise<MeasureCandidate[]> {
  const structure = await structureOf(upstream, flow);
  const measure = measureDimension(structure);
  if (!measure || !structure.dimensions.some((dimension) => dimension.id === 'REF_AREA')) return [];
  const available = await availabilityFor(upstream, flow, structure, country);
  if (!(available.get('REF_AREA') ?? []).includes(country)) return [];
  return (available.get(measure.id) ?? [...measure.codes.keys()]).map((code) => ({
    flow,
    dimension: measure.id,
    code,
    label: measure.codes.get(code) ?? code,
    codes: keyCodes(structure, available, country, { dimension: measure.id, code }),
  }));
}

export async function searchDataflows(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  // OECD series are per country: without a country in the query there is nothing definite to offer.
  if (!search.country) return notApplicable();
  const country = search.country;
  const catalogue = await dataflowList(upstream, PRESET_WORDS);
  const flows = catalogue.index.find(search.topic, FLOWS_PER_SEARCH).map((match) => catalogue.flows.get(match.id)!);
  // A dataflow whose structure or availability cannot be read is left out; only when all fail is OECD a failed source.
  const settled = await Promise.allSettled(flows.map((flow) => measuresOf(upstream, flow, country.iso3)));
  const failure = settled.find((outcome) => outcome.status === 'rejected');
  if (failure && settled.every((outcome) => outcome.status === 'rejected')) throw failure.reason;
  const measures = settled.flatMap((outcome) => (outcome.status === 'fulfilled' ? outcome.value : []));
  const boosts = new Map<string, number>(
    measures.flatMap((measure, index): Array<[string, number]> =>
      PRESETS.some((preset) => dataflowOf(preset.flow)?.id === measure.flow.id && preset.dimensions.MEASURE === measure.code)
        ? [[String(index), PRESET_BOOST]]
        : [],
    ),
  );
  const ranked = indexOf(
    measures.map((measure, index) => ({ id: String(index), title: measure.label, text: measure.flow.name })),
    boosts,
  ).find(search.topic, search.limit);
  return {
    candidates: ranked.map(({ id }) => {
      const measure = measures[Number(id)]!;
      const flow = measure.flow;
      return {
        seriesId: formatSeriesId(SOURCE, seriesFlowId(flow), measure.codes),
        title: `${measure.label}, ${country.name}`,
        frequency: frequencyOf(measure.codes.FREQ),
        geography: country.name,
        countryCode: country.iso3,
        dataset: flow.name,
        url: explorerUrl(flow),
      };
    }),
    retrievedAt: catalogue.retrievedAt,
  };
}

/** An SDMX-CSV answer → the one series (rows sorted, periods outside [start, end] dropped). */
export function seriesFromCsv(csv: string, flow: Dataflow, request: Pick<SeriesRequest, 'start' | 'end'>, dimensions: Record<string, string>): Series {
  const { series, picked } = parseData(csv, flow);
  if (!series) throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} has no data for ${flow.id} with ${keyOf(flow, dimensions)}`);
  const full = Object.fromEntries(flow.dimensions.map((id) => [id, series.dimensions[id]?.code]));
  /** The answer's own label, else the structure's (for a codes-only answer). */
  const named = (id: string) => {
    const code = series.dimensions[id]?.code;
    return series.dimensions[id]?.label ?? (code === undefined ? undefined : flow.labels?.get(id)?.get(code));
  };
  const label = (id: string) => named(id) ?? series.dimensions[id]?.code;
  const preset = PRESETS.find((candidate) => candidate.flow === flow.id && Object.entries(candidate.dimensions).every(([id, code]) => full[id] === code));
  const area = series.dimensions.REF_AREA;
  return {
    seriesId: formatSeriesId(SOURCE, seriesFlowId(flow), full),
    title: series.dimensions.MEASURE?.label ?? preset?.title ?? named('MEASURE') ?? `${flow.title}: ${label('MEASURE')}`,
    units: series.dimensions.UNIT_MEASURE?.label ?? preset?.units ?? label('UNIT_MEASURE'),
    frequency: frequencyOf(series.dimensions.FREQ?.code),
    seasonalAdjustment: named('ADJUSTMENT'),
    geography: area?.label ?? (area ? (countryOf(area.code)?.name ?? label('REF_AREA')) : undefined),
    countryCode: area?.code,
    dataset: flow.title,
    url: explorerUrl(flow),
    observations: withinPeriod(observationsFrom(series.observations), request.start, request.end),
    notes: pickedNote(picked),
  };
}

/** `AGENCY,FLOW,VERSION` (as find_series writes it) → the dataflow with its dimension order, from its structure unless listed here. */
export async function resolveDataflow(upstream: UpstreamClient, id: string): Promise<Dataflow> {
  const known = dataflowOf(id);
  if (known) return known;
  const parts = id.split(',');
  if (parts.length !== 3 || !parts.every((part) => /^[A-Za-z0-9_.@-]+$/.test(part)))
    throw new UpstreamError(
      SOURCE,
      'http_error',
      `${SOURCE}: a series id names its dataflow as AGENCY,DATAFLOW,VERSION (e.g. OECD.SDD.STES,DSD_KEI@DF_KEI,4.0) or one of ${DATAFLOWS.map((flow) => flow.id).join(', ')}; got ${id}`,
    );
  const [agency, flowId, version] = parts as [string, string, string];
  const structure = await structureOf(upstream, { agency, id: flowId, version });
  return {
    agency,
    id: flowId,
    version,
    title: structure.name ?? flowId,
    dimensions: structure.dimensions.map((dimension) => dimension.id),
    labels: new Map(structure.dimensions.map((dimension) => [dimension.id, dimension.codes])),
  };
}

export async function getData(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const flow = await resolveDataflow(upstream, request.id);
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

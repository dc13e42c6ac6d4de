/**
 * The one SDMX reader of the statistics connectors: SDMX-CSV (OECD; plain codes or `CODE: Label`
 * cells) and SDMX-ML structure-specific data (IMF SDMX 3.0, every value an attribute) both become
 * series of coded dimensions with their observations, and one series is picked when a query
 * matched several.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import { XMLParser } from 'fast-xml-parser';
import { valueOf } from './periods.ts';

export interface Coded {
  code: string;
  label?: string;
}

export interface SdmxObservation {
  period: string;
  value?: number;
  status?: string;
}

export interface SdmxSeries {
  /** Series-level dimensions (and, for SDMX-ML, series attributes), in message order. */
  dimensions: Record<string, Coded>;
  observations: SdmxObservation[];
}

/** `USA: United States` → code and label; a plain `USA` → code only. */
function coded(cell: string): Coded {
  const colon = cell.indexOf(': ');
  return colon > 0 ? { code: cell.slice(0, colon), label: cell.slice(colon + 2) } : { code: cell };
}

/** Status flags worth showing: "A" (normal value) is left out; a labelled flag shows its label. */
function statusOf(cell: string | undefined): string | undefined {
  if (!cell) return undefined;
  const flag = coded(cell);
  if (flag.code === 'A') return undefined;
  return flag.label ? flag.label.toLowerCase() : flag.code;
}

/** SDMX-CSV (1.0 or 2.0, with or without labels) → one series per distinct combination of `dimensionIds`. */
export function readSdmxCsv(text: string, dimensionIds: readonly string[]): SdmxSeries[] {
  const rows = parseCsv(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  const header = (rows[0] ?? []).map((cell) => coded(cell).code);
  const column = (id: string) => header.indexOf(id);
  const [timeColumn, valueColumn, statusColumn] = [column('TIME_PERIOD'), column('OBS_VALUE'), column('OBS_STATUS')];
  const bySeries = new Map<string, SdmxSeries>();
  for (const row of rows.slice(1)) {
    const dimensions: Record<string, Coded> = {};
    for (const id of dimensionIds) if (column(id) >= 0) dimensions[id] = coded(row[column(id)] ?? '');
    const key = dimensionIds.map((id) => dimensions[id]?.code ?? '').join('.');
    let series = bySeries.get(key);
    if (!series) bySeries.set(key, (series = { dimensions, observations: [] }));
    series.observations.push({
      period: row[timeColumn] ?? '',
      value: valueOf(row[valueColumn]),
      status: statusOf(statusColumn >= 0 ? row[statusColumn] : undefined),
    });
  }
  return [...bySeries.values()];
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseAttributeValue: false,
  isArray: (name) => name === 'Series' || name === 'Obs' || name === 'DataSet',
});

type Node = Record<string, unknown>;

/** SDMX-ML 2.1/3.0 structure-specific data: `<Series DIM="…"><Obs TIME_PERIOD="…" OBS_VALUE="…"/></Series>`. */
export function readSdmxXml(text: string): SdmxSeries[] {
  const document = xml.parse(text) as Node;
  const message = (Object.values(document).find((node) => node && typeof node === 'object' && 'DataSet' in (node as Node)) ?? {}) as Node;
  const dataSets = (message.DataSet ?? []) as Node[];
  return dataSets.flatMap((dataSet) =>
    ((dataSet.Series ?? []) as Node[]).map((series) => {
      const dimensions: Record<string, Coded> = {};
      for (const [name, value] of Object.entries(series)) if (typeof value === 'string') dimensions[name] = { code: value };
      const observations = ((series.Obs ?? []) as Node[]).map((obs) => ({
        period: String(obs.TIME_PERIOD ?? ''),
        value: valueOf(obs.OBS_VALUE),
        status: statusOf(typeof obs.OBS_STATUS === 'string' ? obs.OBS_STATUS : undefined),
      }));
      return { dimensions, observations };
    }),
  );
}

/** Codes that stand for "all of it": preferred when a dimension was left open and several series came back. */
const TOTAL_CODES = new Set(['_T', '_Z', 'T', 'TOTAL', 'Y_GE15', 'SA', 'Y', 'EU27_2020']);

/**
 * One series of several: the one with most "total" codes (`_T`, `_Z`, `T`, `TOTAL` …), the first of
 * equals. Also returns the dimensions that had several codes, with the code picked.
 */
export function pickSeries<T extends { dimensions: Record<string, Coded> }>(all: T[]): { series: T | undefined; picked: Record<string, string> } {
  if (all.length <= 1) return { series: all[0], picked: {} };
  const score = (series: T) => Object.values(series.dimensions).filter((value) => TOTAL_CODES.has(value.code)).length;
  const series = all.reduce((best, next) => (score(next) > score(best) ? next : best));
  const picked: Record<string, string> = {};
  for (const [id, value] of Object.entries(series.dimensions)) {
    if (new Set(all.map((other) => other.dimensions[id]?.code)).size > 1) picked[id] = value.code;
  }
  return { series, picked };
}

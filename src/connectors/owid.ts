/**
 * Our World in Data grapher charts: search `/api/search?q=` (charts), data
 * `/grapher/{slug}.csv?csvType=filtered&country=~ISO3&time=A..B&useColumnShortNames=true` (columns
 * Entity, Code, Year or Day, then one or more indicators) and `/grapher/{slug}.metadata.json`
 * (title, units, citation). Ids are `owid:<slug>?country=<ISO3>`, with `&column=<short name>` when a
 * chart has several indicators; without a country the world aggregate OWID_WRL is read.
 */
import { parse as parseCsv } from 'csv-parse/sync';
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { countryOf } from '../statistics/countries.ts';
import { observationsFrom, valueOf, withinPeriod } from '../statistics/periods.ts';
import { formatSeriesId } from '../statistics/series-id.ts';
import { optional, type Candidates, type FetchedSeries, type SeriesRequest, type SeriesSearch } from '../statistics/series.ts';
import { path } from '../upstream/path.ts';

export const SOURCE = 'owid' as const;
export const WORLD = 'OWID_WRL';

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined);

export const chartUrl = (slug: string, iso3?: string) =>
  `https://ourworldindata.org/grapher/${encodeURIComponent(slug)}${iso3 && iso3 !== WORLD ? `?country=~${iso3}` : ''}`;

export interface Chart {
  slug: string;
  title: string;
  subtitle?: string;
}

/** `{"results":[{title, slug, subtitle, type, …}]}`; only charts (explorer views have no CSV of their own). */
export function parseSearch(body: unknown): Chart[] {
  const results = obj(body).results;
  if (!Array.isArray(results)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a search without results`);
  return results.map(obj).flatMap((hit) => {
    const slug = text(hit.slug);
    const type = text(hit.type);
    return slug && (!type || type === 'chart') ? [{ slug, title: text(hit.title) ?? slug, subtitle: text(hit.subtitle) }] : [];
  });
}

export interface ChartColumn {
  name: string;
  title?: string;
  unit?: string;
  description?: string;
  citation?: string;
  lastUpdated?: string;
}

/** `.metadata.json`: the chart's title and its columns keyed by CSV column name. */
export function parseMetadata(body: unknown): { title?: string; columns: ChartColumn[] } {
  const metadata = obj(body);
  const columns = Object.entries(obj(metadata.columns)).map(([name, item]) => {
    const column = obj(item);
    return {
      name,
      title: text(column.titleShort) ?? text(column.titleLong),
      unit: text(column.unit) ?? text(column.shortUnit),
      description: text(column.descriptionShort),
      citation: text(column.citationShort),
      lastUpdated: text(column.lastUpdated),
    };
  });
  return { title: text(obj(metadata.chart).title), columns };
}

/** The chart CSV → rows of one entity (by its Code) for one indicator column (the first when none is named). */
export function parseChartCsv(csv: string, entityCode: string, column?: string) {
  const rows = parseCsv(csv, { columns: true, bom: true, skip_empty_lines: true }) as Array<Record<string, string>>;
  const header = Object.keys(rows[0] ?? {});
  const timeColumn = header.includes('Day') ? 'Day' : 'Year';
  const indicators = header.filter((name) => !['Entity', 'Code', 'Year', 'Day'].includes(name));
  const chosen = column ?? indicators[0];
  if (chosen === undefined || (rows.length > 0 && !indicators.includes(chosen))) {
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE}: the chart has no column ${chosen ?? '(none)'} (its columns: ${indicators.join(', ') || 'none'})`);
  }
  const entityRows = rows.filter((row) => row.Code === entityCode);
  return {
    column: chosen,
    indicators,
    entity: entityRows[0]?.Entity,
    observations: observationsFrom(entityRows.map((row) => ({ period: row[timeColumn] ?? '', value: valueOf(row[chosen]) }))),
  };
}

export async function searchCharts(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/api/search',
    searchParams: { q: search.topic, type: 'charts', hitsPerPage: search.limit, countries: search.country?.name },
  });
  const iso3 = search.country?.iso3;
  return {
    candidates: parseSearch(answer.body).map((chart) => ({
      seriesId: formatSeriesId(SOURCE, chart.slug, { country: iso3 }),
      title: search.country ? `${chart.title}, ${search.country.name}` : chart.title,
      description: chart.subtitle,
      geography: search.country?.name ?? 'World',
      countryCode: iso3,
      url: chartUrl(chart.slug, iso3),
    })),
    retrievedAt: answer.retrievedAt,
  };
}

export async function getChartData(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries> {
  const entity = request.country?.iso3 ?? request.dimensions.country ?? WORLD;
  const slug = encodeURIComponent(request.id);
  const [startYear, endYear] = [request.start?.slice(0, 4), request.end?.slice(0, 4)];
  const time = startYear || endYear ? `${startYear ?? 'earliest'}..${endYear ?? 'latest'}` : undefined;
  const [data, meta] = await Promise.all([
    upstream.getText(SOURCE, {
      path: path`/grapher/${slug}` + '.csv',
      searchParams: { csvType: 'filtered', country: `~${entity}`, time, useColumnShortNames: 'true' },
    }),
    optional(
      async () =>
        parseMetadata(
          (await upstream.getJson(SOURCE, { path: path`/grapher/${slug}` + '.metadata.json', searchParams: { useColumnShortNames: 'true' } })).body,
        ),
      "the chart's title, units and citation",
    ),
  ]);
  const read = parseChartCsv(data.body, entity, request.dimensions.column);
  const metadata = meta.value ?? { title: undefined, columns: [] };
  const column = metadata.columns.find((candidate) => candidate.name === read.column);
  const country = countryOf(entity);
  return {
    series: {
      seriesId: formatSeriesId(SOURCE, request.id, { country: entity, column: read.indicators.length > 1 ? read.column : undefined }),
      title: `${metadata.title ?? column?.title ?? request.id}, ${read.entity ?? country?.name ?? entity}`,
      description: column?.description,
      units: column?.unit,
      frequency: read.observations[0] && /^\d{4}$/.test(read.observations[0].period) ? 'annual' : read.observations[0] ? 'daily' : undefined,
      geography: read.entity ?? country?.name ?? entity,
      countryCode: country?.iso3,
      dataset: column?.citation,
      lastUpdated: column?.lastUpdated,
      url: chartUrl(request.id, entity),
      observations: withinPeriod(read.observations, request.start, request.end),
      notes:
        read.indicators.length > 1 && !request.dimensions.column
          ? [`the chart has ${read.indicators.length} indicators; returned ${read.column} (choose with ?column=)`]
          : [],
    },
    retrievedAt: data.retrievedAt,
    failures: meta.failure ? [meta.failure] : undefined,
  };
}

/**
 * get_series: one seriesId (`<source>:<id>` with optional `?<dimension>=<CODE>` parts) → title,
 * units, frequency, geography and dated values oldest first, from the source the id names.
 * `start`/`end` are pushed down to the source and applied again here; `country` replaces the
 * country of per-country sources. At most MAX_OBSERVATIONS values are returned (the latest), and the
 * summary says when a series was cut.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { GetSeriesArgs, GetSeriesData } from '../../generated/types.ts';
import { ApiError } from '../errors.ts';
import { statisticsConnectors } from '../statistics/connectors.ts';
import { countryOf, type Country } from '../statistics/countries.ts';
import { parseSeriesId } from '../statistics/series-id.ts';
import type { FetchedSeries, Series } from '../statistics/series.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

/** Observations per call: a longer series is cut to its latest values. */
export const MAX_OBSERVATIONS = 10_000;

export function seriesData(series: Series): GetSeriesData {
  return {
    series_id: series.seriesId,
    description: series.description,
    units: series.units,
    frequency: series.frequency,
    seasonal_adjustment: series.seasonalAdjustment,
    geography: series.geography,
    country_code: series.countryCode,
    last_updated: series.lastUpdated,
    observation_count: series.observations.length,
    observations: series.observations,
  };
}

export function describeSeries(series: Series, cutFrom: number | undefined): string {
  const values = series.observations;
  const span = values.length > 0 ? ` from ${values[0]!.period} to ${values[values.length - 1]!.period}` : '';
  const notes = [
    cutFrom !== undefined
      ? `cut to the latest ${MAX_OBSERVATIONS.toLocaleString('en-US')} of ${cutFrom.toLocaleString('en-US')} observations (narrow it with start/end)`
      : '',
    ...series.notes,
  ].filter(Boolean);
  return `${series.title}: ${count(values.length, 'observation')}${span}${series.units ? ` (${series.units})` : ''}, from ${series.seriesId.slice(0, series.seriesId.indexOf(':'))}${notes.length > 0 ? `; ${notes.join('; ')}` : ''}.`;
}

export const getSeries: ToolHandler<GetSeriesArgs, GetSeriesData, ToolContext> = async (args, context) => {
  const { source, id, dimensions } = parseSeriesId(args.series_id);
  const connector = statisticsConnectors[source];
  connector.checkId?.({ id, dimensions });
  let country: Country | undefined;
  if (args.country !== undefined) {
    country = countryOf(args.country);
    if (!country) throw new ApiError('invalid_input', `country: "${args.country}" is not an ISO 3166-1 country code`);
    if (!connector.perCountry)
      throw new ApiError('invalid_input', `country: ${source} series are not per country; country applies to world-bank, imf, owid, oecd and eurostat`);
  }
  // A connector may find the input wrong only once the source has told it something (a Census dataset without the level asked):
  // that is the caller's error, a 400 that costs nothing, not a failure of the source.
  let refusal: ApiError | undefined;
  const fan = await fanOut<FetchedSeries>(
    [
      {
        source,
        run: () =>
          connector.fetch(context.upstream, { id, dimensions, start: args.start, end: args.end, country }).catch((error: unknown) => {
            if (error instanceof ApiError && error.code === 'invalid_input') refusal = error;
            throw error;
          }),
      },
    ],
    (failed, error) => {
      if (error !== refusal) context.logger.error({ err: error, source: failed }, 'connector failed unexpectedly');
    },
  );
  if (refusal) throw refusal;
  const answer = fan.answered[0]?.value;
  if (!answer) return assemble(fan, [], '');
  for (const failure of answer.failures ?? []) fan.failed.push({ source, error: failure });
  const all = answer.series.observations;
  const cut = all.length > MAX_OBSERVATIONS;
  const series = cut ? { ...answer.series, observations: all.slice(all.length - MAX_OBSERVATIONS) } : answer.series;
  const record = makeRecord<GetSeriesData>(context.upstream, source, {
    nativeId: series.seriesId.slice(source.length + 1),
    type: 'series',
    title: series.title,
    url: series.url,
    retrievedAt: answer.retrievedAt,
    data: seriesData(series),
  });
  return assemble(fan, [record], describeSeries(series, cut ? all.length : undefined));
};

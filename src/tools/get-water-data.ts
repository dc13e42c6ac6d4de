/**
 * get_water_data: with `site`, the daily means of one USGS monitoring site (values, approval status,
 * qualifiers) and its description; without, the stream sites of a state or bounding box. The Water
 * Data OGC API is asked first; when it fails, the legacy NWIS WaterServices answers instead.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { GetWaterDataArgs, GetWaterDataData } from '../../generated/types.ts';
import * as water from '../connectors/usgs-water.ts';
import { findState } from '../earth/us-states.ts';
import { ApiError } from '../errors.ts';
import { Join } from '../life/parts.ts';
import { UpstreamError } from '../upstream/errors.ts';
import type { ToolContext } from './context.ts';
import { count, makeRecord } from './result.ts';

type Data = GetWaterDataData;
const SOURCE = water.SOURCE;
const DEFAULT_WINDOW_DAYS = 30;
const DAY_MS = 86_400_000;

/** Units in one spelling whichever API answered (the OGC API writes ft^3/s, NWIS deg C). */
const UNITS: Record<string, string> = { 'ft^3/s': 'ft3/s', 'deg C': 'degC' };

const isoDay = (time: number) => new Date(time).toISOString().slice(0, 10);

/** The requested days: end defaults to today (UTC), start to 30 days before end. */
export function dayRange(args: Pick<GetWaterDataArgs, 'start' | 'end'>, now: Date): { start: string; end: string } {
  const end = args.end ?? isoDay(now.getTime());
  return { start: args.start ?? isoDay(Date.parse(end) - DEFAULT_WINDOW_DAYS * DAY_MS), end };
}

/** The OGC API's answer, or the legacy service's when the OGC API fails (both failures named otherwise). */
async function withNwisFallback<T>(context: ToolContext, current: () => Promise<T>, legacy: () => Promise<T>): Promise<T> {
  try {
    return await current();
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    context.logger.warn({ source: SOURCE, reason: error.message }, 'Water Data OGC API failed; asking NWIS WaterServices');
    try {
      return await legacy();
    } catch (fallbackError) {
      if (!(fallbackError instanceof UpstreamError)) throw fallbackError;
      throw new UpstreamError(SOURCE, fallbackError.kind, `${error.message}; the NWIS WaterServices fallback: ${fallbackError.message}`, fallbackError.status);
    }
  }
}

function siteData(site: water.Site): Data {
  return {
    site_number: site.siteNumber,
    name: site.name,
    site_type: site.siteType,
    state: site.state,
    latitude: site.latitude,
    longitude: site.longitude,
    drainage_area_sq_mi: site.drainageAreaSqMi,
    site_url: water.siteUrl(site.siteNumber),
  };
}

async function siteValues(args: GetWaterDataArgs, context: ToolContext, join: Join) {
  const siteNumber = args.site!.replace(/^USGS-/, '');
  const query: water.DailyQuery = { siteNumber, parameter: args.parameter, ...dayRange(args, new Date()) };
  const [series, described] = await Promise.all([
    join.attempt(SOURCE, 'daily values', () =>
      withNwisFallback(
        context,
        () => water.getDailyValues(context.upstream, query),
        () => water.getNwisDailyValues(context.upstream, query),
      ),
    ),
    join.attempt(SOURCE, 'site name and location', async () => ({ site: await water.getMonitoringLocation(context.upstream, siteNumber) })),
  ]);
  const site = described?.site ?? series?.site;
  const what = args.parameter.replace('_', ' ');
  if (!site && (!series || series.values.length === 0))
    return join.outcome<Data>([], `No ${what} values for USGS site ${siteNumber} from ${query.start} to ${query.end}.`);
  const data: Data = {
    ...siteData(site ?? { siteNumber }),
    parameter: args.parameter,
    parameter_code: water.PARAMETER_CODES[args.parameter],
    unit: series?.unit ? (UNITS[series.unit] ?? series.unit) : undefined,
    values: series?.values.map((value) => ({ date: value.date, value: value.value, approval_status: value.approvalStatus, qualifiers: value.qualifiers })),
  };
  const record = makeRecord<Data>(context.upstream, SOURCE, {
    nativeId: siteNumber,
    type: 'water_site',
    title: site?.name,
    url: data.site_url,
    retrievedAt: series?.retrievedAt ?? new Date().toISOString(),
    data,
  });
  const values = series ? `${count(series.values.length, `daily mean ${what} value`)}` : 'no values';
  return join.outcome([record], `${values} for USGS site ${siteNumber}${site?.name ? ` (${site.name})` : ''} from ${query.start} to ${query.end}.`);
}

async function listSites(args: GetWaterDataArgs, context: ToolContext, join: Join) {
  let query: water.SiteQuery;
  let where: string;
  if (args.state !== undefined) {
    const state = findState(args.state);
    if (!state) throw new ApiError('invalid_input', `state: "${args.state}" is not a US state code or name`);
    query = { stateName: state.name, stateCode: state.code, limit: args.limit };
    where = `in ${state.name}`;
  } else {
    const [west, south, east, north] = args.bbox!;
    if (west! >= east! || south! >= north! || south! < -90 || north! > 90)
      throw new ApiError('invalid_input', 'bbox: must be [west, south, east, north] with west < east and -90 <= south < north <= 90');
    query = { bbox: args.bbox!, limit: args.limit };
    where = `in the box ${args.bbox!.join(', ')}`;
  }
  const found = await join.attempt(SOURCE, 'site list', () =>
    withNwisFallback(
      context,
      () => water.searchMonitoringLocations(context.upstream, query),
      () => water.searchNwisSites(context.upstream, query, args.parameter),
    ),
  );
  const records = (found?.sites ?? []).map((site) =>
    makeRecord<Data>(context.upstream, SOURCE, {
      nativeId: site.siteNumber,
      type: 'water_site',
      title: site.name,
      url: water.siteUrl(site.siteNumber),
      retrievedAt: found!.retrievedAt,
      data: siteData(site),
    }),
  );
  return join.outcome(records, `${count(records.length, 'stream monitoring site')} ${where}.`);
}

export const getWaterData: ToolHandler<GetWaterDataArgs, Data, ToolContext> = async (args, context) => {
  const join = new Join((source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'));
  return args.site !== undefined ? siteValues(args, context, join) : listSites(args, context, join);
};

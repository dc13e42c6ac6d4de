/** Each statistics source's two connector functions: search (find_series) and one series (get_series). */
import * as bls from '../connectors/bls.ts';
import * as census from '../connectors/census.ts';
import * as eurostat from '../connectors/eurostat.ts';
import * as fred from '../connectors/fred.ts';
import * as imf from '../connectors/imf.ts';
import * as oecd from '../connectors/oecd.ts';
import * as owid from '../connectors/owid.ts';
import * as worldBank from '../connectors/world-bank.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { StatisticsSource } from './series-id.ts';
import type { Candidates, FetchedSeries, SeriesRequest, SeriesSearch } from './series.ts';

export interface StatisticsConnector {
  search(upstream: UpstreamClient, search: SeriesSearch): Promise<Candidates>;
  fetch(upstream: UpstreamClient, request: SeriesRequest): Promise<FetchedSeries>;
  /** Whether the `country` argument of get_series applies (spec: world-bank, imf, owid, oecd, eurostat). */
  perCountry: boolean;
  /** Refuses an id the source could never read (an ApiError naming series_id), before anything is asked. */
  checkId?: (request: Pick<SeriesRequest, 'id' | 'dimensions'>) => void;
}

export const statisticsConnectors: Record<StatisticsSource, StatisticsConnector> = {
  fred: { search: fred.searchSeries, fetch: fred.getObservations, perCountry: false },
  'world-bank': { search: worldBank.searchIndicators, fetch: worldBank.getIndicatorData, perCountry: true },
  bls: { search: bls.searchSeries, fetch: bls.getTimeseries, perCountry: false },
  oecd: { search: oecd.searchDataflows, fetch: oecd.getData, perCountry: true },
  eurostat: { search: eurostat.searchDatasets, fetch: eurostat.getData, perCountry: true },
  imf: { search: imf.searchIndicators, fetch: imf.getSeries, perCountry: true },
  owid: { search: owid.searchCharts, fetch: owid.getChartData, perCountry: true },
  census: { search: census.searchVariables, fetch: census.getTimeseries, perCountry: false, checkId: census.checkSeriesId },
};

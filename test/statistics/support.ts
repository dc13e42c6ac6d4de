/**
 * Helpers of the statistics tests over real HTTP: every statistics source pointed at one fake
 * upstream under its own prefix (`<fake>/fred/…`), FRED and Census given test keys, and the replies
 * each source gives to find_series and get_series in the usual case (shared recordings where they
 * exist, the project's hand-made fixtures in the documented formats where none does).
 */
import { STATISTICS_SOURCES, type StatisticsSource } from '../../src/statistics/series-id.ts';
import { fixture, recording } from '../connectors/recordings.ts';
import type { EngineUnderTest } from '../support/databases.ts';
import { json, type Reply } from '../support/fake-upstream.ts';
import { own, recorded, sourcesHarness, type SourcesHarness } from '../life/support.ts';

export type StatisticsHarness = SourcesHarness<StatisticsSource>;

export const KEYS = { SOURCE_FRED_KEY: 'test-fred-key', SOURCE_CENSUS_KEY: 'test-census-key' };

export function statisticsHarness(engine: EngineUnderTest): StatisticsHarness {
  return sourcesHarness(engine, STATISTICS_SOURCES, KEYS);
}

export const text = (body: string, contentType: string): Reply => ({ body, contentType });

/** BLS's catalogue: the recorded excerpts of LABSTAT's series lists of the three surveys searched. */
export function serveBlsCatalogue(stats: StatisticsHarness): void {
  for (const [survey, file] of Object.entries(LABSTAT_EXCERPTS))
    stats.on('bls', `/labstat/${survey}/${survey}.series`, text(recording('bls', file), 'text/plain'));
}

const LABSTAT_EXCERPTS: Record<string, string> = {
  ce: 'labstat-ce-series-first-999.tsv',
  cu: 'labstat-cu-series-first-100.tsv',
  ln: 'labstat-ln-series-first-6.tsv',
};

/** The search replies of all eight sources (Census's and OECD's catalogues are not served: no real recording of them exists, so they fail). */
export function serveSearches(stats: StatisticsHarness): void {
  serveBlsCatalogue(stats);
  stats.on('fred', '/series/search', recorded('fred', 'series-search-oil.json'));
  stats.on('world-bank', '/sources/2/indicators', recorded('world-bank', 'indicators-list.json'));
  stats.on('eurostat', '/catalogue/toc/txt', text(fixture('eurostat', 'hand-made-toc-two-datasets.txt'), 'text/plain; charset=utf-8'));
  stats.on('imf', '/datamapper/api/v1/indicators', own('imf', 'hand-made-datamapper-indicators.json'));
  stats.on('owid', '/api/search', own('owid', 'hand-made-search-unemployment-germany.json'));
}

/** The data replies of all eight sources for the series the searches above offer. */
export function serveData(stats: StatisticsHarness): void {
  stats.on('fred', '/series', recorded('fred', 'series-gdp.json'));
  stats.on('fred', '/series/observations', recorded('fred', 'series-observations-gdp.json'));
  // The recorded first page says there are 3; the two others are hand-made and empty, so each year comes once.
  const emptyPage = (page: number) => json([{ page, pages: 3, per_page: 50, total: 122, sourceid: '2', lastupdated: '2021-05-25' }, []]);
  stats.on('world-bank', '/country/JPN/indicator/NY.GDP.MKTP.CD', recorded('world-bank', 'indicator-data-jpn-usa-gdp-page1.json'), emptyPage(2), emptyPage(3));
  stats.on('world-bank', '/indicator/NY.GDP.MKTP.CD', recorded('world-bank', 'indicator-metadata.json'));
  stats.on('bls', '/timeseries/data/CUUR0000SA0', recorded('bls', 'timeseries-post-cpi-1913-1914.json'));
  stats.on(
    'oecd',
    '/data/OECD.SDD.STES,DSD_KEI@DF_KEI,4.0/GBR.M.IRLT....',
    text(recording('oecd', 'data-v1-kei-gbr-irlt-2023.csv'), 'application/vnd.sdmx.data+csv; charset=utf-8'),
  );
  stats.on('eurostat', '/statistics/1.0/data/une_rt_m', recorded('eurostat', 'data-une-rt-m-de-xx-since-2024-01.json'));
  stats.on('imf', '/datamapper/api/v1/LUR/DEU', own('imf', 'hand-made-datamapper-lur-deu.json'));
  stats.on('imf', '/datamapper/api/v1/indicators', own('imf', 'hand-made-datamapper-indicators.json'));
  stats.on('owid', '/grapher/unemployment-rate.csv', text(fixture('owid', 'hand-made-unemployment-rate-deu.csv'), 'text/csv'));
  stats.on('owid', '/grapher/unemployment-rate.metadata.json', own('owid', 'hand-made-unemployment-rate.metadata.json'));
  stats.on('census', '/timeseries/poverty/saipe', own('census', 'hand-made-saipe-poverty-rate-us.json'));
}

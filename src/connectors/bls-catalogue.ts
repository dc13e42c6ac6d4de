/**
 * The BLS series catalogue: LABSTAT's tab-separated series lists
 * (`download.bls.gov/pub/time.series/<survey>/<survey>.series`), one line per series id with its
 * title, seasonal code and first and last periods. BLS answers 403 to clients without a
 * descriptive User-Agent with a contact address: the client's User-Agent names CONTACT_EMAIL.
 * Only the search's fields are kept: id, title, survey, seasonal code, frequency and span.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { sources } from '../../generated/tools.ts';
import { CatalogueIndex, type IndexedEntry } from '../statistics/catalogue-index.ts';
import { cataloguesOf } from '../statistics/catalogues.ts';
import type { Frequency } from '../statistics/series.ts';

const SOURCE = 'bls' as const;
export const LABSTAT_HOST = 'https://download.bls.gov/pub/time.series';

/** The surveys whose series lists are searched, with their names (BLS's survey abbreviations). */
export const CATALOGUE_SURVEYS: Readonly<Record<string, string>> = {
  ce: 'Current Employment Statistics (CES)',
  cu: 'Consumer Price Index for All Urban Consumers (CPI-U)',
  ln: 'Current Population Survey (CPS)',
};

/** A series list may be larger than an API answer: this cap is for the catalogue requests only. */
export const CATALOGUE_MAX_BYTES = 96 * 1024 * 1024;

export interface CatalogueSeries {
  id: string;
  title: string;
  survey: string;
  seasonal?: string;
  frequency?: Frequency;
  /** First and last period as BLS writes them: year and period code (`2006 M03`). */
  begin?: [string, string];
  end?: [string, string];
}

export interface BlsCatalogue {
  index: CatalogueIndex;
  /** The series of an id, as read from its line. */
  seriesOf: (id: string) => CatalogueSeries | undefined;
  retrievedAt: string;
}

/**
 * A series held as one string (title, survey, seasonal code, frequency, first and last period,
 * tab-separated): a catalogue of tens of thousands of series keeps one string each, not an object
 * with its own strings and arrays.
 */
export function pack(series: CatalogueSeries): string {
  return [series.title, series.survey, series.seasonal ?? '', series.frequency ?? '', series.begin?.join(' ') ?? '', series.end?.join(' ') ?? ''].join('\t');
}

export function unpack(id: string, packed: string): CatalogueSeries {
  const [title, survey, seasonal, frequency, begin, end] = packed.split('\t') as [string, string, string, string, string, string];
  const span = (text: string) => (text ? (text.split(' ') as [string, string]) : undefined);
  return {
    id,
    title,
    survey,
    seasonal: seasonal || undefined,
    frequency: (frequency || undefined) as Frequency | undefined,
    begin: span(begin),
    end: span(end),
  };
}

const FREQUENCY_OF_PERIOD: Record<string, Frequency> = { M: 'monthly', Q: 'quarterly', S: 'semiannual', A: 'annual' };

/** The address of the series lists: LABSTAT's own host, or the source's base when an operator (or a test) points it elsewhere. */
export function labstatBase(upstream: UpstreamClient): string {
  const base = upstream.source(SOURCE).baseUrl;
  return base === sources[SOURCE].baseUrl.replace(/\/+$/, '') ? LABSTAT_HOST : `${base}/labstat`;
}

/**
 * A copy of a cell that does not keep the whole file alive: a cut of a long string may point into
 * it, and a catalogue must hold only the fields it keeps.
 */
const detached = (cell: string): string => (' ' + cell).slice(1);

/** A `<survey>.series` file → its series, read line by line (header names the columns; cells are padded with spaces). */
export function* readSeriesList(text: string, survey: string): Generator<CatalogueSeries> {
  let start = 0;
  let columns: Record<string, number> | undefined;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const cells = text.slice(start, end).replace(/\r$/, '').split('\t');
    start = end + 1;
    if (!columns) {
      columns = Object.fromEntries(cells.map((cell, index) => [cell.trim(), index]));
      if (columns.series_id === undefined || columns.series_title === undefined)
        throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: ${survey}.series has no series_id and series_title columns`);
      continue;
    }
    const cell = (name: string) => {
      const index = columns![name];
      const value = index === undefined ? undefined : cells[index]?.trim();
      return value ? detached(value) : undefined;
    };
    const id = cell('series_id');
    const title = cell('series_title');
    if (!id || !title) continue;
    const beginPeriod = cell('begin_period');
    const [beginYear, endYear, endPeriod] = [cell('begin_year'), cell('end_year'), cell('end_period')];
    yield {
      id,
      title,
      survey,
      seasonal: cell('seasonal'),
      frequency: beginPeriod ? FREQUENCY_OF_PERIOD[beginPeriod[0]!] : undefined,
      begin: beginYear && beginPeriod ? [beginYear, beginPeriod] : undefined,
      end: endYear && endPeriod ? [endYear, endPeriod] : undefined,
    };
  }
}

/**
 * Reads every survey's series list into the index, one list after the other as each arrives (they
 * are asked for together): each line goes into the index as it is read, and each list's text is let
 * go once read. A large catalogue's index, titles and facts are kept out of the heap
 * (../statistics/catalogue-index.ts). Much-used series weigh `boost` times more.
 */
export async function readCatalogue(upstream: UpstreamClient, boosts: ReadonlyMap<string, number>): Promise<BlsCatalogue> {
  const baseUrl = labstatBase(upstream);
  const asked = new Map(
    Object.keys(CATALOGUE_SURVEYS).map((survey) => {
      const answer = upstream.getText(SOURCE, {
        baseUrl,
        path: `/${survey}/${survey}.series`,
        kind: 'catalogue',
        maxBodyBytes: CATALOGUE_MAX_BYTES,
        headers: { accept: 'text/plain' },
      });
      answer.catch(() => undefined); // a failure is thrown when its turn comes
      return [survey, answer] as const;
    }),
  );
  const index = new CatalogueIndex(boosts);
  index.nameGroups(CATALOGUE_SURVEYS);
  let retrievedAt: string | undefined;
  async function* entries(): AsyncGenerator<IndexedEntry> {
    for (const survey of [...asked.keys()]) {
      const answer = await asked.get(survey)!;
      asked.delete(survey);
      retrievedAt ??= answer.retrievedAt;
      for (const found of readSeriesList(answer.body, survey)) yield { id: found.id, title: found.title, group: survey, data: pack(found) };
    }
  }
  await index.addAll(entries());
  if (index.size === 0) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: the series lists named no series`);
  const seriesOf = (id: string) => {
    const data = index.entry(id)?.data;
    return data === undefined ? undefined : unpack(id, data);
  };
  return { index, seriesOf, retrievedAt: retrievedAt! };
}

/** The catalogue, read once and kept (see ../statistics/catalogues.ts). */
export function blsCatalogue(upstream: UpstreamClient, boosts: ReadonlyMap<string, number>): Promise<BlsCatalogue> {
  return cataloguesOf(upstream).get(`${SOURCE}:series`, () => readCatalogue(upstream, boosts));
}

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
import { catalogue } from '../statistics/catalogues.ts';
import type { Frequency } from '../statistics/series.ts';
import { detached } from './detached.ts';

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
 * A `<survey>.series` file read as it arrives, piece by piece: each piece's whole lines give their
 * series (the header names the columns; cells are padded with spaces), and the unfinished last
 * line waits for the next piece.
 */
export class SeriesListReader {
  private rest = '';
  private columns: Record<string, number> | undefined;

  constructor(private readonly survey: string) {}

  /** The series of the lines a piece completes. */
  *read(piece: string): Generator<CatalogueSeries> {
    const text = this.rest + piece;
    const cut = text.lastIndexOf('\n') + 1;
    this.rest = detached(text.slice(cut));
    yield* this.lines(text, cut);
  }

  /** The series of the last line, once the file has ended. */
  *end(): Generator<CatalogueSeries> {
    const text = this.rest;
    this.rest = '';
    yield* this.lines(text, text.length);
  }

  private *lines(text: string, until: number): Generator<CatalogueSeries> {
    for (let start = 0; start < until;) {
      let end = text.indexOf('\n', start);
      if (end < 0 || end > until) end = until;
      const cells = text.slice(start, end).replace(/\r$/, '').split('\t');
      start = end + 1;
      if (!this.columns) {
        if (cells.length === 1 && cells[0]!.trim() === '') continue;
        this.columns = Object.fromEntries(cells.map((cell, index) => [cell.trim(), index]));
        if (this.columns.series_id === undefined || this.columns.series_title === undefined)
          throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: ${this.survey}.series has no series_id and series_title columns`);
        continue;
      }
      const found = this.series(cells);
      if (found) yield found;
    }
  }

  private series(cells: string[]): CatalogueSeries | undefined {
    const cell = (name: string) => {
      const index = this.columns![name];
      const value = index === undefined ? undefined : cells[index]?.trim();
      return value ? detached(value) : undefined;
    };
    const id = cell('series_id');
    const title = cell('series_title');
    if (!id || !title) return undefined;
    const beginPeriod = cell('begin_period');
    const [beginYear, endYear, endPeriod] = [cell('begin_year'), cell('end_year'), cell('end_period')];
    return {
      id,
      title,
      survey: this.survey,
      seasonal: cell('seasonal'),
      frequency: beginPeriod ? FREQUENCY_OF_PERIOD[beginPeriod[0]!] : undefined,
      begin: beginYear && beginPeriod ? [beginYear, beginPeriod] : undefined,
      end: endYear && endPeriod ? [endYear, endPeriod] : undefined,
    };
  }
}

/** A whole `<survey>.series` file → its series. */
export function* readSeriesList(text: string, survey: string): Generator<CatalogueSeries> {
  const reader = new SeriesListReader(survey);
  yield* reader.read(text);
  yield* reader.end();
}

const entriesOf = function* (series: Iterable<CatalogueSeries>): Generator<IndexedEntry> {
  for (const found of series) yield { id: found.id, title: found.title, group: found.survey, data: pack(found) };
};

/**
 * Reads every survey's series list into the index, one list after the other, each as it streams:
 * its lines go into the index as they arrive, and no list's text is ever held whole (in the shared
 * cache too it is kept and read back in pieces: ../upstream/cache.ts). A large catalogue's index,
 * titles and facts are kept out of the heap (../statistics/catalogue-index.ts). Much-used series
 * weigh `boost` times more.
 */
export async function readCatalogue(upstream: UpstreamClient, boosts: ReadonlyMap<string, number>): Promise<BlsCatalogue> {
  const baseUrl = labstatBase(upstream);
  // Series lists are large (tens of thousands of series): kept in a database file from the first entry, none held in the heap meanwhile.
  const index = new CatalogueIndex(boosts, { storedFrom: 0 });
  index.nameGroups(CATALOGUE_SURVEYS);
  const filling = index.fill();
  let retrievedAt: string | undefined;
  try {
    for (const survey of Object.keys(CATALOGUE_SURVEYS)) {
      const reader = new SeriesListReader(survey);
      const read = await upstream.readText(
        SOURCE,
        { baseUrl, path: `/${survey}/${survey}.series`, kind: 'catalogue', maxBodyBytes: CATALOGUE_MAX_BYTES, headers: { accept: 'text/plain' } },
        (piece) => filling.add(entriesOf(reader.read(piece))),
      );
      await filling.add(entriesOf(reader.end()));
      retrievedAt ??= read.retrievedAt;
    }
    await filling.end();
  } catch (error) {
    filling.abandon();
    throw error;
  }
  if (index.size === 0) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE}: the series lists named no series`);
  const seriesOf = (id: string) => {
    const data = index.entry(id)?.data;
    return data === undefined ? undefined : unpack(id, data);
  };
  return { index, seriesOf, retrievedAt: retrievedAt! };
}

/** The catalogue, read once and kept (see ../statistics/catalogues.ts). */
export function blsCatalogue(upstream: UpstreamClient, boosts: ReadonlyMap<string, number>): Promise<BlsCatalogue> {
  return catalogue(upstream, `${SOURCE}:series`, (shared) => readCatalogue(shared, boosts));
}

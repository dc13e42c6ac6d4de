/**
 * The one shape every statistics connector answers in, whatever its upstream format: series facts
 * for find_series candidates, and the same facts with dated observations for get_series.
 */
import type { GetSeriesData } from '../../generated/types.ts';
import { UpstreamError } from '../upstream/errors.ts';
import type { Country } from './countries.ts';

export type Frequency = NonNullable<GetSeriesData['frequency']>;
export type Observation = GetSeriesData['observations'][number];

export interface SeriesFacts {
  /** The full seriesId, `<source>:<id>` with optional `?<dimension>=<CODE>` parts. */
  seriesId: string;
  title: string;
  description?: string;
  units?: string;
  frequency?: Frequency;
  seasonalAdjustment?: string;
  geography?: string;
  countryCode?: string;
  dataset?: string;
  start?: string;
  end?: string;
  lastUpdated?: string;
  /** The series' own page at its source. */
  url?: string;
}

export interface Series extends SeriesFacts {
  /** Oldest first; periods the source reports as missing are left out. */
  observations: Observation[];
  /** Things the caller should be told in the summary (a code the source dropped, a dimension picked). */
  notes: string[];
}

export interface Candidates {
  candidates: SeriesFacts[];
  retrievedAt: string;
  /** Set when the source has nothing for such a query and asked nothing (BLS for another country than the US): it neither answered nor failed. */
  notApplicable?: true;
}

/** The answer of a source that has nothing for the query and asks nothing upstream. */
export const notApplicable = (): Candidates => ({ candidates: [], retrievedAt: new Date().toISOString(), notApplicable: true });

export interface FetchedSeries {
  series: Series;
  retrievedAt: string;
  /** Side requests that failed while the values came (the series' description, say): the answer is partial. */
  failures?: string[];
}

/** A side request whose failure leaves the series usable: its answer, or the failure's message saying what is missing. */
export async function optional<T>(run: () => Promise<T>, missing: string): Promise<{ value?: T; failure?: string }> {
  try {
    return { value: await run() };
  } catch (error) {
    if (!(error instanceof UpstreamError)) throw error;
    return { failure: `${error.message}; missing from the answer: ${missing}` };
  }
}

/** What find_series asks each source: the query as written, its topic and words without the country, and the country named. */
export interface SeriesSearch {
  query: string;
  topic: string;
  words: string[];
  country?: Country;
  limit: number;
}

/** What get_series asks one source: the id after `<source>:` and its dimension parts, the period and the country override. */
export interface SeriesRequest {
  id: string;
  dimensions: Record<string, string>;
  start?: string;
  end?: string;
  country?: Country;
}

/** The summary note for dimensions left open that had several codes: which code was taken. */
export function pickedNote(picked: Record<string, string>): string[] {
  const parts = Object.entries(picked).map(([id, code]) => `${id}=${code}`);
  return parts.length > 0 ? [`several series matched; picked ${parts.join(', ')}`] : [];
}

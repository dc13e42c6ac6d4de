/**
 * find_series: a plain question ("unemployment rate in Germany") → candidate series from every
 * selected source, searched in parallel. A country named in the query is recognised and narrows the
 * per-country sources; ranking puts exact title matches first, then the named country's series,
 * then the candidates of all sources ranked together by the one catalogue search
 * (../statistics/catalogue-index.ts) over their titles and datasets, and on a tie the sources' own
 * orders in turn, so that no source crowds out the others.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { FindSeriesArgs, FindSeriesData } from '../../generated/types.ts';
import { statisticsConnectors } from '../statistics/connectors.ts';
import { findCountry, type Country } from '../statistics/countries.ts';
import { indexOf } from '../statistics/catalogue-index.ts';
import { wordsOf } from '../statistics/matching.ts';
import type { StatisticsSource } from '../statistics/series-id.ts';
import type { Candidates, SeriesFacts } from '../statistics/series.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

interface Found {
  source: StatisticsSource;
  facts: SeriesFacts;
  retrievedAt: string;
}

const normalised = (text: string) => wordsOf(text).join(' ');

/** Exact title matches first, then the named country's series, then the one search's score, then round-robin over the sources' own orders. */
export function rank(lists: Array<{ source: StatisticsSource; value: Candidates }>, topic: string, country: Country | undefined): Found[] {
  const interleaved: Found[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.value.candidates.length));
  for (let index = 0; index < longest; index += 1) {
    for (const { source, value } of lists) {
      const facts = value.candidates[index];
      if (facts) interleaved.push({ source, facts, retrievedAt: value.retrievedAt });
    }
  }
  const wanted = normalised(topic);
  const exact = (found: Found) => {
    const title = country ? found.facts.title.replace(new RegExp(`,\\s*${country.name}$`), '') : found.facts.title;
    return wanted !== '' && normalised(title) === wanted ? 1 : 0;
  };
  const inCountry = (found: Found) => (country && found.facts.countryCode === country.iso3 ? 1 : 0);
  // A source's own order counts too: its first candidate weighs twice, its second 1.5 times, and so on.
  const ownPlace = new Map<string, number>();
  for (const { value } of lists) value.candidates.forEach((facts, place) => ownPlace.set(facts.seriesId, place));
  const boosts = new Map(interleaved.map((found, index) => [String(index), 1 + 1 / (1 + (ownPlace.get(found.facts.seriesId) ?? 0))]));
  const scores = new Map(
    indexOf(
      interleaved.map((found, index) => ({ id: String(index), title: found.facts.title, text: found.facts.dataset })),
      boosts,
    )
      .find(topic, interleaved.length)
      .map((match) => [Number(match.id), match.score]),
  );
  const score = (index: number) => scores.get(index) ?? 0;
  return interleaved
    .map((found, index) => ({ found, index }))
    .sort((a, b) => exact(b.found) - exact(a.found) || inCountry(b.found) - inCountry(a.found) || score(b.index) - score(a.index) || a.index - b.index)
    .map((entry) => entry.found);
}

export function candidateData(facts: SeriesFacts): FindSeriesData {
  return {
    series_id: facts.seriesId,
    description: facts.description,
    units: facts.units,
    frequency: facts.frequency,
    seasonal_adjustment: facts.seasonalAdjustment,
    geography: facts.geography,
    country_code: facts.countryCode,
    dataset: facts.dataset,
    start: facts.start,
    end: facts.end,
    last_updated: facts.lastUpdated,
  };
}

export const findSeries: ToolHandler<FindSeriesArgs, FindSeriesData, ToolContext> = async (args, context) => {
  const { country, rest } = findCountry(args.query);
  const search = { query: args.query, topic: rest || args.query, words: wordsOf(rest || args.query), country, limit: args.limit };
  const fan = await fanOut<Candidates>(
    args.sources.map((source) => ({ source, run: () => statisticsConnectors[source].search(context.upstream, search) })),
    (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
  );
  const lists = fan.answered.map(({ source, value }) => ({ source: source as StatisticsSource, value }));
  // A source that has nothing for such a query asked nothing: when every source that did ask failed, no source answered.
  const outcome = fan.failed.length > 0 && lists.every(({ value }) => value.notApplicable) ? { answered: [], failed: fan.failed } : fan;
  const ranked = rank(lists, search.topic, country).slice(0, args.limit);
  const records = ranked.map(({ source, facts, retrievedAt }) =>
    makeRecord<FindSeriesData>(context.upstream, source, {
      nativeId: facts.seriesId.slice(source.length + 1),
      type: 'series',
      title: facts.title,
      url: facts.url,
      retrievedAt,
      data: candidateData(facts),
    }),
  );
  const answered = lists
    .filter(({ value }) => !value.notApplicable)
    .map(({ source, value }) => `${source} (${value.candidates.length})`)
    .join(', ');
  const notAsked = lists.filter(({ value }) => value.notApplicable).map(({ source }) => source);
  const summary =
    `${count(records.length, 'series candidate')} for "${args.query}"${country ? ` (country: ${country.name})` : ''}; sources that answered: ${answered || 'none'}` +
    `${notAsked.length > 0 ? `; not asked, having no series for ${country ? country.name : 'a question without a country'}: ${notAsked.join(', ')}` : ''}.`;
  return assemble(outcome, records, summary);
};

/**
 * search_archives: the Library of Congress (newspaper pages with OCR text, photos, maps, manuscripts)
 * and Europeana, asked in parallel with the type and year filters pushed down; each source keeps its
 * own relevance order and the two lists are interleaved up to `limit`.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchArchivesArgs, SearchArchivesData, SourceId } from '../../generated/types.ts';
import * as europeana from '../connectors/europeana.ts';
import * as loc from '../connectors/loc.ts';
import type { ToolContext } from './context.ts';
import { assemble, count, fanOut, makeRecord } from './result.ts';

type Data = SearchArchivesData;
type Found = { total?: number; items: loc.ArchiveItem[]; retrievedAt: string };

const SEARCHES: Record<'loc' | 'europeana', (context: ToolContext, query: loc.ArchiveQuery) => Promise<Found>> = {
  loc: (context, query) => loc.searchItems(context.upstream, query),
  europeana: (context, query) => europeana.searchRecords(context.upstream, query),
};

/** First of each list, then second of each, … up to `limit`. */
function interleave<T>(lists: T[][], limit: number): T[] {
  const out: T[] = [];
  for (let index = 0; out.length < limit && lists.some((list) => index < list.length); index += 1) {
    for (const list of lists) if (index < list.length && out.length < limit) out.push(list[index]!);
  }
  return out;
}

export const searchArchives: ToolHandler<SearchArchivesArgs, Data, ToolContext> = async (args, context) => {
  const query: loc.ArchiveQuery = { query: args.query.trim(), type: args.type, dateFrom: args.date_from, dateTo: args.date_to, limit: args.limit };
  const fan = await fanOut(
    args.sources.map((source) => ({ source, run: () => SEARCHES[source](context, query) })),
    (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
    context.progress,
  );
  const lists = fan.answered.map(({ source, value }) =>
    value.items.map((item) =>
      makeRecord<Data>(context.upstream, source as SourceId, {
        nativeId: item.nativeId,
        type: 'archive_item',
        title: item.title,
        url: item.itemUrl,
        retrievedAt: value.retrievedAt,
        data: {
          item_type: item.itemType,
          date: item.date,
          year: item.year,
          place: item.place,
          creators: item.creators,
          description: item.description,
          snippet: item.snippet,
          rights: item.rights,
          thumbnail_url: item.thumbnailUrl,
          item_url: item.itemUrl,
          provider: item.provider,
          collection: item.collection,
          language: item.language,
        },
      }),
    ),
  );
  const records = interleave(lists, args.limit);
  const totals = fan.answered.map(({ source, value }) => `${source} ${value.total ?? value.items.length}`).join(', ');
  const kind = args.type === 'any' ? 'archive item' : `${args.type} item`;
  const years = args.date_from !== undefined || args.date_to !== undefined ? ` from ${args.date_from ?? '…'} to ${args.date_to ?? '…'}` : '';
  return assemble(fan, records, `${count(records.length, kind)} for "${query.query}"${years}${totals ? ` (matches: ${totals})` : ''}.`);
};

/**
 * search_datasets: the requested repositories asked in parallel, each in its own relevance order,
 * interleaved, then de-duplicated by DOI (case-insensitive): a dataset found by several sources (a
 * Zenodo record found again through DataCite) is one record, from the repository itself rather than
 * DataCite, naming every source in `found_in`, with fields it lacks filled from the others.
 */
import type { ToolHandler } from '../../generated/routes.ts';
import type { SearchDatasetsArgs, SearchDatasetsData } from '../../generated/types.ts';
import * as datacite from '../connectors/datacite.ts';
import type { Dataset, DatasetAnswer, DatasetSearch } from '../connectors/datasets.ts';
import * as dataverse from '../connectors/dataverse.ts';
import * as dryad from '../connectors/dryad.ts';
import * as huggingface from '../connectors/huggingface.ts';
import * as zenodo from '../connectors/zenodo.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { ToolContext } from './context.ts';
import { assemble, compact, count, fanOut, interleave, makeRecord } from './result.ts';

type DatasetSource = SearchDatasetsData['found_in'][number];

const searchers: Record<DatasetSource, (upstream: UpstreamClient, search: DatasetSearch) => Promise<DatasetAnswer>> = {
  zenodo: zenodo.searchRecords,
  dryad: dryad.searchDatasets,
  dataverse: dataverse.searchDatasets,
  huggingface: huggingface.searchDatasets,
  datacite: datacite.searchDois,
};

export interface MergedDataset {
  source: DatasetSource;
  dataset: Dataset;
  retrievedAt: string;
  foundIn: DatasetSource[];
}

/** The repositories before DataCite, which only indexes their DOIs: the record of a merged dataset comes from the first of its sources here. */
const PREFERENCE: readonly DatasetSource[] = ['zenodo', 'dryad', 'dataverse', 'huggingface', 'datacite'];

/**
 * Merges entries with the same DOI into one at the place of the first of them; the record is the
 * preferred source's, fields it lacks come from the others. Entries without a DOI stay apart.
 */
export function mergeByDoi(entries: Array<{ source: DatasetSource; dataset: Dataset; retrievedAt: string }>): MergedDataset[] {
  const merged: MergedDataset[] = [];
  const byDoi = new Map<string, MergedDataset>();
  for (const entry of entries) {
    const doi = entry.dataset.data.doi;
    const known = doi ? byDoi.get(doi) : undefined;
    if (!known) {
      const fresh = { ...entry, foundIn: [entry.source] };
      merged.push(fresh);
      if (doi) byDoi.set(doi, fresh);
      continue;
    }
    if (known.foundIn.includes(entry.source)) continue;
    known.foundIn = [...known.foundIn, entry.source].sort((a, b) => PREFERENCE.indexOf(a) - PREFERENCE.indexOf(b));
    const [primary, secondary] = PREFERENCE.indexOf(entry.source) < PREFERENCE.indexOf(known.source) ? [entry, known] : [known, entry];
    known.dataset = {
      ...compact(secondary.dataset),
      ...compact(primary.dataset),
      data: { ...compact(secondary.dataset.data), ...compact(primary.dataset.data) },
    };
    known.source = primary.source;
    known.retrievedAt = primary.retrievedAt;
  }
  return merged;
}

export const searchDatasets: ToolHandler<SearchDatasetsArgs, SearchDatasetsData, ToolContext> = async (args, context) => {
  const search: DatasetSearch = { query: args.query, limit: args.limit };
  const sources = args.sources as DatasetSource[];
  const fan = await fanOut(
    sources.map((source) => ({ source, run: () => searchers[source](context.upstream, search) })),
    (source, error) => context.logger.error({ err: error, source }, 'connector failed unexpectedly'),
    context.progress,
  );
  const lists = fan.answered.map(({ source, value }) =>
    value.datasets.map((dataset) => ({ source: source as DatasetSource, dataset, retrievedAt: value.retrievedAt })),
  );
  const merged = mergeByDoi(interleave(lists, Number.POSITIVE_INFINITY)).slice(0, args.limit);
  const records = merged.map(({ source, dataset, retrievedAt, foundIn }) =>
    makeRecord<SearchDatasetsData>(context.upstream, source, {
      nativeId: dataset.nativeId,
      type: 'dataset',
      title: dataset.title,
      url: dataset.url,
      retrievedAt,
      data: { ...dataset.data, found_in: foundIn },
    }),
  );
  const summary = `${count(records.length, 'dataset')} for "${args.query}" from ${fan.answered.map(({ source }) => source).join(', ') || 'no source'}, duplicates merged by DOI.`;
  return assemble(fan, records, summary);
};

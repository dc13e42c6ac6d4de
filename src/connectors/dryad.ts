/**
 * Dryad API v2 search (`/search?q=`, anonymous; the same HAL list as `/datasets`, items under
 * `_embedded["stash:datasets"]`). Identifiers are `doi:10.5061/…`; the storage size was
 * `storage_size` in 2020 and `storageSize` since; abstracts are HTML.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { bareDoi, DESCRIPTION_MAX, spdxLicense, yearOf, type Dataset, type DatasetAnswer, type DatasetSearch } from './datasets.ts';
import { arr, int, isoDate, nonEmpty, obj, plainText, shorten, str, strings } from './values.ts';

export const SOURCE = 'dryad' as const;
export const MAX_PER_PAGE = 100;

export function parseDataset(value: unknown): Dataset | undefined {
  const dataset = obj(value);
  const identifier = str(dataset.identifier);
  const doi = bareDoi(identifier);
  if (!identifier || !doi) return undefined;
  const publicationDate = isoDate(dataset.publicationDate);
  const version = int(dataset.versionNumber);
  return {
    nativeId: identifier.replace(/^doi:/i, ''),
    title: str(dataset.title),
    url: `https://datadryad.org/stash/dataset/${identifier}`,
    data: {
      doi,
      creators: nonEmpty(arr(dataset.authors).flatMap((author) => [str(author.firstName), str(author.lastName)].filter(Boolean).join(' ') || [])),
      year: yearOf(publicationDate),
      publication_date: publicationDate,
      repository: 'Dryad',
      description: shorten(plainText(dataset.abstract), DESCRIPTION_MAX),
      keywords: strings(dataset.keywords),
      size_bytes: int(dataset.storageSize ?? dataset.storage_size),
      dataset_license: spdxLicense(dataset.license),
      version: version !== undefined ? String(version) : str(dataset.versionNumber),
    },
  };
}

export function parseList(body: unknown): Dataset[] {
  const list = obj(obj(body)._embedded)['stash:datasets'];
  // A search without hits answers a list without the embedded array.
  if (list === undefined && typeof obj(body).total === 'number') return [];
  if (!Array.isArray(list)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a dataset list`);
  return list.flatMap((item) => parseDataset(item) ?? []);
}

export async function searchDatasets(upstream: UpstreamClient, search: DatasetSearch): Promise<DatasetAnswer> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/search',
    searchParams: { q: search.query, per_page: Math.min(search.limit, MAX_PER_PAGE), page: 1 },
  });
  return { datasets: parseList(answer.body), retrievedAt: answer.retrievedAt };
}

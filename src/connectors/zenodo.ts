/**
 * Zenodo records search (`/records?q=&type=dataset`, on InvenioRDM since October 2023 with the legacy
 * serializer kept): hits under `hits.hits`, descriptive fields under `metadata`, files listed with
 * their sizes. The licence is `metadata.license.id` (upper-case SPDX in 2022, lower-case or a plain
 * string since): normalised to SPDX.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { bareDoi, DESCRIPTION_MAX, spdxLicense, yearOf, type Dataset, type DatasetAnswer, type DatasetSearch } from './datasets.ts';
import { arr, int, isoDate, nonEmpty, num, obj, plainText, shorten, str, strings } from './values.ts';

export const SOURCE = 'zenodo' as const;
export const MAX_SIZE = 100;

export function parseRecord(value: unknown): Dataset | undefined {
  const record = obj(value);
  const id = int(record.id) ?? int(record.recid);
  if (id === undefined) return undefined;
  const metadata = obj(record.metadata);
  const files = arr(record.files);
  const sizes = files.flatMap((file) => num(file.size) ?? []);
  const formats = [...new Set(files.flatMap((file) => (str(file.type) ?? /\.([A-Za-z0-9]+)$/.exec(str(file.key) ?? '')?.[1])?.toLowerCase() ?? []))];
  const license = metadata.license;
  const publicationDate = isoDate(metadata.publication_date);
  return {
    nativeId: String(id),
    title: str(metadata.title),
    url: str(obj(record.links).html) ?? `https://zenodo.org/records/${id}`,
    data: {
      doi: bareDoi(record.doi ?? metadata.doi),
      creators: nonEmpty(arr(metadata.creators).flatMap((creator) => str(creator.name) ?? [])),
      year: yearOf(publicationDate),
      publication_date: publicationDate,
      repository: 'Zenodo',
      description: shorten(plainText(metadata.description), DESCRIPTION_MAX),
      keywords: strings(metadata.keywords),
      size_bytes: files.length > 0 && sizes.length === files.length ? sizes.reduce((sum, size) => sum + size, 0) : undefined,
      file_count: files.length > 0 ? files.length : undefined,
      formats: nonEmpty(formats),
      dataset_license: spdxLicense(typeof license === 'string' ? license : obj(license).id),
      version: str(metadata.version),
    },
  };
}

export function parseSearch(body: unknown): Dataset[] {
  const hits = obj(obj(body).hits).hits;
  if (!Array.isArray(hits)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a search without hits`);
  return hits.flatMap((hit) => parseRecord(hit) ?? []);
}

export async function searchRecords(upstream: UpstreamClient, search: DatasetSearch): Promise<DatasetAnswer> {
  const token = upstream.source(SOURCE).key;
  const answer = await upstream.getJson(SOURCE, {
    path: '/records',
    searchParams: { q: search.query, type: 'dataset', size: Math.min(search.limit, MAX_SIZE), page: 1, sort: 'bestmatch' },
    headers: token ? { authorization: `Bearer ${token}` } : undefined,
  });
  return { datasets: parseSearch(answer.body), retrievedAt: answer.retrievedAt };
}

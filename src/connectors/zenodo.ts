/**
 * Zenodo records search (`/records?q=&type=dataset`, on InvenioRDM since October 2023). Two
 * serializations of a hit are read: the legacy one (`application/json`: `doi`, `metadata.creators[].name`,
 * `metadata.license`, `files` a list) and InvenioRDM's own (`application/vnd.inveniordm.v1+json`:
 * `pids.doi.identifier`, `metadata.creators[].person_or_org.name`, `metadata.rights[]`,
 * `metadata.subjects[]`, `files.entries` an object keyed by file name). Licences are normalised to SPDX.
 * A page holds at most 25 hits: Zenodo answers 400 to a larger `size`.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { bareDoi, DESCRIPTION_MAX, spdxLicense, yearOf, type Dataset, type DatasetAnswer, type DatasetSearch } from './datasets.ts';
import { arr, int, isoDate, nonEmpty, num, obj, plainText, shorten, str, strings, type Json } from './values.ts';

export const SOURCE = 'zenodo' as const;
export const MAX_SIZE = 25;

/** The files of a hit: a list (legacy) or the values of `files.entries` (InvenioRDM). */
function filesOf(record: Json): Json[] {
  return Array.isArray(record.files) ? arr(record.files) : Object.values(obj(obj(record.files).entries)).map(obj);
}

/** The licence id: `metadata.license` (legacy, a string or `{id}`) or the first of `metadata.rights` (InvenioRDM). */
function licenseOf(metadata: Json): unknown {
  const license = metadata.license;
  if (typeof license === 'string') return license;
  return obj(license).id ?? arr(metadata.rights)[0]?.id;
}

const formatOf = (file: Json): string | undefined => (str(file.type) ?? str(file.ext) ?? /\.([A-Za-z0-9]+)$/.exec(str(file.key) ?? '')?.[1])?.toLowerCase();

export function parseRecord(value: unknown): Dataset | undefined {
  const record = obj(value);
  const id = int(record.id) ?? int(record.recid);
  if (id === undefined) return undefined;
  const metadata = obj(record.metadata);
  const links = obj(record.links);
  const files = filesOf(record);
  const sizes = files.flatMap((file) => num(file.size) ?? []);
  const formats = [...new Set(files.flatMap((file) => formatOf(file) ?? []))];
  const publicationDate = isoDate(metadata.publication_date);
  return {
    nativeId: String(id),
    title: str(metadata.title),
    url: str(links.html) ?? str(links.self_html) ?? `https://zenodo.org/records/${id}`,
    data: {
      doi: bareDoi(record.doi ?? metadata.doi ?? obj(obj(record.pids).doi).identifier),
      creators: nonEmpty(arr(metadata.creators).flatMap((creator) => str(creator.name) ?? str(obj(creator.person_or_org).name) ?? [])),
      year: yearOf(publicationDate),
      publication_date: publicationDate,
      repository: 'Zenodo',
      description: shorten(plainText(metadata.description), DESCRIPTION_MAX),
      keywords: strings(metadata.keywords) ?? strings(arr(metadata.subjects).map((subject) => subject.subject)),
      size_bytes: files.length > 0 && sizes.length === files.length ? sizes.reduce((sum, size) => sum + size, 0) : undefined,
      file_count: files.length > 0 ? files.length : undefined,
      formats: nonEmpty(formats),
      dataset_license: spdxLicense(licenseOf(metadata)),
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

/**
 * DataCite REST API (`/dois?query=&resource-type-id=dataset`, JSON:API): DOIs registered by any
 * repository, so a Zenodo or Dryad dataset is found here again under the same DOI. `publisher` is a
 * string (or an object with `name` in newer answers); licences are in `rightsList`
 * (`rightsIdentifier` or a `rightsUri`).
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { bareDoi, DESCRIPTION_MAX, spdxLicense, type Dataset, type DatasetAnswer, type DatasetSearch } from './datasets.ts';
import { arr, int, nonEmpty, obj, plainText, shorten, str, strings } from './values.ts';

export const SOURCE = 'datacite' as const;
export const MAX_PAGE_SIZE = 100;

/** A size such as "23874866 bytes" or "1234 B" in bytes; undefined for "12 MB", "3 files" and the like. */
export function bytesOf(sizes: unknown): number | undefined {
  for (const size of strings(sizes) ?? []) {
    const match = /^(\d+)\s*(?:bytes?|B)$/i.exec(size);
    if (match) return Number(match[1]);
  }
  return undefined;
}

export function parseDoi(value: unknown): Dataset | undefined {
  const item = obj(value);
  const attributes = obj(item.attributes);
  const nativeId = str(attributes.doi) ?? str(item.id);
  if (!nativeId) return undefined;
  const descriptions = arr(attributes.descriptions);
  const description = descriptions.find((entry) => entry.descriptionType === 'Abstract') ?? descriptions[0];
  const issued = arr(attributes.dates).find((date) => date.dateType === 'Issued' && /^\d{4}-\d{2}-\d{2}$/.test(str(date.date) ?? ''));
  const rights = arr(attributes.rightsList).flatMap((entry) => spdxLicense(entry.rightsIdentifier) ?? spdxLicense(entry.rightsUri) ?? []);
  return {
    nativeId,
    title: str(obj(arr(attributes.titles)[0]).title),
    url: str(attributes.url) ?? `https://doi.org/${nativeId}`,
    data: {
      doi: bareDoi(nativeId),
      creators: nonEmpty(arr(attributes.creators).flatMap((creator) => str(creator.name) ?? [])),
      year: int(attributes.publicationYear),
      publication_date: str(issued?.date),
      repository: str(attributes.publisher) ?? str(obj(attributes.publisher).name),
      description: shorten(plainText(description?.description), DESCRIPTION_MAX),
      keywords: nonEmpty([...new Set(arr(attributes.subjects).flatMap((subject) => str(subject.subject) ?? []))]),
      size_bytes: bytesOf(attributes.sizes),
      formats: strings(attributes.formats),
      dataset_license: rights[0],
      version: str(attributes.version),
    },
  };
}

export function parseDois(body: unknown): Dataset[] {
  const data = obj(body).data;
  if (!Array.isArray(data)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a data list`);
  return data.flatMap((item) => parseDoi(item) ?? []);
}

export async function searchDois(upstream: UpstreamClient, search: DatasetSearch): Promise<DatasetAnswer> {
  const answer = await upstream.getJson(SOURCE, {
    path: '/dois',
    searchParams: {
      query: search.query,
      'resource-type-id': 'dataset',
      'page[size]': Math.min(search.limit, MAX_PAGE_SIZE),
      'page[number]': 1,
      // Identified requests get a higher limit; the address is in the User-Agent too.
      mailto: upstream.contactEmail,
    },
  });
  return { datasets: parseDois(answer.body), retrievedAt: answer.retrievedAt };
}

/**
 * Hugging Face Hub dataset listing (`/datasets?search=`): a bare JSON array, no total. Licence, formats,
 * task categories and a DOI come as prefixed tags (`license:mit`, `format:parquet`,
 * `task_categories:…`, `doi:10.57967/hf/…`). `createdAt` is a placeholder (2022-03-02T23:29:04.000Z)
 * for repositories older than the Hub's creation dates: no year is taken from it. No recording exists.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { bareDoi, DESCRIPTION_MAX, spdxLicense, yearOf, type Dataset, type DatasetAnswer, type DatasetSearch } from './datasets.ts';
import { isoDate, nonEmpty, obj, shorten, str, strings } from './values.ts';

export const SOURCE = 'huggingface' as const;
export const PLACEHOLDER_CREATED_AT = '2022-03-02T23:29:04.000Z';

export function parseDataset(value: unknown): Dataset | undefined {
  const dataset = obj(value);
  const id = str(dataset.id);
  if (!id) return undefined;
  const tags = strings(dataset.tags) ?? [];
  const tagged = (prefix: string) => tags.flatMap((tag) => (tag.startsWith(`${prefix}:`) ? tag.slice(prefix.length + 1) : []));
  const createdAt = str(dataset.createdAt);
  const publicationDate = createdAt && createdAt !== PLACEHOLDER_CREATED_AT ? isoDate(createdAt) : undefined;
  const author = str(dataset.author);
  return {
    nativeId: id,
    title: id,
    url: `https://huggingface.co/datasets/${id}`,
    data: {
      doi: bareDoi(tagged('doi')[0]),
      creators: author ? [author] : undefined,
      year: yearOf(publicationDate),
      publication_date: publicationDate,
      repository: 'Hugging Face Hub',
      description: shorten(str(dataset.description)?.replace(/\s+/g, ' '), DESCRIPTION_MAX),
      keywords: nonEmpty([...tagged('task_categories'), ...tags.filter((tag) => !tag.includes(':'))]),
      formats: nonEmpty(tagged('format')),
      dataset_license: spdxLicense(tagged('license')[0] ?? obj(dataset.cardData).license),
    },
  };
}

export function parseList(body: unknown): Dataset[] {
  if (!Array.isArray(body)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered without a list of datasets`);
  return body.flatMap((item) => parseDataset(item) ?? []);
}

export async function searchDatasets(upstream: UpstreamClient, search: DatasetSearch): Promise<DatasetAnswer> {
  const token = upstream.source(SOURCE).key;
  const answer = await upstream.getJson(SOURCE, {
    path: '/datasets',
    searchParams: { search: search.query, limit: search.limit },
    headers: token ? { authorization: `Bearer ${token}` } : undefined,
  });
  return { datasets: parseList(answer.body), retrievedAt: answer.retrievedAt };
}

/**
 * Dataverse Search API (`/search?q=&type=dataset`; Harvard Dataverse by default). Answers are
 * `{"status":"OK","data":{"items":[…]}}`; failures `{"status":"ERROR","message"}`, also checked on a
 * 200 answer. Search results carry no licence.
 */
import type { UpstreamClient } from '../upstream/client.ts';
import { UpstreamError } from '../upstream/errors.ts';
import { bareDoi, DESCRIPTION_MAX, yearOf, type Dataset, type DatasetAnswer, type DatasetSearch } from './datasets.ts';
import { arr, int, isoDate, obj, plainText, shorten, str, strings } from './values.ts';

export const SOURCE = 'dataverse' as const;
export const REPOSITORY = 'Harvard Dataverse';

/** Throws the failure of a `{"status":"ERROR"}` answer; called before the answer is cached. */
export function refuseError(body: unknown): void {
  const answer = obj(body);
  if (answer.status !== undefined && answer.status !== 'OK')
    throw new UpstreamError(SOURCE, 'http_error', `${SOURCE} answered with an error: ${str(answer.message) ?? String(answer.status)}`);
}

export function parseItem(value: unknown): Dataset | undefined {
  const item = obj(value);
  const globalId = str(item.global_id);
  if (item.type !== 'dataset' || !globalId) return undefined;
  const publicationDate = isoDate(item.published_at);
  const [major, minor] = [int(item.majorVersion), int(item.minorVersion)];
  return {
    nativeId: globalId,
    title: str(item.name),
    url: str(item.url),
    data: {
      doi: /^doi:/i.test(globalId) ? bareDoi(globalId) : undefined,
      creators: strings(item.authors),
      year: yearOf(publicationDate),
      publication_date: publicationDate,
      repository: REPOSITORY,
      description: shorten(plainText(item.description), DESCRIPTION_MAX),
      keywords: strings(item.keywords) ?? strings(item.subjects),
      file_count: int(item.fileCount),
      version: major !== undefined && minor !== undefined ? `${major}.${minor}` : undefined,
    },
  };
}

export function parseSearch(body: unknown): Dataset[] {
  refuseError(body);
  const items = obj(obj(body).data).items;
  if (!Array.isArray(items)) throw new UpstreamError(SOURCE, 'bad_body', `${SOURCE} answered a search without items`);
  return arr(items).flatMap((item) => parseItem(item) ?? []);
}

export async function searchDatasets(upstream: UpstreamClient, search: DatasetSearch): Promise<DatasetAnswer> {
  const answer = await upstream.getJson(
    SOURCE,
    { path: '/search', searchParams: { q: search.query, type: 'dataset', per_page: search.limit, start: 0 } },
    refuseError,
  );
  return { datasets: parseSearch(answer.body), retrievedAt: answer.retrievedAt };
}

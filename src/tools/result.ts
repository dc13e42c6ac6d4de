/**
 * Result assembly shared by the tools that ask upstream sources: records of spec part 2.3, the
 * fan-out over sources with `partial`/`failedSources` of part 2.2 and rule 7.2, and the one 502
 * upstream_error when no source answered.
 */
import type { SourceId, ToolOutcome, ToolRecord } from '../../generated/types.ts';
import { ApiError } from '../errors.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import type { ProgressReporter } from './context.ts';
import { UpstreamError } from '../upstream/errors.ts';

/** A copy without the keys whose value is undefined or null: fields that do not apply are omitted. */
export function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined && field !== null)) as T;
}

export interface RecordParts<Data> {
  nativeId: string;
  type: string;
  title?: string;
  url?: string;
  retrievedAt: string;
  data: Data;
}

/** One record: id `<source>:<native id>`, licence and attribution from the source's manifest entry. */
export function makeRecord<Data extends object>(upstream: UpstreamClient, source: SourceId, parts: RecordParts<Data>): ToolRecord<Data> {
  const meta = upstream.source(source);
  return compact({
    id: `${source}:${parts.nativeId}`,
    type: parts.type,
    source,
    title: parts.title,
    url: parts.url,
    license: meta.license,
    attribution: meta.attribution,
    retrievedAt: parts.retrievedAt,
    data: compact(parts.data),
  }) as ToolRecord<Data>;
}

export interface SourceCall<T> {
  source: SourceId;
  run: () => Promise<T>;
}

export interface FanOut<T> {
  answered: Array<{ source: SourceId; value: T }>;
  /** `retryAfterS`: the wait the source asked for, when it said (never shown in failedSources). */
  failed: Array<{ source: SourceId; error: string; retryAfterS?: number }>;
}

/** Message for a failure: an UpstreamError's own words, anything else a generic line (details go to the log). */
export function describeFailure(source: SourceId, error: unknown): string {
  if (error instanceof UpstreamError) return error.message;
  if (error instanceof ApiError) return error.message;
  return `${source} gave an answer that could not be read`;
}

/** Calls the sources in parallel; each answers or fails on its own, and each one done is reported to `progress`. */
export async function fanOut<T>(
  calls: Array<SourceCall<T>>,
  onUnexpected?: (source: SourceId, error: unknown) => void,
  progress?: ProgressReporter,
): Promise<FanOut<T>> {
  let done = 0;
  const report = (source: SourceId, outcome: string) => {
    done += 1;
    progress?.(done, calls.length, `${source} ${outcome} (${done} of ${count(calls.length, 'source')})`);
  };
  const settled = await Promise.allSettled(
    calls.map((call) =>
      call.run().then(
        (value) => (report(call.source, 'answered'), value),
        (error: unknown) => (report(call.source, 'failed'), Promise.reject(error)),
      ),
    ),
  );
  const result: FanOut<T> = { answered: [], failed: [] };
  settled.forEach((outcome, index) => {
    const source = calls[index]!.source;
    if (outcome.status === 'fulfilled') result.answered.push({ source, value: outcome.value });
    else {
      if (!(outcome.reason instanceof UpstreamError)) onUnexpected?.(source, outcome.reason);
      const retryAfterMs = outcome.reason instanceof UpstreamError ? outcome.reason.retryAfterMs : undefined;
      result.failed.push({
        source,
        error: describeFailure(source, outcome.reason),
        ...(retryAfterMs !== undefined ? { retryAfterS: Math.ceil(retryAfterMs / 1000) } : {}),
      });
    }
  });
  return result;
}

/**
 * One fan-out from items that were each checked against several sources (references, DOIs): a
 * source answered when it answered for at least one item; one that failed for some items is named
 * with how many (`… (for 3 DOIs of 10)`), one that failed for all with its own reason.
 */
export function fanOutOfItems<S extends SourceId>(items: Array<{ failed: Partial<Record<S, string>> }>, sources: readonly S[], noun: string): FanOut<unknown> {
  const fan: FanOut<unknown> = { answered: [], failed: [] };
  for (const source of sources) {
    const failures = items.filter((item) => item.failed[source] !== undefined);
    if (failures.length < items.length) fan.answered.push({ source, value: undefined });
    if (failures.length > 0) {
      const error = failures[0]!.failed[source]!;
      fan.failed.push({ source, error: failures.length === items.length ? error : `${error} (for ${count(failures.length, noun)} of ${items.length})` });
    }
  }
  return fan;
}

/** Throws the 502 when nothing answered; otherwise the outcome, partial when some sources failed. */
export function assemble<Data>(fan: FanOut<unknown>, records: Array<ToolRecord<Data>>, summary: string): ToolOutcome<Data> {
  if (fan.answered.length === 0) {
    const reasons = fan.failed.map((failure) => failure.error).join('; ');
    // When every source said how long to wait, the caller is told too (Retry-After and retry_after_s).
    const waits = fan.failed.map((failure) => failure.retryAfterS);
    const retryAfter = waits.length > 0 && waits.every((wait) => wait !== undefined) ? { 'Retry-After': String(Math.max(...(waits as number[]))) } : undefined;
    throw new ApiError('upstream_error', `no source answered: ${reasons}`, retryAfter);
  }
  const outcome: ToolOutcome<Data> = { summary, records };
  if (fan.failed.length > 0) {
    outcome.partial = true;
    outcome.failedSources = fan.failed.map(({ source, error }) => ({ source, error }));
  }
  return outcome;
}

/** "1 earthquake" / "3 earthquakes". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** Round-robin over lists (each kept in its own order): the first of each, then the second of each, …; at most `limit`. */
export function interleave<T>(lists: T[][], limit: number): T[] {
  const merged: T[] = [];
  for (let index = 0; merged.length < limit && lists.some((list) => index < list.length); index += 1) {
    for (const list of lists) if (index < list.length && merged.length < limit) merged.push(list[index]!);
  }
  return merged;
}

/**
 * The one HTTP layer every connector uses (connectors never call got themselves): base URL and key
 * per source, per-attempt timeout, retries with backoff on 429/5xx/network errors that honour
 * Retry-After within a bounded total time, per host-group pacing, a polite User-Agent, gzip, a
 * response cache with the source's TTL, and single-flight of identical concurrent requests.
 * Reads are bounded: a body is counted while it streams (after decompression) and refused past the
 * source's max_body_bytes; a redirect to another host is never followed, one to the same host only
 * for sources whose manifest entry allows it (same_host_redirects). Neither failure is retried.
 * Each source's budget is counted before a request is sent (./budgets.ts), and each request with its
 * retries runs through the circuit breaker of the host it asks (./breakers.ts); both are asked only for what the
 * cache could not answer.
 */
import { createHash } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import { StringDecoder } from 'node:string_decoder';
import got, { type PlainResponse, type Request } from 'got';
import type { Logger } from 'pino';
import packageJson from '../../package.json' with { type: 'json' };
import type { RequestKindOf, SourceId } from '../../generated/types.ts';
import type { Config } from '../config.ts';
import { cancelledError, untilCancelled } from '../cancellation.ts';
import { ApiError } from '../errors.ts';
import { bodySnippet, isHtml, reasonFromBody } from './body.ts';
import { createResponseCache, ORDINARY, type AnswerFacts, type CachedAnswer, type Keeping, type ResponseCache } from './cache.ts';
import { UpstreamError } from './errors.ts';
import { parseJsonKeepingBigIntegers } from './json.ts';
import { realClock, type Clock } from '../clock.ts';
import { HostGroupLimiter } from './limits.ts';
import { hostGroupKeyed, hostGroupLimit, resolveSource, variableId, type ResolvedSource } from './sources.ts';
import { Breakers, DEFAULT_BREAKER, type BreakerSettings } from './breakers.ts';
import { AnswerRecorder } from './recorder.ts';
import { Budgets } from './budgets.ts';
import { MemoryUpstreamState, type SharedUpstreamState } from './shared-state/index.ts';
import { metrics } from '../metrics.ts';

export const PRODUCT = 'research-tools-api';

/** A request that was to go upstream for a call whose credits were refused (UpstreamClient.forCall); carries the refusal. */
class NotAdmitted extends Error {
  constructor(
    readonly admission: Promise<void>,
    readonly reason: unknown,
  ) {
    super('the call was not admitted');
  }
}

/** A request of a call that was cancelled (UpstreamClient.forCall): dropped from its queue, or cut off, and never sent again. */
class CallCancelled extends Error {
  constructor(readonly signal: AbortSignal) {
    super('the call was cancelled');
  }
}

/** What the taker of a streamed read threw: passed on as it is, never taken for a failure of the source. */
class TakerFailed extends Error {
  constructor(readonly reason: unknown) {
    super('the taker of a streamed read failed');
  }
}

/** A streamed read under way (UpstreamClient.readText): where its pieces go, and whether any went yet. */
interface StreamedRead {
  take: (piece: string) => Promise<void>;
  /** The body's bytes as they arrive, for the shared cache. */
  keep?: (chunk: Buffer) => void;
  /** Set once a piece was handed over: from then on a failure is not retried (the taker holds part of the answer). */
  started: boolean;
}

export interface UpstreamRequest<S extends SourceId = SourceId> {
  /** Path after the source's base URL, beginning with `/` (or '' for the base URL itself); identifiers in it go through path`…` (./path.ts). */
  path: string;
  /** Query parameters; URLSearchParams where a parameter repeats (GBIF's license=…&license=…). */
  searchParams?: Record<string, string | number | undefined> | URLSearchParams;
  /** Query text sent exactly as written after the parameters: for a value the upstream reads only unencoded (IMF's `c[TIME_PERIOD]=ge:…+le:…`). Never from a caller's input unchecked. */
  rawQuery?: string;
  method?: 'GET' | 'POST';
  /** Form fields of a POST (application/x-www-form-urlencoded). */
  form?: Record<string, string>;
  /** JSON body of a POST (NIH RePORTER's search takes its criteria this way). */
  json?: unknown;
  headers?: Record<string, string>;
  /** How the source takes its key: a query parameter or a header. Required-key sources fail without one. */
  key?: { query: string } | { header: string };
  /** A second host of the same source (RCSB's search host beside its data host), used instead of the base URL; limits, cache and errors stay the source's. */
  baseUrl?: string;
  /** What the request costs against the source's budget: one of the kinds tools.yaml declares for it (`budget.kinds`); untagged, it counts as the dearest. */
  kind?: RequestKindOf<S>;
  /**
   * A larger body cap than the source's, for this request only (a catalogue read whole); never
   * smaller. Such an answer is cached in the shared cache only, never in this process's memory (./cache.ts).
   */
  maxBodyBytes?: number;
}

export interface Fetched<T> {
  body: T;
  /** When the upstream answered (ISO 8601 UTC with ms); a cached answer keeps its original time. */
  retrievedAt: string;
  fromCache: boolean;
  /** The address asked (without the key), for logs and error messages. */
  url: string;
}

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** First backoff delay; doubled per attempt, with jitter, when the upstream gives no Retry-After. */
  baseDelayMs: number;
  /** Total time allowed for one request with all its attempts and waits, as a multiple of the source's timeout. */
  totalTimeoutFactor: number;
}

export interface UpstreamOptions {
  sources: Config['sources'];
  contactEmail?: string;
  cache?: ResponseCache;
  logger?: Logger;
  retry?: Partial<RetryPolicy>;
  /** Pacing per host group; made on `clock` unless given. */
  limiter?: HostGroupLimiter;
  /** Deadlines, retry delays and pacing waits; tests give one that does not wait. */
  clock?: Clock;
  /** Where budgets are counted and source statuses kept across processes; this process's memory unless given. */
  shared?: SharedUpstreamState;
  /** When a source's circuit breaker opens, and for how long. */
  breaker?: BreakerSettings;
  /** Writes every answer an upstream gives to a folder, for tests (UPSTREAM_RECORD_DIR): ./recorder.ts. */
  recorder?: AnswerRecorder;
}

const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 3, baseDelayMs: 250, totalTimeoutFactor: 2 };
const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);

type Decoder<T> = (answer: CachedAnswer, source: ResolvedSource) => T;

/** A request made ready to send: its address with the key, body, headers, the address shown in messages, and its budget kind. */
interface PreparedCall {
  url: string;
  method: 'GET' | 'POST';
  form?: Record<string, string>;
  json?: unknown;
  headers: Record<string, string>;
  shownUrl: string;
  kind?: string;
  maxBodyBytes: number;
  keeping: Keeping;
  /** Set for a streamed read: a success's body goes to it piece by piece instead of being kept. */
  streamed?: StreamedRead;
}

export class UpstreamClient {
  readonly contactEmail: string | undefined;
  readonly userAgent: string;
  private readonly sources = new Map<SourceId, ResolvedSource>();
  private readonly inFlight = new Map<string, Promise<CachedAnswer & { fromCache: boolean }>>();
  private readonly limiter: HostGroupLimiter;
  private readonly retry: RetryPolicy;
  private readonly cache: ResponseCache;
  private readonly clock: Clock;
  private readonly http = got.extend({
    retry: { limit: 0 },
    throwHttpErrors: false,
    decompress: true,
  });
  /** Set on a call's view (forCall): what a request not answered from the cache waits for. */
  private admission: Promise<void> | undefined;
  readonly budgets: Budgets;
  readonly breakers: Breakers;
  readonly shared: SharedUpstreamState;
  /** Set on a call's view (forCall): once aborted, the call's requests are dropped and no new one is sent. */
  private signal: AbortSignal | undefined;

  constructor(private readonly options: UpstreamOptions) {
    this.contactEmail = options.contactEmail;
    this.userAgent = `${PRODUCT}/${packageJson.version} (research lookup service${options.contactEmail ? `; mailto:${options.contactEmail}` : ''})`;
    this.cache = options.cache ?? createResponseCache(undefined);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.clock = options.clock ?? realClock;
    this.limiter = options.limiter ?? new HostGroupLimiter((group) => hostGroupLimit(group, hostGroupKeyed(group, options.sources)), this.clock);
    this.shared = options.shared ?? new MemoryUpstreamState();
    this.budgets = new Budgets(this.shared, this.clock, options.logger);
    this.breakers = new Breakers(options.breaker ?? DEFAULT_BREAKER, this.shared, options.logger);
  }

  /**
   * This client as one call sees it while its credits are still being held: an answer from the
   * cache comes at once, but a request that has to go upstream first waits for `admission`, and
   * fails with its error when it rejects. Once `signal` aborts (the call was cancelled), the call's
   * requests waiting for their turn are dropped, the ones under way are cut off, and nothing more
   * is sent. The view shares everything else (cache, limits, single-flight) with this client.
   */
  forCall(admission: Promise<void> | undefined, signal?: AbortSignal): UpstreamClient {
    const view = Object.create(this) as UpstreamClient;
    view.admission = admission;
    view.signal = signal;
    // Each request of the call waiting or under way listens to the signal: many at once is expected.
    if (signal) setMaxListeners(0, signal);
    return view;
  }

  /**
   * This client as its call sees it, but never cut off by the call's cancellation: for work that
   * other calls share and that may outlive the call (a catalogue read, its refresh in the
   * background). The call's admission still gates what it sends upstream.
   */
  withoutCancellation(): UpstreamClient {
    if (!this.signal) return this;
    const view = Object.create(this) as UpstreamClient;
    view.signal = undefined;
    return view;
  }

  source(id: SourceId): ResolvedSource {
    let resolved = this.sources.get(id);
    if (!resolved) {
      resolved = resolveSource(id, this.options.sources);
      this.sources.set(id, resolved);
    }
    return resolved;
  }

  /**
   * A JSON answer; integers beyond the safe range arrive as decimal strings. 204 gives null.
   * `refuse` throws on an error sent with status 200 (NSF's notices), so such a body is never cached.
   */
  getJson<T = unknown, S extends SourceId = SourceId>(id: S, request: UpstreamRequest<S>, refuse?: (body: unknown) => void): Promise<Fetched<T>> {
    return this.fetch(id, request, (answer, source) => {
      const body = decodeJson(answer, source);
      refuse?.(body);
      return body as T;
    });
  }

  /** A text answer (CSV, XML, plain text); HTML pages are refused. */
  getText<S extends SourceId = SourceId>(id: S, request: UpstreamRequest<S>): Promise<Fetched<string>> {
    return this.fetch(id, request, (answer, source) => {
      if (isHtml(answer.contentType, answer.body)) {
        throw new UpstreamError(source.id, 'bad_body', `${source.id} answered with an HTML page instead of data`);
      }
      return answer.body;
    });
  }

  async close(): Promise<void> {
    await Promise.all([this.cache.close(), this.shared.close()]);
  }

  /**
   * A large text answer (a catalogue list) handed to `take` piece by piece as it arrives, never
   * held whole: kept in the shared cache as it passes and read back from there in pieces
   * (./cache.ts; without Redis it is not cached). Asked through the same budgets, limits, breaker
   * and retries as any request, but retried only until its first piece is handed over: a failure
   * after that fails the read, as `take` holds part of the answer. An HTML page is refused before
   * any piece. What `take` throws is thrown as it is.
   */
  async readText<S extends SourceId = SourceId>(
    id: S,
    request: UpstreamRequest<S> & { maxBodyBytes: number },
    take: (piece: string) => void | Promise<void>,
  ): Promise<Omit<Fetched<never>, 'body'>> {
    if (this.signal?.aborted) throw cancelledError();
    const source = this.source(id);
    const { url, form, json, headers, shownUrl } = this.prepare(source, request);
    const method = request.method ?? (form || json !== undefined ? 'POST' : 'GET');
    const cacheKey = cacheKeyOf(source, method, url, form, json);
    const taking = async (piece: string) => {
      try {
        await take(piece);
      } catch (error) {
        throw new TakerFailed(error);
      }
    };
    const pieces = source.cacheTtlS > 0 ? this.cache.pieces : undefined;
    try {
      let cached: AnswerFacts | undefined;
      try {
        cached = await pieces?.read(cacheKey, taking);
      } catch (error) {
        if (error instanceof TakerFailed) throw error;
        throw new UpstreamError(source.id, 'network', `${source.id}: the shared cache broke off while this answer was read from it`);
      }
      metrics.cacheLookup(source.id, cached !== undefined);
      if (cached) return { retrievedAt: cached.retrievedAt, fromCache: true, url: shownUrl };
      const admission = this.admission;
      if (admission) await admission.catch((reason: unknown) => Promise.reject(new NotAdmitted(admission, reason)));
      const writer = pieces?.writer(cacheKey, source.cacheTtlS);
      const streamed: StreamedRead = { take: taking, keep: writer && ((chunk) => writer.append(chunk)), started: false };
      const maxBodyBytes = Math.max(source.maxBodyBytes, request.maxBodyBytes);
      const call: PreparedCall = { url, method, form, json, headers, shownUrl, kind: request.kind, maxBodyBytes, keeping: ORDINARY, streamed };
      try {
        const answer = await this.requested(source, call);
        await writer?.commit({ status: answer.status, contentType: answer.contentType, retrievedAt: answer.retrievedAt });
        return { retrievedAt: answer.retrievedAt, fromCache: false, url: shownUrl };
      } catch (error) {
        await writer?.abort();
        throw error;
      }
    } catch (error) {
      if (error instanceof TakerFailed) throw error.reason;
      if (error instanceof CallCancelled) throw cancelledError();
      if (error instanceof NotAdmitted) throw error.reason;
      throw keyHidden(source, error);
    }
  }

  private async fetch<T, S extends SourceId>(id: S, request: UpstreamRequest<S>, decode: Decoder<T>): Promise<Fetched<T>> {
    if (this.signal?.aborted) throw cancelledError();
    const source = this.source(id);
    const { url, form, json, headers, shownUrl } = this.prepare(source, request);
    const method = request.method ?? (form || json !== undefined ? 'POST' : 'GET');
    const cacheKey = cacheKeyOf(source, method, url, form, json);

    let pending = this.inFlight.get(cacheKey);
    if (!pending) {
      const maxBodyBytes = Math.max(source.maxBodyBytes, request.maxBodyBytes ?? 0);
      const keeping: Keeping = maxBodyBytes > source.maxBodyBytes ? { large: true, maxBytes: maxBodyBytes } : ORDINARY;
      pending = this.answer(source, cacheKey, { url, method, form, json, headers, shownUrl, decode, kind: request.kind, maxBodyBytes, keeping });
      this.inFlight.set(cacheKey, pending);
      void pending.then(
        () => this.inFlight.delete(cacheKey),
        () => this.inFlight.delete(cacheKey),
      );
    }
    try {
      const answer = await untilCancelled(pending, this.signal);
      return { body: decode(answer, source), retrievedAt: answer.retrievedAt, fromCache: answer.fromCache, url: shownUrl };
    } catch (error) {
      if (error instanceof CallCancelled) {
        if (error.signal === this.signal) throw cancelledError();
        // The request was joined to another call's, which was cancelled: this call asks for itself.
        return this.fetch(id, request, decode);
      }
      if (error instanceof NotAdmitted) {
        if (error.admission === this.admission) throw error.reason;
        // The request was joined to another call's, which was not admitted: this call asks for itself.
        return this.fetch(id, request, decode);
      }
      throw keyHidden(source, error);
    }
  }

  private prepare(source: ResolvedSource, request: UpstreamRequest) {
    const url = withinBase(source, (request.baseUrl ?? source.baseUrl).replace(/\/+$/, ''), request.path);
    const shown = new URL(url);
    const parameters = request.searchParams instanceof URLSearchParams ? [...request.searchParams] : Object.entries(request.searchParams ?? {});
    for (const [name, value] of parameters) {
      if (value === undefined) continue;
      url.searchParams.append(name, String(value));
      shown.searchParams.append(name, String(value));
    }
    if (request.rawQuery) {
      for (const target of [url, shown]) target.search = target.search ? `${target.search}&${request.rawQuery}` : `?${request.rawQuery}`;
    }
    const headers: Record<string, string> = { 'user-agent': this.userAgent, accept: 'application/json, text/plain;q=0.9, */*;q=0.8', ...request.headers };
    if (request.key) {
      if (!source.key) {
        if (source.keyNeed === 'required') {
          throw new UpstreamError(source.id, 'not_configured', `${source.id} needs an API key: set ${`SOURCE_${variableId(source.id)}_KEY`}`);
        }
      } else if ('query' in request.key) url.searchParams.set(request.key.query, source.key);
      else headers[request.key.header.toLowerCase()] = source.key;
    }
    return { url: url.toString(), form: request.form, json: request.json, headers, shownUrl: shown.toString() };
  }

  /** The cached answer, or one fetched from upstream (then cached) — validated by `decode` before caching. */
  private async answer<T>(
    source: ResolvedSource,
    cacheKey: string,
    call: PreparedCall & { decode: Decoder<T> },
  ): Promise<CachedAnswer & { fromCache: boolean }> {
    const cached = await this.cache.get(cacheKey, call.keeping);
    metrics.cacheLookup(source.id, cached !== undefined);
    if (cached) return { ...cached, fromCache: true };
    const admission = this.admission;
    if (admission) await admission.catch((reason: unknown) => Promise.reject(new NotAdmitted(admission, reason)));
    const fresh = await this.requested(source, call);
    call.decode(fresh, source); // a body that does not decode is an error, and is never cached
    await this.cache.set(cacheKey, fresh, source.cacheTtlS, call.keeping);
    return { ...fresh, fromCache: false };
  }

  /**
   * One request with its retries, through the circuit breaker of the host it asks: the source's, or its own for another host
   * (./breakers.ts). A probe of a breaker that was open is one attempt: it asks whether the host is back, nothing more.
   */
  private requested(source: ResolvedSource, call: PreparedCall): Promise<CachedAnswer> {
    const otherHost = otherHostOf(source, call.url);
    return this.breakers.run(source.id, (probe) => this.withRetries(source, call, otherHost, this.signal, probe ? 1 : undefined), otherHost);
  }

  private async withRetries(
    source: ResolvedSource,
    call: PreparedCall,
    otherHost: string | undefined,
    signal: AbortSignal | undefined,
    maxAttempts = this.retry.maxAttempts,
  ): Promise<CachedAnswer> {
    const budgetMs = source.timeoutMs * this.retry.totalTimeoutFactor;
    const deadline = this.clock.now() + budgetMs;
    let lastError: UpstreamError | undefined;
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      const remaining = deadline - this.clock.now();
      if (remaining <= 0) break;
      try {
        // The time left is measured when the queue lets the attempt go, so waiting for the rate limit counts too.
        const answer = await this.limiter.run(
          source.hostGroup,
          async () => {
            if (signal?.aborted) throw new CallCancelled(signal);
            if (deadline - this.clock.now() <= 0) return undefined;
            // Every attempt is a request the upstream counts; one the budget refuses is not sent.
            await this.budgets.take(source, call.kind, deadline);
            if (signal?.aborted) throw new CallCancelled(signal);
            const left = deadline - this.clock.now();
            return left > 0 ? this.attempt(source, call, Math.min(source.timeoutMs, left), signal) : undefined;
          },
          signal,
          otherHost,
        );
        if (answer) return answer;
        // No time was left once the rate limit let it go: report the last real failure, if any.
        lastError ??= new UpstreamError(
          source.id,
          'timeout',
          `${source.id} could not be asked within ${budgetMs} ms: requests to it were waiting for its rate limit`,
        );
        break;
      } catch (error) {
        // Dropped from the queue, or cut off while under way: not a failure of the source.
        if (signal?.aborted) throw new CallCancelled(signal);
        if (!(error instanceof UpstreamError)) throw error;
        lastError = error;
        if (!error.retryable || attempt === maxAttempts || call.streamed?.started) break;
        const retryAfterMs = error.retryAfterMs;
        const delay = retryAfterMs ?? backoff(this.retry.baseDelayMs, attempt);
        if (this.clock.now() + delay >= deadline) {
          if (retryAfterMs !== undefined) {
            lastError = new UpstreamError(
              source.id,
              error.kind,
              `${error.message}; it asked to wait ${Math.ceil(retryAfterMs / 1000)} s, longer than this call may take`,
              error.status,
            );
            lastError.retryAfterMs = retryAfterMs;
          }
          break;
        }
        this.options.logger?.warn(
          { source: source.id, attempt, delay_ms: delay, reason: withoutKey(source, error.message) },
          'upstream attempt failed; retrying',
        );
        await untilCancelled(this.clock.sleep(delay), signal).catch(() => Promise.reject(new CallCancelled(signal!)));
      }
    }
    const failure = lastError ?? new UpstreamError(source.id, 'timeout', `${source.id} did not answer within ${budgetMs} ms`);
    metrics.upstreamError(source.id, failure.kind);
    throw failure;
  }

  /** A streamed success refused on its first piece, before anything is handed over: an HTML page, or the source saying its quota is spent. */
  private async refuseFirst(source: ResolvedSource, status: number, headers: IncomingHttpHeaders, first: string): Promise<void> {
    const contentType = String(headers['content-type'] ?? '');
    if (isHtml(contentType, first)) throw new UpstreamError(source.id, 'bad_body', `${source.id} answered with an HTML page instead of data`);
    const spent = await this.budgets.spentSignal(source, status, first, contentType);
    if (spent) throw spent;
  }

  private async attempt(source: ResolvedSource, call: PreparedCall, timeoutMs: number, signal: AbortSignal | undefined): Promise<CachedAnswer> {
    const origin = new URL(call.url).origin;
    const stream = this.http.stream(call.url, {
      signal,
      method: call.method,
      form: call.form,
      json: call.json,
      headers: call.headers,
      timeout: { request: timeoutMs },
      followRedirect: source.sameHostRedirects > 0 ? (response) => redirectOrigin(response) === origin : false,
      maxRedirects: source.sameHostRedirects,
    });
    let read: { status: number; headers: IncomingHttpHeaders; body: string; tooLarge: boolean };
    const sent = process.hrtime.bigint();
    const took = () => Number(process.hrtime.bigint() - sent) / 1e9;
    const recording = this.options.recorder?.begin(source.id, { method: call.method, url: call.shownUrl, form: call.form, json: call.json });
    try {
      const response = await responseOf(stream);
      const status = response.statusCode;
      const contentType = String(response.headers['content-type'] ?? '');
      read =
        call.streamed && status >= 200 && status < 300
          ? await handOver(
              stream,
              response,
              call.maxBodyBytes,
              call.streamed,
              (first) => this.refuseFirst(source, status, response.headers, first),
              recording && ((chunk) => recording.append(chunk, contentType)),
            )
          : await readBounded(stream, response, call.maxBodyBytes);
    } catch (error) {
      await recording?.abandon();
      if (error instanceof TakerFailed) throw error;
      if (signal?.aborted) throw new CallCancelled(signal);
      if (error instanceof UpstreamError) {
        metrics.upstreamRequest(source.id, '2xx', took()); // refused on its first piece (refuseFirst)
        throw error;
      }
      const failure = fromRequestError(source, error as Error & { code?: string }, source.timeoutMs);
      metrics.upstreamRequest(source.id, failure.kind, took());
      throw failure;
    }
    metrics.upstreamRequest(source.id, `${Math.floor(read.status / 100)}xx`, took());
    await (read.tooLarge ? recording?.abandon() : recording?.finish(read.status, read.headers, read.body));
    const { status, headers } = read;
    const spent = await this.budgets.spentSignal(source, status, read.body, String(headers['content-type'] ?? ''));
    if (spent) throw spent;
    const retrievedAt = new Date().toISOString();
    const contentType = String(headers['content-type'] ?? '');
    if (status >= 300 && status < 400) throw redirectRefused(source, status, headers.location, origin);
    if (status >= 200 && status < 300) {
      if (read.tooLarge) {
        throw new UpstreamError(
          source.id,
          'too_large',
          `${source.id} answered with more than ${formatBytes(call.maxBodyBytes)}, the most read from it; ask for fewer results`,
        );
      }
      return { status, contentType, body: read.body, retrievedAt };
    }

    const reason = reasonFromBody(contentType, read.body);
    const kind = status === 429 ? 'rate_limited' : 'http_error';
    const message = `${source.id} answered HTTP ${status}${reason ? `: ${reason}` : ''}`;
    const error = new UpstreamError(source.id, kind, message, status);
    if (RETRYABLE_STATUS.has(status)) {
      const retryAfterMs = parseRetryAfter(headers['retry-after']);
      if (retryAfterMs !== undefined) error.retryAfterMs = retryAfterMs;
    }
    throw error;
  }
}

/** The key of a request's answer in the response cache. */
function cacheKeyOf(source: ResolvedSource, method: string, url: string, form: unknown, json: unknown): string {
  return createHash('sha256')
    .update(JSON.stringify([source.id, method, url, form ?? null, json ?? null]))
    .digest('hex');
}

/**
 * The base URL with `path` appended, refused when it would leave the base: another host, a path
 * outside the base's (`..`), a query or fragment hidden in the path. Connectors build paths with
 * path`…` (./path.ts), which already prevents this; here it is checked once more for every request.
 */
function withinBase(source: ResolvedSource, baseUrl: string, path: string): URL {
  const base = new URL(baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const url = new URL(baseUrl + path);
  const inside =
    (path === '' || path.startsWith('/')) &&
    !/[?#\\]/.test(path) &&
    url.origin === base.origin &&
    (url.pathname === basePath || url.pathname.startsWith(`${basePath}/`));
  if (!inside) throw new ApiError('invalid_input', `an identifier would have changed the address asked of ${source.id}; it was not asked`);
  return url;
}

/** Of an error answer only its start is read: enough for a reason, never a whole page. */
const ERROR_BODY_BYTES = 64 * 1024;

/**
 * Reads a response while it streams, counting bytes after decompression, and stops (closing the
 * connection) past the limit: a success past `maxBodyBytes` comes back `tooLarge`, an error answer
 * is cut at ERROR_BODY_BYTES. Nothing larger than the limit is ever held.
 */
async function readBounded(
  stream: Request,
  response: PlainResponse,
  maxBodyBytes: number,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string; tooLarge: boolean }> {
  const status = response.statusCode;
  const success = status >= 200 && status < 300;
  const limit = success ? maxBodyBytes : ERROR_BODY_BYTES;
  if (success && announcesMore(response, limit)) {
    stream.destroy();
    return { status, headers: response.headers, body: '', tooLarge: true };
  }
  // Decoded as it arrives: each chunk is let go at once, and no buffer of the whole body is ever made (only its text).
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  let bytes = 0;
  let tooLarge = false;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    if (bytes + chunk.length > limit) {
      tooLarge = true;
      if (!success) parts.push(decoder.write(chunk.subarray(0, limit - bytes)));
      stream.destroy();
      break;
    }
    parts.push(decoder.write(chunk));
    bytes += chunk.length;
  }
  parts.push(decoder.end());
  return { status, headers: response.headers, body: tooLarge && success ? '' : parts.join(''), tooLarge };
}

/** The response's head, once it comes (the request's error when it fails first). */
async function responseOf(stream: Request): Promise<PlainResponse> {
  stream.on('error', () => undefined); // errors surface through the awaits of the readers
  return new Promise<PlainResponse>((resolve, reject) => {
    stream.once('response', resolve);
    stream.once('error', reject);
  });
}

/** Whether an uncompressed answer's Content-Length is already past the limit. */
const announcesMore = (response: PlainResponse, limit: number) => !response.headers['content-encoding'] && Number(response.headers['content-length']) > limit;

/**
 * A streamed success's body handed to `streamed.take` piece by piece as it arrives (each piece
 * decoded, a character cut between chunks kept whole, each chunk also given to `streamed.keep`),
 * bounded like readBounded: past `maxBodyBytes` the connection is closed and `tooLarge` set.
 * `refuse` sees the first piece before anything is handed over, and may throw.
 */
async function handOver(
  stream: Request,
  response: PlainResponse,
  maxBodyBytes: number,
  streamed: StreamedRead,
  refuse: (first: string) => Promise<void>,
  record?: (chunk: Buffer) => void,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string; tooLarge: boolean }> {
  const answer = { status: response.statusCode, headers: response.headers, body: '', tooLarge: false };
  if (announcesMore(response, maxBodyBytes)) {
    stream.destroy();
    return { ...answer, tooLarge: true };
  }
  const decoder = new StringDecoder('utf8');
  let bytes = 0;
  let ended = false;
  const give = async (piece: string) => {
    if (!streamed.started) await refuse(piece);
    streamed.started = true;
    await streamed.take(piece);
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > maxBodyBytes) return { ...answer, tooLarge: true };
      streamed.keep?.(chunk);
      record?.(chunk);
      await give(decoder.write(chunk));
    }
    const last = decoder.end();
    if (last || !streamed.started) await give(last);
    ended = true;
    return answer;
  } finally {
    if (!ended) stream.destroy(); // too large, refused, or the taker failed: the rest is not read
  }
}

/**
 * The host a request asks when it is not the source's own (its base URL's): it is paced in a lane of its own (./limits.ts) and
 * has a circuit breaker of its own (./breakers.ts).
 */
function otherHostOf(source: ResolvedSource, url: string): string | undefined {
  const host = new URL(url).host;
  return host === new URL(source.baseUrl).host ? undefined : host;
}

/** The origin a redirect answer points to; undefined when its Location is unreadable. */
function redirectOrigin(response: PlainResponse): string | undefined {
  try {
    return new URL(String(response.headers.location), response.url).origin;
  } catch {
    return undefined;
  }
}

function redirectRefused(source: ResolvedSource, status: number, location: string | undefined, origin: string): UpstreamError {
  let target: URL | undefined;
  try {
    target = location ? new URL(location, origin) : undefined;
  } catch {
    target = undefined;
  }
  const where = !target
    ? 'without a usable address'
    : target.origin !== origin
      ? `to another host (${target.host}), which is never followed`
      : 'and redirects are not followed for this source';
  return new UpstreamError(source.id, 'redirect', `${source.id} answered HTTP ${status}: redirected ${where}`, status);
}

function formatBytes(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}

/** A text without the source's key: some APIs echo it in their bodies (Europeana's `apikey`, its item links). */
function withoutKey(source: ResolvedSource, text: string): string {
  return source.key ? text.split(source.key).join('[key]') : text;
}

/** An error to pass on, its message without the source's key (some APIs echo it). */
function keyHidden(source: ResolvedSource, error: unknown): unknown {
  if (!(error instanceof UpstreamError) || !source.key || !error.message.includes(source.key)) return error;
  return new UpstreamError(error.source, error.kind, withoutKey(source, error.message), error.status);
}

function fromRequestError(source: ResolvedSource, error: Error & { code?: string }, timeoutMs: number): UpstreamError {
  if (error.name === 'MaxRedirectsError') {
    return new UpstreamError(source.id, 'redirect', `${source.id} redirected more than ${source.sameHostRedirects} times`);
  }
  if (error.name === 'TimeoutError' || error.code === 'ETIMEDOUT') {
    return new UpstreamError(source.id, 'timeout', `${source.id} did not answer within ${timeoutMs} ms`);
  }
  const code = error.code ?? 'ERR_NETWORK';
  const what =
    code === 'ECONNRESET'
      ? 'closed the connection'
      : code === 'ECONNREFUSED'
        ? 'refused the connection'
        : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
          ? 'could not be found (DNS)'
          : error.name === 'ReadError'
            ? 'broke off the answer'
            : 'could not be reached';
  return new UpstreamError(source.id, 'network', `${source.id} ${what} (${code})`);
}

function decodeJson(answer: CachedAnswer, source: ResolvedSource): unknown {
  if (answer.status === 204) return null;
  if (isHtml(answer.contentType, answer.body)) {
    throw new UpstreamError(source.id, 'bad_body', `${source.id} answered with an HTML page instead of JSON`);
  }
  if (answer.body.trim() === '') throw new UpstreamError(source.id, 'bad_body', `${source.id} answered with an empty body instead of JSON`);
  try {
    return parseJsonKeepingBigIntegers(answer.body);
  } catch {
    throw new UpstreamError(
      source.id,
      'bad_body',
      `${source.id} answered with a body that is not valid JSON (truncated or another format), beginning "${bodySnippet(answer.body)}"`,
    );
  }
}

/** Retry-After as milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text.trim())) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function backoff(baseMs: number, attempt: number): number {
  const exponential = baseMs * 2 ** (attempt - 1);
  return Math.round(exponential / 2 + Math.random() * (exponential / 2));
}

/** The one client of an app, made from its configuration; `shared` is where budgets are counted across processes. */
export function createUpstreamClient(
  config: Pick<Config, 'sources' | 'contactEmail' | 'redisUrl'> & Partial<Pick<Config, 'breaker' | 'upstreamRecordDir'>>,
  logger?: Logger,
  clock?: Clock,
  shared?: SharedUpstreamState,
): UpstreamClient {
  return new UpstreamClient({
    sources: config.sources,
    contactEmail: config.contactEmail,
    cache: createResponseCache(config.redisUrl, logger),
    logger,
    clock,
    shared,
    breaker: config.breaker,
    recorder: config.upstreamRecordDir === undefined ? undefined : new AnswerRecorder(config.upstreamRecordDir, logger),
  });
}

/**
 * The hand-written part of the TypeScript client, the same for every tool: configuration, one HTTP
 * call with its retries and Idempotency-Key, the errors, the balance, waiting for a figure and
 * citation export. The methods per tool are generated beside it (index.ts). `fetch` only: it runs
 * in Node 20+, Deno, Bun and browsers, with no dependency.
 */

/** Where the client sends calls when neither the options nor RESEARCH_TOOLS_BASE_URL say. */
export const DEFAULT_BASE_URL = 'http://localhost:8080';

export interface ClientOptions {
  /** The API key (`sm_…`). Default: the RESEARCH_TOOLS_API_KEY environment variable. */
  apiKey?: string;
  /** The server, e.g. `https://research-tools.example.org`. Default: RESEARCH_TOOLS_BASE_URL, else http://localhost:8080. */
  baseUrl?: string;
  /** Retries of one call after 429, 503, 409 (the same call still running) or a network failure. Default 3. */
  maxRetries?: number;
  /** The most the retries of one call may wait in all, in milliseconds; a longer Retry-After is not waited for. Default 60,000. */
  maxRetryWaitMs?: number;
  /** How long one request may take, in milliseconds, before it counts as a network failure. Default 120,000. */
  timeoutMs?: number;
  /** The fetch to use. Default: the global one. */
  fetch?: typeof fetch;
  /** How the client waits between retries and figure polls. Default: a timer. */
  sleep?: (ms: number) => Promise<void>;
}

export interface CallOptions {
  /** Sent as `Idempotency-Key`; every retry of the call sends the same. Default: a new random UUID per call. */
  idempotencyKey?: string;
  /** Cancels the call, its retries and waits. */
  signal?: AbortSignal;
}

/** Citation export formats of the paper tools: BibTeX, RIS or CSL-JSON. */
export type CitationFormat = 'bibtex' | 'ris' | 'csl';

export interface CitationOptions extends CallOptions {
  /** Answer the papers as citations in this format (the text as the server sends it) instead of the JSON result. */
  citationFormat: CitationFormat;
}

export interface FigureWaitOptions extends CallOptions {
  /** Poll get_figure until the figure is finished, then download its PNG. */
  wait: true;
  /** Milliseconds between polls. Default: the `poll_after_s` the server suggests (about 30 s). */
  pollIntervalMs?: number;
  /** The most to wait between polls in all, in milliseconds, before giving up with `figure_timeout`. Default 600,000. */
  waitTimeoutMs?: number;
}

const CITATION_MEDIA_TYPES: Record<CitationFormat, string> = {
  bibtex: 'application/x-bibtex',
  ris: 'application/x-research-info-systems',
  csl: 'application/vnd.citationstyles.csl+json',
};

/** One record of a result (spec part 2.3). */
export interface ToolRecord<Data> {
  /** The source id, a colon, the native id. */
  id: string;
  type: string;
  source: string;
  title?: string;
  url?: string;
  license: string;
  attribution: string;
  /** When the source answered (UTC, ISO 8601 with milliseconds). */
  retrievedAt: string;
  data: Data;
}

export interface ToolFile {
  name: string;
  url: string;
  mimeType: string;
}

/** The answer of a tool call (spec part 2.2). */
export interface ToolResult<Data, Extra = never> {
  /** One sentence describing the result. */
  summary: string;
  records: Array<ToolRecord<Data>>;
  /** Present only when some sources failed and others answered. */
  partial?: true;
  failedSources?: Array<{ source: string; error: string }>;
  files?: ToolFile[];
  extra?: Extra;
  /** Credits charged for this call. */
  credits_used: number;
  call_id: string;
}

/** A finished figure: its PNG and the answer that announced it. */
export interface FinishedFigure<Result> {
  figureId: string;
  /** The PNG image. */
  png: Uint8Array;
  pngUrl: string;
  /** The last answer: create_figure's or edit_figure's when it finished within the call, otherwise get_figure's. */
  result: Result;
}

/**
 * Every failure of a call: an error answer of the API (`code` and `status` as the API sends them,
 * e.g. `invalid_input` and 400), or one the client met itself: `network_error` (no answer after the
 * retries), `unexpected_response` (an answer that is not the API's), `figure_failed`,
 * `figure_timeout` (status undefined).
 */
export class ResearchToolsError extends Error {
  readonly code: string;
  readonly status: number | undefined;
  /** From Retry-After, when the answer had one. */
  readonly retryAfterMs: number | undefined;

  constructor(code: string, message: string, status?: number, options: { retryAfterMs?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** 400 `invalid_input`: the message names each argument and what is wrong with it. */
export class InvalidInputError extends ResearchToolsError {}
/** 402 `insufficient_credits`: the account holds fewer credits than the call costs. */
export class InsufficientCreditsError extends ResearchToolsError {}
/** 429 `rate_limited`, when the retries did not get through (`retryAfterMs` says how long to wait). */
export class RateLimitedError extends ResearchToolsError {}

const ERROR_CLASSES: Record<string, typeof ResearchToolsError> = {
  invalid_input: InvalidInputError,
  insufficient_credits: InsufficientCreditsError,
  rate_limited: RateLimitedError,
};

interface Answer {
  status: number;
  headers: Headers;
  body: Uint8Array;
}

/** Answers worth the same request again: rate limited, briefly unavailable, or the same Idempotency-Key still running. */
const RETRIED_STATUSES = new Set([409, 429, 503]);

function environment(name: string): string | undefined {
  const process = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process;
  return process?.env?.[name] || undefined;
}

/** Retry-After in milliseconds: seconds or an HTTP date. */
function retryAfterMs(headers: Headers): number | undefined {
  const value = headers.get('retry-after');
  if (value === null) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Waits after a failure without Retry-After: 0.5 s, 1 s, 2 s … up to 8 s, each with jitter so that many clients do not return together. */
function backoffMs(attempt: number): number {
  return Math.min(500 * 2 ** attempt, 8000) * (0.5 + Math.random() / 2);
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${cause}`;
}

/** The shared machinery of the generated client class (ResearchTools). */
export class ResearchToolsClient {
  readonly baseUrl: string;
  /** The account's balance after the last call (X-Credits-Remaining); undefined before the first. */
  creditsRemaining: number | undefined;
  readonly #apiKey: string;
  readonly #maxRetries: number;
  readonly #maxRetryWaitMs: number;
  readonly #timeoutMs: number;
  readonly #fetch: typeof fetch;
  readonly #sleep: (ms: number) => Promise<void>;

  constructor(options: ClientOptions = {}) {
    const apiKey = options.apiKey ?? environment('RESEARCH_TOOLS_API_KEY');
    if (!apiKey) throw new TypeError('no API key: pass { apiKey } or set RESEARCH_TOOLS_API_KEY');
    this.#apiKey = apiKey;
    this.baseUrl = (options.baseUrl ?? environment('RESEARCH_TOOLS_BASE_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.#maxRetries = options.maxRetries ?? 3;
    this.#maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
    this.#timeoutMs = options.timeoutMs ?? 120_000;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#sleep = options.sleep ?? defaultSleep;
  }

  /** POSTs the arguments to the tool and answers its JSON result, or the citation text when a format is asked for. */
  protected async callTool(tool: string, args: object, options: CallOptions & { citationFormat?: CitationFormat } = {}): Promise<unknown> {
    const accept = options.citationFormat ? CITATION_MEDIA_TYPES[options.citationFormat] : 'application/json';
    const answer = await this.#withRetries(
      `${this.baseUrl}/api/v1/${encodeURIComponent(tool)}`,
      {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${this.#apiKey}`,
          'Content-Type': 'application/json',
          Accept: accept,
          'Idempotency-Key': options.idempotencyKey ?? globalThis.crypto.randomUUID(),
        },
        body: JSON.stringify(args),
      },
      options.signal,
    );
    const text = new TextDecoder().decode(answer.body);
    if (answer.status !== 200) throw errorOf(answer, text);
    if (options.citationFormat) return text;
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new ResearchToolsError('unexpected_response', `${tool} answered 200 with a body that is not JSON: ${text.slice(0, 200)}`, 200, { cause: error });
    }
  }

  /** A figure tool's call; with `wait`, polls get_figure until the figure is finished and downloads its PNG. */
  protected async callFigureTool(tool: string, args: object, options: CallOptions & Partial<Omit<FigureWaitOptions, 'wait'>> & { wait?: boolean } = {}) {
    const result = (await this.callTool(tool, args, options)) as FigureResult;
    return options.wait ? this.waitForFigure(result, options) : result;
  }

  /** Polls get_figure from a figure tool's answer until the figure is finished, then downloads its PNG. */
  async waitForFigure<Result extends FigureResult>(
    first: Result,
    options: Omit<FigureWaitOptions, 'wait' | 'idempotencyKey'> = {},
  ): Promise<FinishedFigure<Result | FigureResult>> {
    let result: FigureResult = first;
    let waitedMs = 0;
    const waitTimeoutMs = options.waitTimeoutMs ?? 600_000;
    for (;;) {
      const extra = result.extra;
      if (!extra) throw new ResearchToolsError('unexpected_response', 'the answer is not a figure tool’s: it has no extra.status');
      if (extra.status === 'finished') {
        const png = result.files?.find((file) => file.mimeType === 'image/png');
        if (!png) throw new ResearchToolsError('unexpected_response', `figure ${extra.figure_id} is finished but its answer lists no PNG file`);
        return { figureId: extra.figure_id, png: await this.download(png.url, options.signal), pngUrl: png.url, result };
      }
      if (extra.status === 'failed') {
        throw new ResearchToolsError('figure_failed', extra.message ?? `figure ${extra.figure_id} could not be rendered; nothing was charged`);
      }
      const intervalMs = options.pollIntervalMs ?? (extra.poll_after_s ?? 30) * 1000;
      if (waitedMs + intervalMs > waitTimeoutMs) {
        throw new ResearchToolsError('figure_timeout', `figure ${extra.figure_id} was still rendering after ${waitedMs} ms of polling; poll get_figure later`);
      }
      await this.#pause(intervalMs, options.signal);
      waitedMs += intervalMs;
      result = (await this.callTool('get_figure', { figure_id: extra.figure_id }, { signal: options.signal })) as FigureResult;
    }
  }

  /** The bytes of a file the API links to (a figure's PNG or SVG). Figure files need no key, so none is sent. */
  async download(url: string, signal?: AbortSignal): Promise<Uint8Array> {
    const answer = await this.#withRetries(url, { method: 'GET' }, signal);
    if (answer.status !== 200) throw errorOf(answer, new TextDecoder().decode(answer.body));
    return answer.body;
  }

  /** Sends the request until it gets an answer that is not worth retrying, or the retries or their time run out. */
  async #withRetries(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Answer> {
    let waitedMs = 0;
    for (let attempt = 0; ; attempt += 1) {
      let answer: Answer | undefined;
      let failure: unknown;
      try {
        answer = await this.#send(url, init, signal);
      } catch (error) {
        if (signal?.aborted) throw error; // cancelled by the caller: never retried
        failure = error;
      }
      if (answer && !RETRIED_STATUSES.has(answer.status)) return answer;
      const delayMs = (answer && retryAfterMs(answer.headers)) ?? backoffMs(attempt);
      if (attempt >= this.#maxRetries || waitedMs + delayMs > this.#maxRetryWaitMs) {
        if (answer) return answer;
        throw new ResearchToolsError(
          'network_error',
          `${init.method} ${url}: no answer after ${attempt + 1} attempt${attempt > 0 ? 's' : ''}: ${describeFailure(failure)}`,
          undefined,
          {
            cause: failure,
          },
        );
      }
      await this.#pause(delayMs, signal);
      waitedMs += delayMs;
    }
  }

  async #send(url: string, init: RequestInit, signal: AbortSignal | undefined): Promise<Answer> {
    const timeout = AbortSignal.timeout(this.#timeoutMs);
    const response = await this.#fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    const body = new Uint8Array(await response.arrayBuffer());
    const credits = response.headers.get('x-credits-remaining');
    if (credits !== null && /^\d+$/.test(credits)) this.creditsRemaining = Number(credits);
    return { status: response.status, headers: response.headers, body };
  }

  async #pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
    signal?.throwIfAborted();
    await this.#sleep(ms);
    signal?.throwIfAborted();
  }
}

/** What the client reads of a figure tool's answer. */
export interface FigureResult {
  files?: ToolFile[];
  extra?: { figure_id: string; status: 'pending' | 'finished' | 'failed'; poll_after_s?: number; message?: string };
}

/** The error of an answer that is not a success: the API's `{error: {code, message}}`, or `unexpected_response`. */
function errorOf(answer: Answer, text: string): ResearchToolsError {
  const retryAfter = retryAfterMs(answer.headers);
  let error: { code?: unknown; message?: unknown } | undefined;
  try {
    error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
  } catch {
    error = undefined;
  }
  if (typeof error?.code !== 'string' || typeof error.message !== 'string') {
    return new ResearchToolsError('unexpected_response', `HTTP ${answer.status}: ${text.slice(0, 200)}`, answer.status, { retryAfterMs: retryAfter });
  }
  const ErrorClass = ERROR_CLASSES[error.code] ?? ResearchToolsError;
  return new ErrorClass(error.code, error.message, answer.status, { retryAfterMs: retryAfter });
}

/**
 * Runtime configuration: every setting the server, the admin CLI and the tests read from the
 * environment is declared here once, with its variable, its documentation and its default.
 * The configuration table of docs/configuration.md is written from this list.
 */
import ipaddr from 'ipaddr.js';

/** RATE_LIMIT_ACCOUNT_PER_MINUTE, when not set: this many times RATE_LIMIT_PER_MINUTE. */
export const ACCOUNT_RATE_FACTOR = 10;

export interface Setting {
  variable: string;
  doc: string;
  default: string | undefined;
}

export const settings = {
  port: { variable: 'PORT', doc: 'HTTP port', default: '8080' },
  databaseUrl: {
    variable: 'DATABASE_URL',
    doc: '`mysql://user:pass@host:port/db` (MySQL 8 / MariaDB 10.6+) or `sqlite:<path>`',
    default: 'sqlite:./data/research-tools.sqlite',
  },
  publicBaseUrl: {
    variable: 'PUBLIC_BASE_URL',
    doc: 'base used to build file URLs and the OpenAPI `servers` entry',
    default: undefined, // http://localhost:$PORT
  },
  contactEmail: {
    variable: 'CONTACT_EMAIL',
    doc: 'contact address sent to polite-pool sources (OpenAlex, Crossref, NCBI, Unpaywall) and in the User-Agent (BLS refuses its series lists to clients without one)',
    default: undefined,
  },
  rateLimitPerMinute: {
    variable: 'RATE_LIMIT_PER_MINUTE',
    doc: 'requests per minute per key',
    default: '60',
  },
  rateLimitAccountPerMinute: {
    variable: 'RATE_LIMIT_ACCOUNT_PER_MINUTE',
    doc: "requests per minute with all of an account's keys together (on top of the per-key limit, so that more keys do not mean more requests); 0: no account-wide limit",
    default: '10 × RATE_LIMIT_PER_MINUTE',
  },
  keyCreationsPerHour: {
    variable: 'KEY_CREATIONS_PER_HOUR',
    doc: 'new API keys an account may create per hour (through /api/v1/account/keys or the account page); an account holds at most 20 live keys',
    default: '20',
  },
  figureSyncWaitMs: {
    variable: 'FIGURE_SYNC_WAIT_MS',
    doc: 'how long create/edit_figure wait for the image before answering pending; 0 always answers pending',
    default: '5000',
  },
  filesDir: {
    variable: 'FILES_DIR',
    doc: 'local cache folder of figure images (PNG and SVG); the images themselves live in the database, so every process serves them; `off` keeps no local copies. Files an older version left here are moved into the database at start-up',
    default: './data/files',
  },
  figureWorkers: {
    variable: 'FIGURE_WORKERS',
    doc: 'figures this process renders at once, each in a worker thread; 0 makes a process that takes calls but leaves rendering to others',
    default: '1',
  },
  figureQueue: {
    variable: 'FIGURE_QUEUE',
    doc: 'render queue this process puts its figures in and takes figures from; processes sharing a database use the same one',
    default: 'default',
  },
  chargeWaitMs: {
    variable: 'CHARGE_WAIT_MS',
    doc: 'how long a charged call waits for its credits to be held (a locked or busy account, the database out of reach) before answering 503 `temporarily_unavailable`, not charged; and, after its work succeeded, for the capture before answering 200 with the capture still owed',
    default: '3000',
  },
  holdTimeoutMs: {
    variable: 'HOLD_TIMEOUT_MS',
    doc: 'credits held by a call that was neither captured nor released after this long are given back by any server, whatever its lease (the backstop for a process alive but stuck); longer than any call runs',
    default: '600000',
  },
  holdSweepMs: {
    variable: 'HOLD_SWEEP_INTERVAL_MS',
    doc: 'how often each server looks for such held credits (also once at start-up)',
    default: '60000',
  },
  leaseTimeoutMs: {
    variable: 'LEASE_TIMEOUT_MS',
    doc: 'each server process renews a lease in the database; when it has not for this long (the process crashed, was killed, or lost the database), any other server, or the same one restarted, gives back the credits its calls held',
    default: '12000',
  },
  leaseRenewMs: {
    variable: 'LEASE_RENEW_INTERVAL_MS',
    doc: 'how often each server renews its lease, then gives back the credits held under the leases of others that expired; shorter than LEASE_TIMEOUT_MS',
    default: '3000',
  },
  shutdownGraceMs: {
    variable: 'SHUTDOWN_GRACE_MS',
    doc: 'on SIGTERM/SIGINT, how long calls in progress may still finish; the charge of any call cut off is released',
    default: '20000',
  },
  logLevel: { variable: 'LOG_LEVEL', doc: 'pino log level (fatal, error, warn, info, debug, silent)', default: 'info' },
  sourceUrl: {
    variable: 'SOURCE_<ID>_URL',
    doc: 'overrides the base URL of upstream source `<ID>` (id upper-cased, `-` → `_`: `SOURCE_WORLD_BANK_URL`)',
    default: undefined, // the real public URL of tools.yaml
  },
  sourceKey: {
    variable: 'SOURCE_<ID>_KEY',
    doc: 'API key for sources that need one (fred, materials-project, openaq, europeana, …); unset: that source fails with a message naming the variable',
    default: undefined,
  },
  sourceTimeoutMs: {
    variable: 'SOURCE_<ID>_TIMEOUT_MS',
    doc: 'overrides the per-attempt timeout of upstream source `<ID>` in milliseconds',
    default: undefined, // timeout_ms of tools.yaml
  },
  sourceBudget: {
    variable: 'SOURCE_<ID>_BUDGET_<WINDOW>',
    doc: "overrides a budget of upstream source `<ID>` for an operator whose plan allows more (or less): `<WINDOW>` is `SECOND`, `MINUTE`, `HOUR` or `DAY`, the value the limit in the budget's unit (requests, or US dollars for OpenAlex: `SOURCE_OPENALEX_BUDGET_DAY=25` for a $25/day plan), or `off` to stop counting that window; a window tools.yaml does not declare is added, counted over the last second, minute, hour or 24 hours. `npm run --silent admin -- sources status` shows the budgets in force",
    default: undefined, // the budget of tools.yaml, with the limit without a key while no key is set
  },
  breakerFailures: {
    variable: 'UPSTREAM_BREAKER_FAILURES',
    doc: 'requests to one source that fail in a row (timeouts, network errors, 5xx, 429 after retries) before that source is skipped at once (its circuit breaker opens, in each server process on its own)',
    default: '5',
  },
  breakerPauseMs: {
    variable: 'UPSTREAM_BREAKER_PAUSE_MS',
    doc: 'how long a source whose circuit breaker opened is skipped before one request goes out to probe it; the breaker closes when that request succeeds and opens again when it fails',
    default: '30000',
  },
  upstreamRecordDir: {
    variable: 'UPSTREAM_RECORD_DIR',
    doc: "a folder where every answer of an upstream source is written as it was read, one file each, with a line of `index.jsonl` naming its request (without the key), status and headers: for recording real answers for tests (test/recordings/README.md); unset: nothing is written. Answers can hold what a key's owner may not publish: read them before sharing",
    default: undefined,
  },
  trustedProxies: {
    variable: 'TRUSTED_PROXIES',
    doc: "comma-separated addresses/CIDRs of reverse proxies whose `X-Forwarded-For` is believed (`loopback`, `uniquelocal` name those ranges); others' is ignored and the connection's address counts",
    default: undefined, // none
  },
  metricsToken: {
    variable: 'METRICS_TOKEN',
    doc: 'when set, `GET /metrics` needs `Authorization: Bearer <token>`; unset: open (keep it unreachable from outside then)',
    default: undefined,
  },
  accountSessionMinutes: {
    variable: 'ACCOUNT_SESSION_MINUTES',
    doc: 'how long a sign-in to the account settings page at `/account` lasts; the session ends sooner when the key it was opened with is deleted',
    default: '30',
  },
  corsOrigins: {
    variable: 'CORS_ORIGINS',
    doc: 'comma-separated origins (`https://app.example.org`) whose web pages may call the API from a browser; unset: CORS off',
    default: undefined,
  },
  redisUrl: {
    variable: 'REDIS_URL',
    doc: 'Redis (`redis://host:port`) for the shared upstream response cache, the per-key rate limit (no database work per call for it) and the MCP cancellations the processes tell each other; each process also keeps the cached answers it reads or writes in its own memory (up to 64 MiB) for the time they have left in Redis, so a repeated hit costs no round trip; unset: an in-process memory cache, and the rate limit in the database',
    default: undefined,
  },
} as const satisfies Record<string, Setting>;

export interface Config {
  port: number;
  databaseUrl: string;
  publicBaseUrl: string;
  contactEmail: string | undefined;
  rateLimitPerMinute: number;
  rateLimitAccountPerMinute: number;
  keyCreationsPerHour: number;
  figureSyncWaitMs: number;
  /** The local cache folder of figure files; undefined when FILES_DIR is `off`. */
  filesDir: string | undefined;
  figureWorkers: number;
  figureQueue: string;
  chargeWaitMs: number;
  holdTimeoutMs: number;
  holdSweepMs: number;
  leaseTimeoutMs: number;
  leaseRenewMs: number;
  shutdownGraceMs: number;
  logLevel: string;
  /** Per-source overrides from SOURCE_<ID>_URL / _KEY / _TIMEOUT_MS / _BUDGET_<WINDOW>, keyed by the upper-cased id (`WORLD_BANK`). */
  sources: Record<string, SourceOverride>;
  /** Failed requests in a row before a source's circuit breaker opens, and how long it stays open before a probe. */
  breaker: { failures: number; pauseMs: number };
  /** Where upstream answers are recorded (UPSTREAM_RECORD_DIR); undefined: not recorded. */
  upstreamRecordDir: string | undefined;
  redisUrl: string | undefined;
  /** Addresses, CIDRs or range names (loopback, linklocal, uniquelocal) whose X-Forwarded-For is believed; empty: none. */
  trustedProxies: string[];
  metricsToken: string | undefined;
  /** Browser origins allowed to call the API (CORS); empty: CORS off. */
  corsOrigins: string[];
  accountSessionMinutes: number;
}

export interface SourceOverride {
  url?: string;
  key?: string;
  timeoutMs?: number;
  budgets?: BudgetOverride;
}

/** Per window length, the operator's limit (in the budget's unit) or `off`. */
export type BudgetOverride = Partial<Record<'second' | 'minute' | 'hour' | 'day', number | 'off'>>;

export class ConfigError extends Error {}

function read(env: NodeJS.ProcessEnv, setting: Setting): string | undefined {
  const value = env[setting.variable];
  return value === undefined || value === '' ? setting.default : value;
}

function readInteger(env: NodeJS.ProcessEnv, setting: Setting, min: number): number {
  const text = read(env, setting) ?? '';
  const value = Number(text);
  if (!Number.isInteger(value) || value < min) {
    throw new ConfigError(`${setting.variable} must be an integer >= ${min}, got "${text}"`);
  }
  return value;
}

/** Reads the configuration from an environment (process.env by default); throws ConfigError on a bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = readInteger(env, settings.port, 0);
  const rateLimitPerMinute = readInteger(env, settings.rateLimitPerMinute, 1);
  return {
    port,
    databaseUrl: read(env, settings.databaseUrl) as string,
    publicBaseUrl: (read(env, settings.publicBaseUrl) ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    contactEmail: read(env, settings.contactEmail),
    rateLimitPerMinute,
    rateLimitAccountPerMinute: env[settings.rateLimitAccountPerMinute.variable]
      ? readInteger(env, settings.rateLimitAccountPerMinute, 0)
      : ACCOUNT_RATE_FACTOR * rateLimitPerMinute,
    keyCreationsPerHour: readInteger(env, settings.keyCreationsPerHour, 1),
    figureSyncWaitMs: readInteger(env, settings.figureSyncWaitMs, 0),
    filesDir: read(env, settings.filesDir) === 'off' ? undefined : read(env, settings.filesDir),
    figureWorkers: readInteger(env, settings.figureWorkers, 0),
    figureQueue: read(env, settings.figureQueue) as string,
    chargeWaitMs: readInteger(env, settings.chargeWaitMs, 1),
    holdTimeoutMs: readInteger(env, settings.holdTimeoutMs, 1),
    holdSweepMs: readInteger(env, settings.holdSweepMs, 1),
    ...readLease(env),
    shutdownGraceMs: readInteger(env, settings.shutdownGraceMs, 0),
    logLevel: read(env, settings.logLevel) as string,
    sources: readSourceOverrides(env),
    breaker: { failures: readInteger(env, settings.breakerFailures, 1), pauseMs: readInteger(env, settings.breakerPauseMs, 1) },
    upstreamRecordDir: read(env, settings.upstreamRecordDir),
    redisUrl: read(env, settings.redisUrl),
    trustedProxies: readTrustedProxies(env),
    metricsToken: read(env, settings.metricsToken),
    corsOrigins: readOrigins(env, settings.corsOrigins),
    accountSessionMinutes: readInteger(env, settings.accountSessionMinutes, 1),
  };
}

function readLease(env: NodeJS.ProcessEnv): { leaseTimeoutMs: number; leaseRenewMs: number } {
  const leaseTimeoutMs = readInteger(env, settings.leaseTimeoutMs, 1);
  const leaseRenewMs = readInteger(env, settings.leaseRenewMs, 1);
  if (leaseRenewMs >= leaseTimeoutMs) {
    throw new ConfigError(`LEASE_RENEW_INTERVAL_MS (${leaseRenewMs}) must be shorter than LEASE_TIMEOUT_MS (${leaseTimeoutMs})`);
  }
  return { leaseTimeoutMs, leaseRenewMs };
}

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function readTrustedProxies(env: NodeJS.ProcessEnv): string[] {
  const entries = (read(env, settings.trustedProxies) ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (!PROXY_RANGE_NAMES.has(entry) && !ipaddr.isValid(entry) && !ipaddr.isValidCIDR(entry)) {
      throw new ConfigError(`${settings.trustedProxies.variable} must list addresses or CIDRs separated by commas, got "${entry}"`);
    }
  }
  return entries;
}

function readOrigins(env: NodeJS.ProcessEnv, setting: Setting): string[] {
  const origins = (read(env, setting) ?? '')
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  for (const origin of origins) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (!parsed || parsed.origin !== origin) {
      throw new ConfigError(`${setting.variable}: "${origin}" is not an origin (scheme://host[:port], no path or trailing slash)`);
    }
  }
  return origins;
}

const SOURCE_VARIABLE = /^SOURCE_([A-Z0-9_]+?)_(URL|KEY|TIMEOUT_MS|BUDGET_(?:SECOND|MINUTE|HOUR|DAY))$/;

function readSourceOverrides(env: NodeJS.ProcessEnv): Record<string, SourceOverride> {
  const sources: Record<string, SourceOverride> = {};
  for (const [variable, value] of Object.entries(env)) {
    const match = SOURCE_VARIABLE.exec(variable);
    if (!match || value === undefined || value === '') continue;
    const [, id, field] = match as unknown as [string, string, string];
    const entry = (sources[id] ??= {});
    if (field === 'URL') entry.url = value.replace(/\/+$/, '');
    else if (field === 'KEY') entry.key = value;
    else if (field.startsWith('BUDGET_')) {
      const per = field.slice('BUDGET_'.length).toLowerCase() as keyof BudgetOverride;
      const limit = Number(value);
      if (value !== 'off' && !(Number.isFinite(limit) && limit > 0)) throw new ConfigError(`${variable} must be a number > 0 or off, got "${value}"`);
      (entry.budgets ??= {})[per] = value === 'off' ? 'off' : limit;
    } else {
      const timeoutMs = Number(value);
      if (!Number.isInteger(timeoutMs) || timeoutMs < 1) throw new ConfigError(`${variable} must be an integer >= 1, got "${value}"`);
      entry.timeoutMs = timeoutMs;
    }
  }
  return sources;
}

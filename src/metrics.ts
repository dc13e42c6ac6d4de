/**
 * Prometheus metrics of this process (prom-client), served at GET /metrics. Each part of the
 * service counts what it does through the functions here; nothing else touches the registry.
 * Every process keeps its own counters: a scraper adds them up across processes.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'research_tools_' });

const toolCalls = new Counter({
  name: 'research_tools_tool_calls_total',
  help: 'Tool calls by tool and outcome (ok or the error code).',
  labelNames: ['tool', 'status'],
  registers: [registry],
});
const toolCallSeconds = new Histogram({
  name: 'research_tools_tool_call_duration_seconds',
  help: 'Time from request to answer of tool calls.',
  labelNames: ['tool'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});
const upstreamRequests = new Counter({
  name: 'research_tools_upstream_requests_total',
  help: 'Requests sent to upstream sources, by source and outcome (HTTP status class or error kind).',
  labelNames: ['source', 'outcome'],
  registers: [registry],
});
const upstreamSeconds = new Histogram({
  name: 'research_tools_upstream_request_duration_seconds',
  help: 'Latency of upstream requests.',
  labelNames: ['source'],
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30],
  registers: [registry],
});
const upstreamErrors = new Counter({
  name: 'research_tools_upstream_errors_total',
  help: 'Upstream requests that failed after all attempts, by source and kind.',
  labelNames: ['source', 'kind'],
  registers: [registry],
});
const cacheLookups = new Counter({
  name: 'research_tools_upstream_cache_lookups_total',
  help: 'Upstream response cache lookups, by source and result (hit or miss).',
  labelNames: ['source', 'result'],
  registers: [registry],
});
const credits = new Counter({
  name: 'research_tools_credits_total',
  help: 'Credits debited for calls and given back (refunded or released) for failed ones.',
  labelNames: ['movement'],
  registers: [registry],
});
const ledgerTransactions = new Counter({
  name: 'research_tools_ledger_transactions_total',
  help: "Transactions of the call path's group commit: holds, captures and call rows of charged calls, many calls to one transaction under load.",
  registers: [registry],
});
const rateLimitRefusals = new Counter({
  name: 'research_tools_rate_limit_refusals_total',
  help: 'Requests refused by a rate limit, by limit (per_key, per_account, key_creations or failed_keys).',
  labelNames: ['limit'],
  registers: [registry],
});
const figureRenderSeconds = new Histogram({
  name: 'research_tools_figure_render_duration_seconds',
  help: 'Time to render a figure, by outcome.',
  labelNames: ['outcome'],
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120],
  registers: [registry],
});
let readFigureQueueDepth: (() => Promise<number>) | undefined;
new Gauge({
  name: 'research_tools_figure_queue_depth',
  help: "Figures waiting to be rendered in this process's queue (read from the database at scrape time).",
  registers: [registry],
  async collect() {
    if (readFigureQueueDepth) this.set(await readFigureQueueDepth());
  },
});

const budgetRefusals = new Counter({
  name: 'research_tools_upstream_budget_refusals_total',
  help: 'Upstream requests not sent because a budget of the source was spent (counted here, or said by the source), by source and window.',
  labelNames: ['source', 'window'],
  registers: [registry],
});
let readBudgets: (() => Promise<Array<{ source: string; window: string; unit: string; used: number; left: number }>>) | undefined;
const budgetGauge = (name: string, help: string, pick: 'used' | 'left') =>
  new Gauge({
    name,
    help,
    labelNames: ['source', 'window', 'unit'],
    registers: [registry],
    async collect() {
      if (!readBudgets) return;
      this.reset();
      // A store that cannot be read leaves the gauges empty rather than failing the scrape.
      for (const row of await readBudgets().catch(() => [])) this.set({ source: row.source, window: row.window, unit: row.unit }, row[pick]);
    },
  });
budgetGauge(
  'research_tools_upstream_budget_used',
  "Amount of each upstream budget window used, in the budget's unit (requests or usd), counted across all processes (read from the shared store at scrape time: every process shows the same figure).",
  'used',
);
budgetGauge('research_tools_upstream_budget_left', "Amount left of each upstream budget window, in the budget's unit, across all processes.", 'left');
const BREAKER_VALUES = { closed: 0, 'half-open': 1, open: 2 } as const;
const breakerStates = new Gauge({
  name: 'research_tools_upstream_breaker_state',
  help: "State of each upstream source's circuit breaker in this process: 0 closed, 1 half-open (one probe out), 2 open (skipped). other_host: the breaker of a host the source asks besides its own, empty for its own.",
  labelNames: ['source', 'other_host'],
  registers: [registry],
});
const lastFailures = new Gauge({
  name: 'research_tools_upstream_last_failure_timestamp_seconds',
  help: 'When a request to the source last failed in this process (Unix time).',
  labelNames: ['source'],
  registers: [registry],
});

export const metrics = {
  toolCall(tool: string, status: string, seconds: number): void {
    toolCalls.inc({ tool, status });
    toolCallSeconds.observe({ tool }, seconds);
  },
  upstreamRequest(source: string, outcome: string, seconds: number): void {
    upstreamRequests.inc({ source, outcome });
    upstreamSeconds.observe({ source }, seconds);
  },
  upstreamError(source: string, kind: string): void {
    upstreamErrors.inc({ source, kind });
  },
  cacheLookup(source: string, hit: boolean): void {
    cacheLookups.inc({ source, result: hit ? 'hit' : 'miss' });
  },
  creditsDebited(amount: number): void {
    if (amount > 0) credits.inc({ movement: 'debited' }, amount);
  },
  creditsReturned(amount: number): void {
    if (amount > 0) credits.inc({ movement: 'returned' }, amount);
  },
  ledgerTransaction(): void {
    ledgerTransactions.inc();
  },
  rateLimitRefused(limit: 'per_key' | 'per_account' | 'key_creations' | 'failed_keys'): void {
    rateLimitRefusals.inc({ limit });
  },
  figureRendered(outcome: 'finished' | 'failed', seconds: number): void {
    figureRenderSeconds.observe({ outcome }, seconds);
  },
  budgetRefusal(source: string, window: string): void {
    budgetRefusals.inc({ source, window });
  },
  breakerState(source: string, otherHost: string | undefined, state: keyof typeof BREAKER_VALUES): void {
    breakerStates.set({ source, other_host: otherHost ?? '' }, BREAKER_VALUES[state]);
  },
  upstreamFailureTime(source: string, unixSeconds: number): void {
    lastFailures.set({ source }, unixSeconds);
  },
  /** How the upstream budgets are read when scraped. */
  setBudgetReader(read: typeof readBudgets): void {
    readBudgets = read;
  },
  /** How the figure queue depth is read when scraped. */
  setFigureQueueDepth(read: () => Promise<number>): void {
    readFigureQueueDepth = read;
  },
};

/** The metrics of this process in the Prometheus text format, and its content type. */
export async function metricsText(): Promise<{ contentType: string; text: string }> {
  return { contentType: registry.contentType, text: await registry.metrics() };
}

/**
 * Prometheus metrics of this process (prom-client), served at GET /metrics. Each part of the
 * service counts what it does through the functions here; nothing else touches the registry.
 * Every process keeps its own counters: a scraper adds them up across processes.
 */
import type { RequestHandler } from 'express';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { ApiError } from './errors.ts';

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
  help: 'Requests refused by a rate limit, by limit (per_key or failed_keys).',
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
  rateLimitRefused(limit: 'per_key' | 'failed_keys'): void {
    rateLimitRefusals.inc({ limit });
  },
  figureRendered(outcome: 'finished' | 'failed', seconds: number): void {
    figureRenderSeconds.observe({ outcome }, seconds);
  },
  /** How the figure queue depth is read when scraped. */
  setFigureQueueDepth(read: () => Promise<number>): void {
    readFigureQueueDepth = read;
  },
};

/** GET /metrics in the Prometheus text format; with METRICS_TOKEN set, only for `Authorization: Bearer <token>`. */
export function metricsHandler(token: string | undefined): RequestHandler {
  return async (request, response) => {
    if (token !== undefined && request.get('authorization') !== `Bearer ${token}`) {
      throw new ApiError('unauthorized', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>');
    }
    response.set('Content-Type', registry.contentType).send(await registry.metrics());
  };
}

/**
 * What the operator sees of the upstream sources (`npm run --silent admin -- sources status` and the
 * budget gauges of /metrics): per source, its budget windows (used and left across all processes,
 * when they reset), and the last circuit-breaker change and last failure any process recorded.
 */
import { sources } from '../../generated/tools.ts';
import type { SourceId } from '../../generated/types.ts';
import type { WindowReport } from './budgets.ts';
import type { UpstreamClient } from './client.ts';
import type { BreakerChange, SourceFailure } from './shared-state/index.ts';

export interface SourceStatusReport {
  source: SourceId;
  /** The budget windows in force; null for a source without a budget. */
  budget: WindowReport[] | null;
  /** The last change of a breaker of this source in any process (breakers are kept per process); null: none recorded. */
  breaker: (Omit<BreakerChange, 'at'> & { at: string }) | null;
  lastFailure: (Omit<SourceFailure, 'at'> & { at: string }) | null;
}

export const ALL_SOURCES = (Object.keys(sources) as SourceId[]).sort();

export async function sourcesStatus(upstream: UpstreamClient, ids: readonly SourceId[] = ALL_SOURCES): Promise<SourceStatusReport[]> {
  const statuses = await upstream.shared.readStatuses();
  const iso = (ms: number) => new Date(ms).toISOString();
  return Promise.all(
    ids.map(async (id) => {
      const status = statuses[id] ?? {};
      return {
        source: id,
        budget: (await upstream.budgets.report(upstream.source(id))) ?? null,
        breaker: status.breaker ? { ...status.breaker, at: iso(status.breaker.at) } : null,
        lastFailure: status.lastFailure ? { ...status.lastFailure, at: iso(status.lastFailure.at) } : null,
      };
    }),
  );
}

/** One row per budget window of every source that has a budget, for the /metrics gauges. */
export async function budgetRows(upstream: UpstreamClient): Promise<Array<{ source: string; window: string; unit: string; used: number; left: number }>> {
  const rows = await Promise.all(
    ALL_SOURCES.map(async (id) =>
      ((await upstream.budgets.report(upstream.source(id))) ?? []).map((window) => ({
        source: id,
        window: window.per,
        unit: window.unit,
        used: window.used,
        left: window.left,
      })),
    ),
  );
  return rows.flat();
}

/**
 * Upstream budgets: a source's documented quotas (tools.yaml `budget`), counted across every server
 * process in the shared state (Redis, or the database). A request is counted before it is sent,
 * after the response cache was asked (a cached answer costs nothing); one that would pass a limit
 * is not sent: it waits for the reset when that comes before its deadline (a per-second window
 * paces the processes together), and otherwise fails with `budget_spent`, naming the budget and when
 * it resets. An answer by which the upstream says a quota is spent (tools.yaml `spent_signal`)
 * marks that window spent until its reset, whatever the count says. A store that cannot be reached
 * fails the request too: a source whose quota cannot be counted is not asked.
 */
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { Clock } from '../clock.ts';
import { metrics } from '../metrics.ts';
import {
  admits,
  costOf,
  formatAmount,
  resetAt,
  spentUntil,
  usedOf,
  windowName,
  type BudgetWindow,
  type ResolvedBudget,
  type WindowCount,
} from './budget-windows.ts';
import { reasonFromBody } from './body.ts';
import { UpstreamError } from './errors.ts';
import type { CountedWindow, SharedUpstreamState } from './shared-state/index.ts';
import type { ResolvedSource } from './sources.ts';

/** A budget is reported in the log once a request takes it past this share of its limit. */
export const WARNING_SHARE = 0.8;

/** One window of a source's budget as the operator sees it (`sources status`, /metrics). */
export interface WindowReport {
  per: BudgetWindow['per'];
  reset: BudgetWindow['reset'];
  unit: ResolvedBudget['unit'];
  limit: number;
  used: number;
  left: number;
  /** When everything counted now has left the window (ISO 8601): for a window reset at midnight, the next midnight UTC. */
  resetsAt: string;
  /** Set while an upstream's answer marked the window spent (ISO 8601). */
  spentUntil?: string;
  origin: BudgetWindow['origin'];
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The windows of a source's budget as the shared state counts them: per host group (NCBI's three
 * sources share one count), upstream address and key, the quota's owner: another key, or the source
 * pointed elsewhere with SOURCE_<ID>_URL, starts a count of its own. The key itself is never stored,
 * only a digest of it.
 */
export function countedWindows(source: ResolvedSource): CountedWindow[] {
  const owner = createHash('sha256')
    .update(`${source.baseUrl}\n${source.key ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  return (source.budget?.windows ?? []).map((window) => ({
    key: `${source.hostGroup}:${owner}:${window.per}`,
    slotMs: window.slotMs,
    span: window.span,
    limit: window.limit,
  }));
}

export function windowReports(source: ResolvedSource, counts: WindowCount[], now: number): WindowReport[] {
  const budget = source.budget!;
  return budget.windows.map((window, index) => {
    const count = counts[index]!;
    const used = usedOf(window, count, now);
    const amount = (millionths: number) => millionths / 1_000_000;
    return {
      per: window.per,
      reset: window.reset,
      unit: budget.unit,
      limit: amount(window.limit),
      used: amount(used),
      left: amount(Math.max(0, window.limit - used)),
      resetsAt: iso(resetAt(window, { slots: count.slots, spentUntil: 0 }, window.limit, now)),
      ...(count.spentUntil > now ? { spentUntil: iso(count.spentUntil) } : {}),
      origin: window.origin,
    };
  });
}

export class Budgets {
  constructor(
    private readonly state: SharedUpstreamState,
    private readonly clock: Clock,
    private readonly logger?: Logger,
  ) {}

  /**
   * Counts one request of `kind` to `source` before it is sent. Waits for a reset that comes
   * before `deadline`; throws UpstreamError `budget_spent` when the request may not go out.
   */
  async take(source: ResolvedSource, kind: string | undefined, deadline: number): Promise<void> {
    const budget = source.budget;
    if (!budget) return;
    const cost = costOf(budget, source.id, kind);
    const windows = countedWindows(source);
    for (;;) {
      const now = this.clock.now();
      let taken: { admitted: boolean; counts: WindowCount[] };
      try {
        taken = await this.state.take(windows, cost, now);
      } catch (error) {
        this.logger?.error({ source: source.id, err: (error as Error).message }, 'upstream budget could not be counted; the request was not sent');
        throw new UpstreamError(source.id, 'budget_spent', `${source.id} was not asked: its budget could not be counted just now`);
      }
      if (taken.admitted) {
        this.warnPastShare(source, budget, taken.counts, cost, now);
        return;
      }
      const refusing = budget.windows
        .map((window, index) => ({ window, count: taken.counts[index]! }))
        .filter(({ window, count }) => !admits(window, count, cost, now));
      const reset = Math.max(...refusing.map(({ window, count }) => resetAt(window, count, cost, now)));
      if (reset < deadline) {
        await this.clock.sleep(reset - now);
        continue;
      }
      const { window, count } = refusing[0]!;
      metrics.budgetRefusal(source.id, window.per);
      const spent =
        count.spentUntil > now
          ? `${source.id} said its ${windowName(window)} is spent`
          : `its ${windowName(window)} of ${formatAmount(budget.unit, window.limit)} is spent (${formatAmount(budget.unit, usedOf(window, count, now))} used)`;
      const refusal = new UpstreamError(source.id, 'budget_spent', `${source.id} was not asked: ${spent}; it resets at ${iso(reset)}`);
      refusal.retryAfterMs = reset - now;
      throw refusal;
    }
  }

  /**
   * When the answer is the source's "quota spent" signal, marks that window spent until its reset
   * and returns the error to fail the request with (the answer is neither retried nor cached).
   */
  async spentSignal(source: ResolvedSource, status: number, body: string, contentType = ''): Promise<UpstreamError | undefined> {
    const signal = source.budget?.spentSignal;
    if (!signal || status !== signal.status || (signal.bodyPattern && !signal.bodyPattern.test(body))) return undefined;
    const index = source.budget!.windows.findIndex((window) => window.per === signal.window);
    if (index < 0) return undefined; // the operator switched that window off
    const window = source.budget!.windows[index]!;
    const now = this.clock.now();
    const until = spentUntil(window, now);
    await this.state.markSpent(countedWindows(source)[index]!, until, now).catch((error: unknown) => {
      this.logger?.error({ source: source.id, err: (error as Error).message }, 'upstream budget: the spent mark could not be stored');
    });
    this.logger?.warn({ source: source.id, window: window.per, until: iso(until) }, 'upstream says its quota is spent; not asked again until the reset');
    metrics.budgetRefusal(source.id, window.per);
    const reason = reasonFromBody(contentType, body);
    const said = new UpstreamError(
      source.id,
      'budget_spent',
      `${source.id} answered that its ${windowName(window)} is spent (HTTP ${status}${reason ? `: ${reason}` : ''}); it is not asked again until ${iso(until)}`,
    );
    said.retryAfterMs = until - now;
    return said;
  }

  /** The source's budget windows now (undefined when it has none). */
  async report(source: ResolvedSource): Promise<WindowReport[] | undefined> {
    if (!source.budget) return undefined;
    const now = this.clock.now();
    return windowReports(source, await this.state.read(countedWindows(source), now), now);
  }

  private warnPastShare(source: ResolvedSource, budget: ResolvedBudget, counts: WindowCount[], cost: number, now: number): void {
    budget.windows.forEach((window, index) => {
      const after = usedOf(window, counts[index]!, now);
      const threshold = window.limit * WARNING_SHARE;
      if (after >= threshold && after - cost < threshold) {
        this.logger?.warn(
          {
            source: source.id,
            window: window.per,
            used: formatAmount(budget.unit, after),
            limit: formatAmount(budget.unit, window.limit),
            resets_at: iso(resetAt(window, { slots: counts[index]!.slots, spentUntil: 0 }, window.limit, now)),
          },
          `upstream budget passed ${WARNING_SHARE * 100} %`,
        );
      }
    });
  }
}

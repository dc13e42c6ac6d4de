/**
 * The arithmetic of upstream budgets, apart from where the counts are kept (./shared-state/):
 * a source's windows as tools.yaml declares them with the operator's overrides applied, and what a
 * window's count says (used, left, when it resets).
 *
 * A window is counted in slots. A window reset at midnight UTC is one slot, the UTC day. A rolling
 * window (the last second, minute, hour or 24 hours) is ROLLING_SLOTS slots of a twentieth of it,
 * and a slot counts until the whole of it has left the window: the count covers a little more than
 * the window, never less, so the processes together never send more than the limit in any such
 * stretch of time. Amounts are whole millionths of the budget's unit (requests or US dollars).
 */
import type { BudgetOverride } from '../config.ts';

export type BudgetPer = 'second' | 'minute' | 'hour' | 'day';
export const BUDGET_PERS: readonly BudgetPer[] = ['second', 'minute', 'hour', 'day'];

export const WINDOW_MS: Record<BudgetPer, number> = { second: 1000, minute: 60_000, hour: 3_600_000, day: 86_400_000 };
export const ROLLING_SLOTS = 20;
/** Budgets are counted in millionths of their unit. */
export const MILLIONTHS = 1_000_000;

export const toMillionths = (amount: number): number => Math.round(amount * MILLIONTHS);

export interface BudgetWindow {
  per: BudgetPer;
  reset: 'midnight_utc' | 'rolling';
  /** The limit in millionths of the unit. */
  limit: number;
  /** Length of one slot; the day for midnight_utc. */
  slotMs: number;
  /** Slots before the current one that still count: ROLLING_SLOTS for a rolling window, 0 for a day reset at midnight. */
  span: number;
  /** Where the figure comes from: the manifest, or the operator's SOURCE_<ID>_BUDGET_<WINDOW>. */
  origin: 'manifest' | 'configuration';
}

export interface ResolvedBudget {
  unit: 'requests' | 'usd';
  /** Cost of one request per kind, in millionths; empty when the source declares no kinds (then a request costs one). */
  kinds: Record<string, number>;
  windows: BudgetWindow[];
  spentSignal?: { status: number; bodyPattern?: RegExp; window: BudgetPer };
}

/** A budget as generated/tools.ts holds it (tools.yaml `budget`). */
export interface DeclaredBudget {
  unit: 'requests' | 'usd';
  kinds?: Readonly<Record<string, number>>;
  windows: ReadonlyArray<{ per: BudgetPer; reset: BudgetWindow['reset']; limit: number; limitWithoutKey?: number }>;
  spentSignal?: { status: number; bodyPattern?: string; window: BudgetPer };
}

function window(per: BudgetPer, reset: BudgetWindow['reset'], limit: number, origin: BudgetWindow['origin']): BudgetWindow {
  const rolling = reset === 'rolling';
  return {
    per,
    reset,
    limit: toMillionths(limit),
    slotMs: rolling ? WINDOW_MS[per] / ROLLING_SLOTS : WINDOW_MS[per],
    span: rolling ? ROLLING_SLOTS : 0,
    origin,
  };
}

/**
 * The budget a source runs with: the manifest's windows (the limit without a key while no key is
 * configured), each replaced by the operator's figure or dropped with `off`; a figure for a window
 * the manifest does not declare adds a rolling one. Undefined when nothing is left to count.
 */
export function resolveBudget(manifest: DeclaredBudget | undefined, override: BudgetOverride, keyed: boolean): ResolvedBudget | undefined {
  const windows: BudgetWindow[] = [];
  for (const per of BUDGET_PERS) {
    const set = override[per];
    const declaredWindow = manifest?.windows.find((candidate) => candidate.per === per);
    if (set === 'off') continue;
    if (set !== undefined) windows.push(window(per, declaredWindow?.reset ?? 'rolling', set, 'configuration'));
    else if (declaredWindow)
      windows.push(window(per, declaredWindow.reset, keyed ? declaredWindow.limit : (declaredWindow.limitWithoutKey ?? declaredWindow.limit), 'manifest'));
  }
  if (windows.length === 0) return undefined;
  const signal = manifest?.spentSignal;
  return {
    unit: manifest?.unit ?? 'requests',
    kinds: Object.fromEntries(Object.entries(manifest?.kinds ?? {}).map(([kind, cost]) => [kind, toMillionths(cost)])),
    windows,
    spentSignal: signal
      ? { status: signal.status, bodyPattern: signal.bodyPattern ? new RegExp(signal.bodyPattern) : undefined, window: signal.window }
      : undefined,
  };
}

/**
 * What one request of `kind` costs, in millionths: the kind's cost; without a kind the dearest
 * kind's (so a request a connector forgot to tag is never counted short); one request when the
 * source declares no kinds. A kind the source does not declare is a programming error.
 */
export function costOf(budget: ResolvedBudget, source: string, kind: string | undefined): number {
  const costs = Object.values(budget.kinds);
  if (costs.length === 0) {
    if (kind !== undefined) throw new Error(`${source} declares no request kinds in tools.yaml, but a request was tagged "${kind}"`);
    return MILLIONTHS;
  }
  if (kind === undefined) return Math.max(...costs);
  const cost = budget.kinds[kind];
  if (cost === undefined) throw new Error(`${source} declares no request kind "${kind}" in tools.yaml (its kinds: ${Object.keys(budget.kinds).join(', ')})`);
  return cost;
}

/** A window's count as kept: slot index → amount, and the time until which the upstream said it is spent (0: never). */
export interface WindowCount {
  slots: Map<number, number>;
  spentUntil: number;
}

export const currentSlot = (window: Pick<BudgetWindow, 'slotMs'>, now: number): number => Math.floor(now / window.slotMs);

/**
 * The slots that count at `now`: from the oldest still in the window to as far ahead as it reaches
 * back (a process whose clock runs a little ahead counts in a slot that is still to come here; a slot
 * further ahead was written on a clock that is plainly wrong, and is not counted). Older slots can
 * be forgotten.
 */
export function countedSlots(window: Pick<BudgetWindow, 'slotMs' | 'span'>, slots: Map<number, number>, now: number): Array<[number, number]> {
  const current = currentSlot(window, now);
  return [...slots].filter(([slot]) => slot >= current - window.span && slot <= current + window.span).sort(([a], [b]) => a - b);
}

export function usedOf(window: Pick<BudgetWindow, 'slotMs' | 'span'>, count: WindowCount, now: number): number {
  return countedSlots(window, count.slots, now).reduce((sum, [, amount]) => sum + amount, 0);
}

/** Whether a request costing `cost` fits: the upstream has not said the window is spent, and the count stays within the limit. */
export function admits(window: Pick<BudgetWindow, 'slotMs' | 'span' | 'limit'>, count: WindowCount, cost: number, now: number): boolean {
  return count.spentUntil <= now && usedOf(window, count, now) + cost <= window.limit;
}

/** When a slot stops counting: once the whole of it has left the window. */
const slotLeavesAt = (window: Pick<BudgetWindow, 'slotMs' | 'span'>, slot: number): number => (slot + window.span + 1) * window.slotMs;

/**
 * When a request costing `cost` fits again: after the upstream's spent mark, once enough of the
 * oldest slots have left the window. For a window with nothing counted, when the current slot ends.
 */
export function resetAt(window: Pick<BudgetWindow, 'slotMs' | 'span' | 'limit'>, count: WindowCount, cost: number, now: number): number {
  const counted = countedSlots(window, count.slots, now);
  let left = counted.reduce((sum, [, amount]) => sum + amount, 0);
  let at = slotLeavesAt(window, currentSlot(window, now) - window.span);
  for (const [slot, amount] of counted) {
    if (left + cost <= window.limit) break;
    left -= amount;
    at = slotLeavesAt(window, slot);
  }
  return Math.max(at, count.spentUntil);
}

/** Until when an upstream's "quota spent" answer marks the window spent: its next reset (rolling: a whole window from now). */
export function spentUntil(window: Pick<BudgetWindow, 'per' | 'reset' | 'slotMs'>, now: number): number {
  return window.reset === 'midnight_utc' ? (currentSlot(window, now) + 1) * window.slotMs : now + WINDOW_MS[window.per];
}

/** An amount in millionths for people: "$0.42" or "17 requests". */
export function formatAmount(unit: ResolvedBudget['unit'], millionths: number): string {
  const amount = millionths / MILLIONTHS;
  if (unit === 'usd') return `$${amount.toFixed(amount < 0.01 && amount > 0 ? 4 : 2)}`;
  return `${Number.isInteger(amount) ? amount : amount.toFixed(2)} request${amount === 1 ? '' : 's'}`;
}

/** "daily budget", "per-minute budget". */
export function windowName(window: Pick<BudgetWindow, 'per' | 'reset'>): string {
  if (window.reset === 'midnight_utc') return 'daily budget (UTC day)';
  return window.per === 'day' ? 'budget for 24 hours' : `budget per ${window.per}`;
}

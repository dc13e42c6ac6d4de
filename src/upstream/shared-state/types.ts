/**
 * What the upstream layer keeps where every server process sees it: the counts of the upstream
 * budgets (./budget-windows.ts says what they mean) and, per source, the last circuit-breaker change
 * and the last failure any process saw (for the operator's `sources status`). In Redis when
 * REDIS_URL is set, otherwise in the database; in memory for a client made without either (tests).
 */
import type { WindowCount } from '../budget-windows.ts';

/** One budget window of one host group, as a store counts it. */
export interface CountedWindow {
  /** `<host group>:<per>`, e.g. `openalex:day`. */
  key: string;
  slotMs: number;
  span: number;
  /** In millionths of the budget's unit. */
  limit: number;
}

export interface BreakerChange {
  state: 'closed' | 'open' | 'half-open';
  /** Epoch milliseconds. */
  at: number;
  /** The process that saw it (`host:pid`): breakers are kept per process. */
  process: string;
  /** Set when it is the breaker of a host the source asks besides its own (BLS's LABSTAT files): ../breakers.ts. */
  otherHost?: string;
}

export interface SourceFailure {
  at: number;
  message: string;
}

export interface SourceStatus {
  breaker?: BreakerChange;
  lastFailure?: SourceFailure;
}

export interface SharedUpstreamState {
  /**
   * In one atomic step: when every window admits `cost` (./budget-windows.ts `admits`), adds it to
   * each. Returns the counts, with the cost added when admitted.
   */
  take(windows: CountedWindow[], cost: number, now: number): Promise<{ admitted: boolean; counts: WindowCount[] }>;
  /** Marks a window spent until `until` (an upstream said so); a later mark never shortens an earlier one. */
  markSpent(window: CountedWindow, until: number, now: number): Promise<void>;
  read(windows: CountedWindow[], now: number): Promise<WindowCount[]>;
  recordBreaker(source: string, change: BreakerChange): Promise<void>;
  recordFailure(source: string, failure: SourceFailure): Promise<void>;
  /** Per source that has any, its last breaker change and last failure. */
  readStatuses(): Promise<Record<string, SourceStatus>>;
  close(): Promise<void>;
}

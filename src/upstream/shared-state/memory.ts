/** The shared state kept in this process only: for an upstream client made without a database or Redis (tests, scripts). */
import { admits, countedSlots, type WindowCount } from '../budget-windows.ts';
import type { BreakerChange, CountedWindow, SharedUpstreamState, SourceFailure, SourceStatus } from './types.ts';

export class MemoryUpstreamState implements SharedUpstreamState {
  private readonly counts = new Map<string, WindowCount>();
  private readonly statuses = new Map<string, SourceStatus>();

  private count(window: CountedWindow, now: number): WindowCount {
    let count = this.counts.get(window.key);
    if (!count) this.counts.set(window.key, (count = { slots: new Map(), spentUntil: 0 }));
    count.slots = new Map(countedSlots(window, count.slots, now));
    return count;
  }

  async take(windows: CountedWindow[], cost: number, now: number): Promise<{ admitted: boolean; counts: WindowCount[] }> {
    const counts = windows.map((window) => this.count(window, now));
    const admitted = windows.every((window, index) => admits(window, counts[index]!, cost, now));
    if (admitted && cost > 0) {
      windows.forEach((window, index) => {
        const slot = Math.floor(now / window.slotMs);
        counts[index]!.slots.set(slot, (counts[index]!.slots.get(slot) ?? 0) + cost);
      });
    }
    return { admitted, counts: counts.map((count) => ({ slots: new Map(count.slots), spentUntil: count.spentUntil })) };
  }

  async markSpent(window: CountedWindow, until: number, now: number): Promise<void> {
    const count = this.count(window, now);
    count.spentUntil = Math.max(count.spentUntil, until);
  }

  async read(windows: CountedWindow[], now: number): Promise<WindowCount[]> {
    return windows.map((window) => {
      const count = this.count(window, now);
      return { slots: new Map(count.slots), spentUntil: count.spentUntil };
    });
  }

  async recordBreaker(source: string, change: BreakerChange): Promise<void> {
    this.statuses.set(source, { ...this.statuses.get(source), breaker: change });
  }

  async recordFailure(source: string, failure: SourceFailure): Promise<void> {
    this.statuses.set(source, { ...this.statuses.get(source), lastFailure: failure });
  }

  async readStatuses(): Promise<Record<string, SourceStatus>> {
    return Object.fromEntries(this.statuses);
  }

  async close(): Promise<void> {}
}

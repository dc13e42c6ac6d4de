/**
 * What this process is still doing for its callers: calls being answered (with the credits each
 * holds) and call-log writes it owes. A shutdown waits for them up to its deadline, then releases
 * the credits of the calls it abandons.
 */
import type { Held } from '../ledger/index.ts';

export class InFlight {
  private readonly work = new Set<Promise<unknown>>();
  private readonly holds = new Map<string, Held>();

  /** Follows `promise` until it settles; returns it unchanged. */
  track<T>(promise: Promise<T>): Promise<T> {
    const followed = promise.finally(() => this.work.delete(followed));
    this.work.add(followed);
    followed.catch(() => undefined);
    return promise;
  }

  holding(held: Held): void {
    if (held.credits > 0) this.holds.set(held.callId, held);
  }

  settled(callId: string): void {
    this.holds.delete(callId);
  }

  /** Waits until nothing is in flight or `deadline` (epoch ms) has passed; true when everything finished. */
  async drain(deadline: number): Promise<boolean> {
    while (this.work.size > 0) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...this.work]), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
      clearTimeout(timer);
    }
    return true;
  }

  /** The holds of calls that have not finished. */
  openHolds(): Held[] {
    return [...this.holds.values()];
  }
}

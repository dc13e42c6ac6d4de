/**
 * Per host group pacing: one p-queue per group for its concurrency, and request starts spaced at
 * least 1/rate apart (0.33/s: one start every 3.03 s, so never more than 20 in any minute). The clock
 * is injectable so that tests can run minutes of pacing without waiting for them.
 */
import PQueue from 'p-queue';
import { untilCancelled } from '../cancellation.ts';
import { realClock, type Clock } from '../clock.ts';
import { hostGroupLimit, type HostGroupLimit } from './sources.ts';

export class HostGroupLimiter {
  private readonly queues = new Map<string, PQueue>();
  /** When the next request of each group may start. */
  private readonly nextStart = new Map<string, number>();

  constructor(
    private readonly limitOf: (group: string) => HostGroupLimit = hostGroupLimit,
    private readonly clock: Clock = realClock,
  ) {}

  /** Runs `task` when the group's limits allow it; once `signal` aborts, a task still waiting for its turn is dropped (the promise rejects) without running. */
  run<T>(group: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.queue(group).add(
      async () => {
        await this.paced(group, signal);
        return task();
      },
      { signal },
    ) as Promise<T>;
  }

  /** Waits for the group's next start time and reserves the one after it (synchronously, so concurrent starts stay spaced); an abort ends the wait early. */
  private async paced(group: string, signal: AbortSignal | undefined): Promise<void> {
    const spacingMs = 1000 / this.limitOf(group).requestsPerSecond;
    const now = this.clock.now();
    const start = Math.max(now, this.nextStart.get(group) ?? now);
    this.nextStart.set(group, start + spacingMs);
    if (start > now) await untilCancelled(this.clock.sleep(start - now), signal);
  }

  private queue(group: string): PQueue {
    let queue = this.queues.get(group);
    if (!queue) {
      queue = new PQueue({ concurrency: Math.max(1, this.limitOf(group).concurrency) });
      this.queues.set(group, queue);
    }
    return queue;
  }

  /** Requests waiting or running in a group (for tests and logs). */
  pending(group: string): number {
    const queue = this.queues.get(group);
    return queue ? queue.size + queue.pending : 0;
  }
}

/**
 * Per host group pacing: one p-queue per group with the group's concurrency and request rate.
 * A rate below one request per second becomes one request per 1/rate seconds; above it, up to
 * `floor(rate)` requests per window of `floor(rate)/rate` seconds.
 */
import PQueue from 'p-queue';
import { hostGroupLimit, type HostGroupLimit } from './sources.ts';

export class HostGroupLimiter {
  private readonly queues = new Map<string, PQueue>();

  constructor(private readonly limitOf: (group: string) => HostGroupLimit = hostGroupLimit) {}

  /** Runs `task` when the group's limits allow it. */
  run<T>(group: string, task: () => Promise<T>): Promise<T> {
    return this.queue(group).add(task) as Promise<T>;
  }

  private queue(group: string): PQueue {
    let queue = this.queues.get(group);
    if (!queue) {
      const limit = this.limitOf(group);
      const intervalCap = Math.max(1, Math.floor(limit.requestsPerSecond));
      const interval = Math.ceil((intervalCap / limit.requestsPerSecond) * 1000);
      queue = new PQueue({ concurrency: Math.max(1, limit.concurrency), intervalCap, interval });
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

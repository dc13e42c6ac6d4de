/**
 * Per host group pacing: one p-queue per group for its concurrency, and request starts spaced at
 * least 1/rate apart (0.33/s: one start every 3.03 s, so never more than 20 in any minute). The clock
 * is injectable so that tests can run minutes of pacing without waiting for them.
 *
 * A group's limit is published for its own host. A source that also reads another host of its
 * provider (BLS's LABSTAT files on download.bls.gov beside its API on api.bls.gov) paces that host
 * in a lane of its own, at the group's limit: a long list download never holds the API's one slot.
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

  /**
   * Runs `task` when the group's limits allow it; once `signal` aborts, a task still waiting for its
   * turn is dropped (the promise rejects) without running. `otherHost`: the task asks a host other
   * than the group's own, paced in that host's lane.
   */
  run<T>(group: string, task: () => Promise<T>, signal?: AbortSignal, otherHost?: string): Promise<T> {
    const lane = laneOf(group, otherHost);
    return this.queue(group, lane).add(
      async () => {
        await this.paced(group, lane, signal);
        return task();
      },
      { signal },
    ) as Promise<T>;
  }

  /** Waits for the lane's next start time and reserves the one after it (synchronously, so concurrent starts stay spaced); an abort ends the wait early. */
  private async paced(group: string, lane: string, signal: AbortSignal | undefined): Promise<void> {
    const spacingMs = 1000 / this.limitOf(group).requestsPerSecond;
    const now = this.clock.now();
    const start = Math.max(now, this.nextStart.get(lane) ?? now);
    this.nextStart.set(lane, start + spacingMs);
    if (start > now) await untilCancelled(this.clock.sleep(start - now), signal);
  }

  private queue(group: string, lane: string): PQueue {
    let queue = this.queues.get(lane);
    if (!queue) {
      queue = new PQueue({ concurrency: Math.max(1, this.limitOf(group).concurrency) });
      this.queues.set(lane, queue);
    }
    return queue;
  }

  /** Requests waiting or running in a group's lane (for tests and logs). */
  pending(group: string, otherHost?: string): number {
    const queue = this.queues.get(laneOf(group, otherHost));
    return queue ? queue.size + queue.pending : 0;
  }
}

/** A newline cannot be in a group's name or a host: the lane of another host is told apart from every group. */
const laneOf = (group: string, otherHost: string | undefined) => (otherHost === undefined ? group : `${group}\n${otherHost}`);

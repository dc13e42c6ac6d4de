/**
 * A clock that never waits: `sleep(ms)` moves its time forward by `ms` and resolves on the next turn
 * of the event loop. Between sleeps it runs with the wall clock, so real durations (an upstream that
 * takes 300 ms to answer) still count against deadlines. Tests of retries and pacing use it so that
 * minutes of waiting take no time; `skippedMs` says how much waiting was skipped.
 */
import type { Clock } from '../../src/clock.ts';

export class FastForwardClock implements Clock {
  skippedMs = 0;

  now(): number {
    return Date.now() + this.skippedMs;
  }

  sleep(ms: number): Promise<void> {
    this.skippedMs += Math.max(0, ms);
    return new Promise((resolve) => setImmediate(resolve));
  }
}

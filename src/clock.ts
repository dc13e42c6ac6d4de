/**
 * Time as the service's waits see it: `now` for deadlines and `sleep` for retry delays and pacing.
 * The real one reads the wall clock; tests give one that moves forward at once instead of waiting.
 */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

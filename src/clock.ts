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

/** What `within` says of work that had not settled in time. */
export const LATE: unique symbol = Symbol('late');

/**
 * `work`'s value when it settles within `ms` (its rejection, when it fails in time), else LATE: the
 * work goes on, and whoever still needs its outcome keeps `work` itself. Real time, whatever `now` says.
 */
export function within<T>(work: Promise<T>, ms: number): Promise<T | typeof LATE> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof LATE>((resolve) => (timer = setTimeout(() => resolve(LATE), Math.max(0, ms))));
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** A turn of the event loop: long work (a catalogue read, an index filled) lets other calls run between its steps. */
export const nextTurn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

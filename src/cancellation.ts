/**
 * A call its caller cancelled (an agent's `notifications/cancelled`, or the agent closing the call's
 * stream): it fails with the code `cancelled` like any failed call — its held credits released, the
 * call log saying cancelled, nothing charged — and no answer goes out, since the caller has gone.
 */
import { ApiError } from './errors.ts';

export function cancelledError(): ApiError {
  return new ApiError('cancelled', 'the caller cancelled the call; nothing was charged');
}

/** `work`'s outcome, or the cancelled error as soon as `signal` aborts (the work itself stops through the same signal, but need not be waited for). */
export function untilCancelled<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(cancelledError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(cancelledError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (signal.aborted) reject(cancelledError());
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(signal.aborted ? cancelledError() : error);
      },
    );
  });
}

/**
 * Progress of a long tools/call, told to an agent that sent a progress token: nothing for a call
 * that ends within PROGRESS_AFTER_MS (most calls, answered from the cache or by one quick source);
 * after that, the last step reached so far, then each step as it comes. The progress value only
 * grows (the protocol's rule), and nothing is sent once the call has its result.
 */
import type { ProgressReporter } from '../tools/context.ts';

/** How long a call runs before its progress is told. */
export const PROGRESS_AFTER_MS = 1000;

export interface ProgressNotice {
  progress: number;
  total: number;
  message: string;
}

export interface ProgressRelay {
  report: ProgressReporter;
  /** The call has its result: no notice goes out after this. */
  stop(): void;
}

export function progressRelay(send: (notice: ProgressNotice) => void, afterMs = PROGRESS_AFTER_MS): ProgressRelay {
  let telling = false;
  let stopped = false;
  let sent = 0;
  let waiting: ProgressNotice | undefined;
  const tell = (notice: ProgressNotice): void => {
    if (stopped || notice.progress <= sent) return;
    sent = notice.progress;
    send(notice);
  };
  const timer = setTimeout(() => {
    telling = true;
    if (waiting) tell(waiting);
    waiting = undefined;
  }, afterMs);
  timer.unref();
  return {
    report(done, total, message) {
      const notice = { progress: done, total, message };
      if (telling) tell(notice);
      else if (!waiting || done > waiting.progress) waiting = notice;
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

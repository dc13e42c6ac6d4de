/**
 * Per-source circuit breakers (cockatiel): after UPSTREAM_BREAKER_FAILURES requests to a source fail
 * in a row (timeouts, network errors, 5xx, 429 after retries), the source is skipped at once for
 * UPSTREAM_BREAKER_PAUSE_MS (a call fails it in failedSources within milliseconds instead of
 * waiting out its timeout); then one request goes out as a probe, and its outcome closes the
 * breaker or opens it again. Requests of the same source that come while the probe is out are
 * skipped too. Breakers are kept in each process, like a cache: a process learns for itself that a
 * source is down, and each process probes it on its own. Changes and failures are also written
 * to the shared state for the operator's `sources status`. Cockatiel times the pause on the wall
 * clock.
 *
 * A request to a host other than the source's own (BLS's LABSTAT files beside its API) goes through
 * a breaker of that host, as it is paced in a lane of its own (./limits.ts): one of the two hosts
 * being down does not get the other skipped.
 */
import { hostname } from 'node:os';
import { BrokenCircuitError, CircuitState, ConsecutiveBreaker, circuitBreaker, handleWhen, type CircuitBreakerPolicy } from 'cockatiel';
import type { Logger } from 'pino';
import type { SourceId } from '../../generated/types.ts';
import { metrics } from '../metrics.ts';
import { UpstreamError } from './errors.ts';
import type { BreakerChange, SharedUpstreamState, SourceFailure } from './shared-state/index.ts';

export interface BreakerSettings {
  /** Failed requests in a row that open the breaker. */
  failures: number;
  /** How long an open breaker skips the source before one probe goes out. */
  pauseMs: number;
}

export const DEFAULT_BREAKER: BreakerSettings = { failures: 5, pauseMs: 30_000 };

/** `host:pid`: how a process names itself in the breaker changes it records. */
export const PROCESS_NAME = `${hostname()}:${process.pid}`;

/** The source is out (or refusing us): worth skipping for a while. A 4xx, a bad body or a spent budget is not. */
export function isOutage(error: unknown): boolean {
  if (!(error instanceof UpstreamError)) return false;
  if (error.kind === 'timeout' || error.kind === 'network' || error.kind === 'rate_limited') return true;
  return error.kind === 'http_error' && error.status !== undefined && error.status >= 500;
}

/** Failures that are the source's own, remembered as its last failure (not the ones this service made up without asking it). */
const NOT_ASKED = new Set(['budget_spent', 'circuit_open', 'not_configured']);

/** Failures written to the shared state at most this often per source and process. */
const FAILURE_WRITE_INTERVAL_MS = 1000;

const STATE_NAMES: Record<CircuitState, BreakerChange['state']> = {
  [CircuitState.Closed]: 'closed',
  [CircuitState.HalfOpen]: 'half-open',
  [CircuitState.Open]: 'open',
  [CircuitState.Isolated]: 'open',
};

interface SourceBreaker {
  source: SourceId;
  /** The host other than the source's own that this breaker is of; undefined for the source's own host. */
  otherHost?: string;
  policy: CircuitBreakerPolicy;
  openedAt: number;
  lastFailure?: SourceFailure;
  lastFailureWritten: number;
}

/** What a source's breaker is called in messages: the source, and the other host whose breaker it is. */
const nameOf = (source: SourceId, otherHost: string | undefined) => (otherHost === undefined ? source : `${source} (${otherHost})`);

export class Breakers {
  /** By source, or by source and other host: the `lane` of `breaker()`. */
  private readonly byLane = new Map<string, SourceBreaker>();

  constructor(
    private readonly settings: BreakerSettings,
    private readonly state: SharedUpstreamState,
    private readonly logger?: Logger,
  ) {}

  /**
   * Runs one request of `source` (with its retries) through the source's breaker, or the breaker of `otherHost` when it asks a
   * host other than the source's own; an open breaker fails it with `circuit_open` at once. `request` learns whether it is the
   * probe of a breaker whose pause is over: cockatiel only leaves the open state inside `execute`, so asking for the state before
   * it would still say open.
   */
  async run<T>(source: SourceId, request: (probe: boolean) => Promise<T>, otherHost?: string): Promise<T> {
    const breaker = this.breaker(source, otherHost);
    try {
      return await breaker.policy.execute(() => request(breaker.policy.state === CircuitState.HalfOpen));
    } catch (error) {
      if (error instanceof BrokenCircuitError) {
        const probeAt = new Date(breaker.openedAt + this.settings.pauseMs).toISOString();
        const last = breaker.lastFailure ? ` (last: ${breaker.lastFailure.message})` : '';
        throw new UpstreamError(
          source,
          'circuit_open',
          `${nameOf(source, otherHost)} was skipped: its last ${this.settings.failures} requests failed${last}; it is tried again after ${probeAt}`,
        );
      }
      if (error instanceof UpstreamError && !NOT_ASKED.has(error.kind)) this.noteFailure(source, breaker, error.message);
      throw error;
    }
  }

  /** The breaker state of a source (or of its other host) in this process. */
  stateOf(source: SourceId, otherHost?: string): BreakerChange['state'] {
    return STATE_NAMES[this.breaker(source, otherHost).policy.state];
  }

  /** Every source (and other host) this process has asked, with its breaker state and last failure here. */
  snapshot(): Array<{ source: SourceId; otherHost?: string; state: BreakerChange['state']; lastFailure?: SourceFailure }> {
    return [...this.byLane.values()].map(({ source, otherHost, policy, lastFailure }) => ({
      source,
      ...(otherHost === undefined ? {} : { otherHost }),
      state: STATE_NAMES[policy.state],
      lastFailure,
    }));
  }

  private breaker(source: SourceId, otherHost: string | undefined): SourceBreaker {
    const lane = otherHost === undefined ? source : `${source}\n${otherHost}`;
    let breaker = this.byLane.get(lane);
    if (breaker) return breaker;
    const policy = circuitBreaker(handleWhen(isOutage), {
      halfOpenAfter: this.settings.pauseMs,
      breaker: new ConsecutiveBreaker(this.settings.failures),
    });
    breaker = { source, otherHost, policy, openedAt: 0, lastFailureWritten: 0 };
    const kept = breaker;
    policy.onBreak(() => (kept.openedAt = Date.now()));
    policy.onStateChange((state) => {
      const change: BreakerChange = { state: STATE_NAMES[state], at: Date.now(), process: PROCESS_NAME, ...(otherHost === undefined ? {} : { otherHost }) };
      const log = { source, other_host: otherHost, state: change.state, last_failure: kept.lastFailure?.message };
      if (change.state === 'open') this.logger?.warn(log, `upstream source skipped for ${this.settings.pauseMs} ms: its circuit breaker opened`);
      else this.logger?.info(log, `upstream circuit breaker ${change.state}`);
      metrics.breakerState(source, otherHost, change.state);
      void this.state
        .recordBreaker(source, change)
        .catch((error: unknown) => this.logger?.warn({ err: (error as Error).message }, 'breaker change not stored'));
    });
    this.byLane.set(lane, breaker);
    metrics.breakerState(source, otherHost, 'closed');
    return breaker;
  }

  private noteFailure(source: SourceId, breaker: SourceBreaker, message: string): void {
    const failure = { at: Date.now(), message };
    breaker.lastFailure = failure;
    metrics.upstreamFailureTime(source, failure.at / 1000);
    if (failure.at - breaker.lastFailureWritten < FAILURE_WRITE_INTERVAL_MS) return;
    breaker.lastFailureWritten = failure.at;
    void this.state
      .recordFailure(source, failure)
      .catch((error: unknown) => this.logger?.warn({ err: (error as Error).message }, 'upstream failure not stored'));
  }
}

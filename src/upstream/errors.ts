/**
 * What can go wrong when asking an upstream source, as a value: the tool layer turns these into
 * `failedSources` entries or, when no source answered, one 502 upstream_error.
 */
export type UpstreamFailureKind =
  | 'not_configured'
  | 'timeout'
  | 'rate_limited'
  | 'http_error'
  | 'network'
  | 'bad_body'
  /** A body longer than the source's max_body_bytes (counted after decompression). */
  | 'too_large'
  /** A redirect that is not followed: to another host, or more than the source allows. */
  | 'redirect'
  /** Not sent: a budget of the source is spent (counted here, or said by the source), or could not be counted. */
  | 'budget_spent'
  /** Not sent: the source's circuit breaker is open after repeated failures. */
  | 'circuit_open';

export class UpstreamError extends Error {
  /** How long the upstream asked us to wait before asking again (its Retry-After), when it said. */
  retryAfterMs?: number;

  constructor(
    readonly source: string,
    readonly kind: UpstreamFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }

  /** Worth another attempt: the same request may well succeed a moment later. */
  get retryable(): boolean {
    if (this.kind === 'timeout' || this.kind === 'network' || this.kind === 'rate_limited') return true;
    return this.kind === 'http_error' && this.status !== undefined && this.status >= 500;
  }
}

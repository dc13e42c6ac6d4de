/**
 * Errors are values with a code. Every error answer of the API is made from an ApiError, and the
 * error middleware at the end of the app is the one place where anything becomes an HTTP status.
 */
export type ErrorCode =
  | 'invalid_input'
  | 'unauthorized'
  | 'insufficient_credits'
  | 'pack_disabled'
  | 'forbidden'
  | 'unknown_tool'
  | 'not_found'
  | 'method_not_allowed'
  | 'not_acceptable'
  | 'idempotency_in_progress'
  | 'idempotency_key_reused'
  | 'payload_too_large'
  | 'rate_limited'
  | 'upstream_error'
  | 'internal'
  | 'temporarily_unavailable';

const statusOf: Record<ErrorCode, number> = {
  invalid_input: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  pack_disabled: 403,
  // The account settings page: a state-changing request without the session's CSRF token.
  forbidden: 403,
  unknown_tool: 404,
  not_found: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  // Idempotency-Key (src/server/idempotency.ts): the first request with the key is still running, or it had another body.
  idempotency_in_progress: 409,
  idempotency_key_reused: 422,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  upstream_error: 502,
  // The call could not get its credits in time (a locked or overloaded database); nothing was charged.
  temporarily_unavailable: 503,
};

export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get status(): number {
    return statusOf[this.code];
  }
}

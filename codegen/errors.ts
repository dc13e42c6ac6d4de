/**
 * The one list of error codes: each code's HTTP status, and for the errors a tool call can answer,
 * the OpenAPI response component that publishes it. codegen writes generated/errors.ts from it (the
 * service's ApiError takes its codes and statuses from there) and the error responses of openapi.json.
 */
export interface ErrorDefinition {
  code: string;
  status: number;
  /** The response component of openapi.json, for errors of a tool call; absent for errors of other addresses. */
  response?: string;
  /** A status the call log records but no client ever receives (kept out of the published error codes). */
  neverAnswered?: true;
  description: string;
}

export const ERRORS: readonly ErrorDefinition[] = [
  {
    code: 'invalid_input',
    status: 400,
    response: 'InvalidInput',
    description: "The arguments do not match the tool's schema (the message names the fields), the body is not a JSON object, or the content type is not JSON.",
  },
  { code: 'unauthorized', status: 401, response: 'Unauthorized', description: 'The API key is missing or not valid.' },
  { code: 'insufficient_credits', status: 402, response: 'InsufficientCredits', description: 'The account has not enough credits for the call.' },
  { code: 'pack_disabled', status: 403, response: 'PackDisabled', description: "The tool's discipline pack is switched off for the account." },
  { code: 'unknown_tool', status: 404, response: 'UnknownTool', description: 'No tool has the name in the path.' },
  {
    code: 'not_found',
    status: 404,
    response: 'NotFound',
    description: 'Nothing at this address; in the account settings, no such key in the account or no such pack.',
  },
  // The account settings page (not part of the published API): a change without the session's CSRF token, or sent from another site.
  { code: 'forbidden', status: 403, description: "A change to the account settings without the session's CSRF token, or sent from another site." },
  { code: 'method_not_allowed', status: 405, description: 'The address exists but not for this HTTP method.' },
  { code: 'not_acceptable', status: 406, response: 'NotAcceptable', description: 'The Accept header asks for no format this address answers.' },
  {
    code: 'idempotency_in_progress',
    status: 409,
    response: 'IdempotencyInProgress',
    description: 'The first request with this Idempotency-Key is still running; retry shortly to get its answer.',
  },
  { code: 'payload_too_large', status: 413, response: 'PayloadTooLarge', description: 'The request body is larger than the limit.' },
  {
    code: 'idempotency_key_reused',
    status: 422,
    response: 'IdempotencyKeyReused',
    description: 'This Idempotency-Key was used with a different request in the last 24 hours; use a new key.',
  },
  {
    code: 'rate_limited',
    status: 429,
    response: 'RateLimited',
    description:
      "Too many requests: with this key, or with all of the account's keys together, in a minute; new keys in an hour; or failed key attempts from this address. Wait the seconds given in Retry-After.",
  },
  // Never answered: the caller that cancelled has gone. The call log says it, and nothing is charged.
  {
    code: 'cancelled',
    status: 499,
    neverAnswered: true,
    description: 'The caller cancelled the call before it finished (an agent cancelled it or closed its stream); nothing is charged.',
  },
  { code: 'internal', status: 500, response: 'Internal', description: 'Unexpected server-side failure.' },
  {
    code: 'upstream_error',
    status: 502,
    response: 'UpstreamError',
    description: 'The tool could not complete, for example because no source answered. Nothing is charged.',
  },
  {
    code: 'temporarily_unavailable',
    status: 503,
    response: 'TemporarilyUnavailable',
    description:
      "The account's credits could not be reached in time (the database is locked or overloaded). Nothing is charged; try again after the seconds given in Retry-After.",
  },
];

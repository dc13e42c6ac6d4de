/** The one place where an error becomes an HTTP answer: the spec's JSON error object, never HTML. */
import type { ErrorRequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError } from '../errors.ts';
import { LedgerError } from '../ledger/index.ts';
import { isTransient } from '../database/index.ts';

/** The error body; an error that carries Retry-After also says in the body when to retry (`retry_after_s`). */
export function errorBody(error: ApiError): { error: { code: string; message: string; retry_after_s?: number } } {
  const retryAfter = Number(error.headers['Retry-After']);
  return { error: { code: error.code, message: error.message, ...(Number.isInteger(retryAfter) && retryAfter >= 0 ? { retry_after_s: retryAfter } : {}) } };
}

export function sendError(response: Response, error: ApiError): void {
  response.status(error.status).set(error.headers).json(errorBody(error));
}

/** Errors thrown by body parsing (express.json) carry a `type`; map the ones a client can cause. */
function fromBodyParser(error: { type?: string; status?: number; limit?: number }): ApiError | undefined {
  switch (error.type) {
    case 'entity.parse.failed':
      return new ApiError('invalid_input', 'body: not valid JSON');
    case 'entity.too.large':
      return new ApiError('payload_too_large', `body: larger than the limit of ${error.limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('invalid_input', 'body: unsupported encoding or charset; send UTF-8 JSON');
    case 'request.aborted':
    case 'request.size.invalid':
      return new ApiError('invalid_input', 'body: the request body was incomplete');
    default:
      return undefined;
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof LedgerError && (error.code === 'not_found' || error.code === 'invalid_input')) return new ApiError(error.code, error.message);
  if (error instanceof LedgerError && error.code === 'busy') {
    return new ApiError('temporarily_unavailable', `${error.message}; nothing was charged, try again shortly`, { 'Retry-After': '1' });
  }
  // A lock, a statement or connection timeout, a lost connection: a charged call's credits were released (or the reconciler will).
  if (isTransient(error))
    return new ApiError('temporarily_unavailable', 'the database is busy; nothing was charged, try again shortly', { 'Retry-After': '1' });
  // A path parameter that is not valid percent-encoding (the router could not decode it).
  if (error instanceof URIError) return new ApiError('invalid_input', 'the path is not valid percent-encoding');
  if (error && typeof error === 'object') {
    const mapped = fromBodyParser(error as { type?: string });
    if (mapped) return mapped;
  }
  return new ApiError('internal', 'unexpected server-side failure');
}

export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, request, response, _next) => {
    const apiError = toApiError(error);
    if (apiError.code === 'internal') {
      logger.error({ err: error, method: request.method, path: request.path }, 'unexpected failure');
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    sendError(response, apiError);
  };
}

/**
 * The Accept header of the addresses that answer JSON only (the tool list and descriptions, the
 * OpenAPI document, the account endpoints): an Accept that admits no JSON is 406 not_acceptable, as
 * for a tool call (citation-export.ts negotiates the formats of tool calls). Media-type parameters
 * are understood: JSON is offered as the server sends it, `application/json; charset=utf-8`.
 */
import type { Request, RequestHandler } from 'express';
import { ApiError, clip } from '../errors.ts';

export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8';

/** Throws 406 when the request's Accept admits no JSON (no Accept at all admits anything). */
export function requireJsonAccepted(request: Request): void {
  if (request.accepts(JSON_MEDIA_TYPE) === false) {
    throw new ApiError('not_acceptable', `Accept: this address answers application/json only, not "${clip(request.get('accept') ?? '')}"`);
  }
}

/** requireJsonAccepted as a route's first handler. */
export const jsonAccepted: RequestHandler = (request, _response, next) => {
  requireJsonAccepted(request);
  next();
};

/**
 * A wrong method on an address that exists is 405 method_not_allowed with an `Allow` header naming
 * the methods it serves (RFC 9110 15.5.6), never a 404: registered after an address's own routes,
 * `refuseOtherMethods` answers every other method. HEAD is served wherever GET is (Express answers
 * it from the GET route), so it is named with it.
 */
import type { Request, Router } from 'express';
import { ApiError } from '../errors.ts';

/** The `Allow` value of an address serving `methods`: HEAD added after GET. */
export function allowHeader(methods: readonly string[]): string {
  return methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])).join(', ');
}

export function methodNotAllowed(method: string, methods: readonly string[]): ApiError {
  const allow = allowHeader(methods);
  return new ApiError('method_not_allowed', `${method} is not allowed here: use ${allow}`, { Allow: allow });
}

/**
 * Answers the methods of `path` other than `methods` with 405. With `exists`, only requests it
 * accepts (an address whose parameter names something real); the others go on to the 404.
 */
export function refuseOtherMethods(router: Router, path: string | string[], methods: readonly string[], exists?: (request: Request) => boolean): void {
  router.all(path, (request, _response, next) => {
    if (exists && !exists(request)) return next();
    throw methodNotAllowed(request.method, methods);
  });
}

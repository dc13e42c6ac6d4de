/**
 * helmet's security headers on every answer, worked out once at start: with its defaults they do not
 * depend on the request, and running helmet's thirteen middlewares on every call cost about a
 * fourteenth of a free call's CPU (docs/benchmarks.md). Routers that need another policy (the docs
 * page) set their own header on top, as with helmet itself.
 */
import type { RequestHandler } from 'express';
import helmet from 'helmet';

export function securityHeaders(): RequestHandler {
  const headers: Record<string, string> = {};
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name] = String(value);
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  helmet()(recorder as never, recorder as never, (error?: unknown) => {
    if (error) throw error;
  });
  return (_request, response, next) => {
    response.set(headers);
    for (const name of removed) response.removeHeader(name);
    next();
  };
}

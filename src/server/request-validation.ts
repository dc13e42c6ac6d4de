/**
 * Request bodies are checked by express-openapi-validator against generated/openapi.json, the same
 * document the API publishes. Its errors become one 400 invalid_input naming each field and why.
 */
import type { Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { ApiError } from '../errors.ts';

interface ValidatorIssue {
  path?: string;
  message?: string;
  errorCode?: string;
  params?: { additionalProperty?: string };
}

/** `/body/limit` or `.body.limit` → `limit`; the body itself → `body`. */
function fieldName(issue: ValidatorIssue): string {
  const path = (issue.path ?? '').replace(/^[./]?body[./]?/, '').replace(/\//g, '.');
  const extra = issue.params?.additionalProperty;
  if (extra) return path ? `${path}.${extra}` : extra;
  return path || 'body';
}

function describe(issue: ValidatorIssue): string {
  if (issue.params?.additionalProperty || /additional properties/.test(issue.message ?? '')) return 'unknown argument';
  return (issue.message ?? 'is not valid').replace(/^must NOT have/, 'must not have');
}

export function formatValidationErrors(issues: ValidatorIssue[]): string {
  const lines = issues.map((issue) => `${fieldName(issue)}: ${describe(issue)}`);
  return [...new Set(lines)].join('; ');
}

function run(middleware: RequestHandler, request: Request, response: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    middleware(request, response, (error?: unknown) => (error ? reject(error) : resolve()));
  });
}

/** Returns a function that resolves when the request's body matches its operation, or throws ApiError. */
export function createRequestValidator(apiSpec: object): (request: Request, response: Response) => Promise<void> {
  const middlewares = OpenApiValidator.middleware({
    apiSpec: structuredClone(apiSpec) as never,
    validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false, allErrors: true },
    validateResponses: false,
    validateSecurity: false,
    validateApiSpec: false,
    ignoreUndocumented: true,
  }) as RequestHandler[];
  return async (request, response) => {
    try {
      for (const middleware of middlewares) await run(middleware, request, response);
    } catch (error) {
      const issues = (error as { errors?: ValidatorIssue[] }).errors;
      if (Array.isArray(issues) && issues.length > 0) throw new ApiError('invalid_input', formatValidationErrors(issues));
      throw error;
    }
  };
}

/**
 * REST request bodies are checked by express-openapi-validator against generated/openapi.json, the
 * same document the API publishes; MCP tool arguments (no HTTP request of their own) by Ajv against
 * the same input schema. Either's errors become one invalid_input naming each field and why (the
 * first MAX_NAMED_PROBLEMS of them, and how many more). Before the schema, every string of the
 * arguments must be well-formed Unicode: a lone surrogate cannot be encoded for any upstream.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { Request, RequestHandler, Response } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import type { ToolMetadata } from '../../generated/tools.ts';
import { ApiError, clip } from '../errors.ts';

// ajv-formats is CommonJS; under Node's ESM loader its default export is the plugin itself.
const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

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

/**
 * Patterns of tools.yaml said in words (a client reads "must not contain control characters", not
 * the regular expression); any other pattern is quoted as it is.
 */
export const PATTERN_WORDS: Readonly<Record<string, string>> = {
  '^[^\\0-\\x08\\v\\f\\x0E-\\x1F\\uFFFE\\uFFFF]*$': 'must not contain control characters (tab, line feed and carriage return are allowed)',
  '^(?:\\s*0*[1-9][0-9]{0,14}\\s*|[\\s\\S]*[^\\s0-9][\\s\\S]*)$': 'digits alone are a PubChem CID: a whole number from 1 to 999999999999999',
};

function describe(issue: ValidatorIssue): string {
  if (issue.params?.additionalProperty || /additional properties/.test(issue.message ?? '')) return 'unknown argument';
  const pattern = /^must match pattern "(.*)"$/s.exec(issue.message ?? '')?.[1];
  if (pattern !== undefined && Object.hasOwn(PATTERN_WORDS, pattern)) return PATTERN_WORDS[pattern]!;
  return (issue.message ?? 'is not valid').replace(/^must NOT have/, 'must not have');
}

/** Problems an invalid_input message names; past them it says how many more there are (the message, and a stored answer, stay small). */
export const MAX_NAMED_PROBLEMS = 20;
/** Characters of one problem (a field named by a client can be long). */
const MAX_PROBLEM_LENGTH = 200;

/** `field: why` lines joined with `; `: at most MAX_NAMED_PROBLEMS of them, then `and N more`. */
export function listProblems(lines: readonly string[]): string {
  const distinct = [...new Set(lines.map((line) => clip(line, MAX_PROBLEM_LENGTH)))];
  if (distinct.length <= MAX_NAMED_PROBLEMS) return distinct.join('; ');
  const more = distinct.length - MAX_NAMED_PROBLEMS;
  return `${distinct.slice(0, MAX_NAMED_PROBLEMS).join('; ')}; and ${more} more problem${more === 1 ? '' : 's'}`;
}

export function formatValidationErrors(issues: ValidatorIssue[]): string {
  return listProblems(issues.map((issue) => `${fieldName(issue)}: ${describe(issue)}`));
}

/** A string holding a UTF-16 surrogate without its pair: valid JSON, but no text (encodeURIComponent throws on it). */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** The fields (`journal`, `labels.2`) of `value` whose strings, or names, hold a lone surrogate. */
export function fieldsWithLoneSurrogates(value: unknown, path = ''): string[] {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? [path || 'body'] : [];
  if (value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  return entries.flatMap(([name, inner]) => {
    const field = path ? `${path}.${name}` : name;
    return LONE_SURROGATE.test(name) ? [path || 'body'] : fieldsWithLoneSurrogates(inner, field);
  });
}

/** Throws invalid_input naming the fields whose text is not well-formed Unicode. */
function requireWellFormedText(args: unknown): void {
  const fields = fieldsWithLoneSurrogates(args);
  if (fields.length > 0)
    throw new ApiError('invalid_input', listProblems(fields.map((field) => `${field}: must be text without a lone UTF-16 surrogate (\\uD800-\\uDFFF)`)));
}

function run(middleware: RequestHandler, request: Request, response: Response): Promise<void> {
  return new Promise((resolve, reject) => {
    middleware(request, response, (error?: unknown) => (error ? reject(error) : resolve()));
  });
}

type ApiDocument = { paths: Record<string, unknown>; components?: Record<string, Record<string, unknown>> };

/** The validators of each document's paths, shared by every app of the process (tests make many). */
const validatorsByDocument = new WeakMap<object, Map<string, RequestHandler[]>>();

function validatorFor(apiSpec: ApiDocument, path: string): RequestHandler[] {
  let validators = validatorsByDocument.get(apiSpec);
  if (!validators) validatorsByDocument.set(apiSpec, (validators = new Map()));
  const key = Object.hasOwn(apiSpec.paths, path) ? path : '';
  let middlewares = validators.get(key);
  if (!middlewares) {
    middlewares = OpenApiValidator.middleware({
      apiSpec: structuredClone(key ? documentOfPath(apiSpec, key) : apiSpec) as never,
      validateRequests: { allowUnknownQueryParameters: true, coerceTypes: false, removeAdditional: false, allErrors: true },
      // Formats checked in full, as the MCP path's Ajv and the published schema mean them: 2023-02-30 is no date.
      ajvFormats: { mode: 'full' },
      validateResponses: false,
      validateSecurity: false,
      validateApiSpec: false,
      ignoreUndocumented: true,
    }) as RequestHandler[];
    validators.set(key, middlewares);
  }
  return middlewares;
}

/** The document with only `path` and the components it refers to, directly or through other components. */
function documentOfPath(apiSpec: ApiDocument, path: string): object {
  const components: Record<string, Record<string, unknown>> = {};
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') {
      for (const [field, inner] of Object.entries(value)) {
        const target = field === '$ref' && typeof inner === 'string' ? /^#\/components\/([^/]+)\/([^/]+)$/.exec(inner) : null;
        if (!target) visit(inner);
        else {
          const [, section, name] = target as unknown as [string, string, string];
          const component = apiSpec.components?.[section]?.[name];
          if (component !== undefined && components[section]?.[name] === undefined) {
            (components[section] ??= {})[name] = component;
            visit(component);
          }
        }
      }
    }
  };
  visit(apiSpec.paths[path]);
  return { ...apiSpec, paths: { [path]: apiSpec.paths[path] }, components };
}

/**
 * Returns a function that resolves when the request's body matches its operation, or throws ApiError.
 * express-openapi-validator finds a request's operation by trying every path of its document in
 * turn; so each path gets a validator of its own, made on the path's first request (some tens of
 * milliseconds, once per process), from a document holding that path and the components it uses.
 */
export function createRequestValidator(apiSpec: ApiDocument): (request: Request, response: Response) => Promise<void> {
  return async (request, response) => {
    requireWellFormedText(request.body);
    try {
      for (const middleware of validatorFor(apiSpec, request.path)) await run(middleware, request, response);
    } catch (error) {
      const issues = (error as { errors?: ValidatorIssue[] }).errors;
      if (Array.isArray(issues) && issues.length > 0) throw new ApiError('invalid_input', formatValidationErrors(issues));
      throw error;
    }
  };
}

/** An Ajv error as the issue express-openapi-validator would report for the same argument. */
function asIssue(error: ErrorObject): ValidatorIssue {
  const missing = (error.params as { missingProperty?: string }).missingProperty;
  const path = missing === undefined ? error.instancePath : `${error.instancePath}/${missing}`;
  return { path: path.replace(/^\//, ''), message: error.message, params: error.params as ValidatorIssue['params'] };
}

/** Returns a function that checks a tool's arguments against its input schema, or throws ApiError. */
export function createArgumentValidator(): (tool: ToolMetadata, args: unknown) => Record<string, unknown> {
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction>();
  return (tool, args) => {
    requireWellFormedText(args);
    let validate = compiled.get(tool.name);
    if (!validate) {
      validate = ajv.compile(tool.inputSchema as object);
      compiled.set(tool.name, validate);
    }
    if (!validate(args)) throw new ApiError('invalid_input', formatValidationErrors((validate.errors ?? []).map(asIssue)));
    return args as Record<string, unknown>;
  };
}

/**
 * Checks every JSON answer against the response schema generated/openapi.json publishes for its
 * operation and status, so a handler that drifts from the published interface fails at once. On in
 * tests (NODE_ENV=test); an answer that does not match is replaced by a 500 naming the mismatch, and
 * is recorded in `responseValidationFailures` (the test suite fails any test that left one there).
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule, { type FormatsPlugin } from 'ajv-formats';
import type { RequestHandler } from 'express';

const addFormats = ((formatsModule as unknown as { default?: FormatsPlugin }).default ?? formatsModule) as FormatsPlugin;

export interface ResponseValidationFailure {
  operation: string;
  status: number;
  problem: string;
}

/** Failures since the list was last emptied (the test suite's hook empties it). */
export const responseValidationFailures: ResponseValidationFailure[] = [];

type Json = Record<string, unknown>;

const SPEC_ID = 'openapi.json';

function pointerPart(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Follows a local `$ref` (`#/components/responses/X`) to the node and its JSON pointer. */
function follow(spec: Json, node: Json, pointer: string): { node: Json; pointer: string } {
  let current = { node, pointer };
  for (let hops = 0; typeof current.node.$ref === 'string' && hops < 10; hops++) {
    const ref = (current.node.$ref as string).replace(/^#/, '');
    let target: unknown = spec;
    for (const part of ref.split('/').slice(1)) target = (target as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    current = { node: target as Json, pointer: ref };
  }
  return current;
}

export function createResponseValidator(apiSpec: object): RequestHandler {
  const spec = structuredClone(apiSpec) as Json;
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  ajv.addSchema(spec, SPEC_ID);
  const paths = Object.keys((spec.paths ?? {}) as Json).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const compiled = new Map<string, ValidateFunction | undefined>();

  /** The validator of the JSON schema for this operation and status; undefined when the document declares none. */
  function validatorFor(template: string, method: string, status: number): ValidateFunction | string | undefined {
    const operation = ((spec.paths as Json)[template] as Json)[method] as Json | undefined;
    if (!operation) return undefined; // a method the document does not publish (its 405 is not an operation's answer)
    const responses = (operation.responses ?? {}) as Json;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((candidate) => candidate in responses);
    if (key === undefined) return `status ${status} is not declared for ${method.toUpperCase()} ${template}`;
    const cacheKey = `${template} ${method} ${key}`;
    if (!compiled.has(cacheKey)) {
      const start = `/paths/${pointerPart(template)}/${method}/responses/${pointerPart(key)}`;
      const { node, pointer } = follow(spec, responses[key] as Json, start);
      const schema = ((node.content as Json | undefined)?.['application/json'] as Json | undefined)?.schema;
      compiled.set(cacheKey, schema === undefined ? undefined : ajv.compile({ $ref: `${SPEC_ID}#${pointer}/content/application~1json/schema` }));
    }
    return compiled.get(cacheKey);
  }

  return (request, response, next) => {
    const template = paths.find(({ pattern }) => pattern.test(request.path))?.template;
    if (template === undefined) {
      next();
      return;
    }
    const json = response.json.bind(response);
    response.json = (body: unknown) => {
      const validator = validatorFor(template, request.method.toLowerCase(), response.statusCode);
      let problem: string | undefined;
      if (typeof validator === 'string') problem = validator;
      else if (validator && !validator(body)) {
        problem = (validator.errors ?? [])
          .map(
            (error) =>
              `${error.instancePath || '(body)'} ${error.message ?? 'is not valid'}${error.params && 'allowedValues' in error.params ? ` ${JSON.stringify(error.params.allowedValues)}` : ''}`,
          )
          .join('; ');
      }
      if (problem === undefined) return json(body);
      const operation = `${request.method} ${request.path}`;
      const status = response.statusCode;
      responseValidationFailures.push({ operation, status, problem });
      return response
        .status(500)
        .type('application/json')
        .send(
          JSON.stringify({
            error: { code: 'internal', message: `the answer of ${operation} (status ${status}) does not match generated/openapi.json: ${problem}` },
          }),
        );
    };
    next();
  };
}

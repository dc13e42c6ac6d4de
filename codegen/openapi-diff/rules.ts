/**
 * The policy: every rule id the OpenAPI diff can report, its level, and the reason for each
 * deliberate choice. Rule ids and levels follow oasdiff's checker wherever oasdiff has the rule;
 * `why` says where we chose differently (or where oasdiff and openapi-diff disagree).
 *
 * ERR  breaking: an existing client can fail.
 * WARN possibly breaking: depends on how clients behave.
 * INFO not breaking: worth a changelog line.
 */

export type Level = 'ERR' | 'WARN' | 'INFO';

export const LEVELS: readonly Level[] = ['INFO', 'WARN', 'ERR'];

export function levelRank(level: Level): number {
  return LEVELS.indexOf(level);
}

export interface Rule {
  id: string;
  level: Level;
  /** One row of the policy table (docs/api-compatibility.md); several location variants of one check share a row. */
  row: string;
  section: string;
  text: string;
  why?: string;
}

const rules: Rule[] = [];

function add(section: string, row: string, id: string, level: Level, text: string, why?: string): void {
  rules.push({ id, level, row, section, text, ...(why ? { why } : {}) });
}

function single(section: string, id: string, level: Level, text: string, why?: string): void {
  add(section, id, id, level, text, why);
}

/** Where a schema sits: the rule id starts with this prefix. */
export const REQUEST_PREFIXES = ['request-body', 'request-property', 'request-parameter', 'request-parameter-property'] as const;
export const RESPONSE_PREFIXES = ['response-body', 'response-property'] as const;
export type SchemaPrefix = (typeof REQUEST_PREFIXES)[number] | (typeof RESPONSE_PREFIXES)[number] | 'response-header';

function variants(section: string, prefixes: readonly string[], suffix: string, level: Level, text: string, why?: string, row?: string): void {
  const key = row ?? `${prefixes.length > 1 ? '*' : prefixes[0]}-${suffix}@${prefixes[0]!.split('-')[0]}`;
  for (const prefix of prefixes) add(section, key, `${prefix}-${suffix}`, level, text, why);
}

const REQ = REQUEST_PREFIXES;
const RES = RESPONSE_PREFIXES;

// ---- paths and operations
const P = 'Paths and operations';
single(P, 'endpoint-added', 'INFO', 'an operation was added');
single(P, 'api-path-removed-without-deprecation', 'ERR', 'a whole path was removed; its operation was not deprecated first');
single(
  P,
  'api-path-removed-with-deprecation',
  'INFO',
  'a whole path was removed; its operation was deprecated, or draft/alpha (x-stability-level), and any sunset date has passed',
);
single(P, 'api-path-removed-before-sunset', 'ERR', 'a whole path was removed before the sunset date of its deprecated operation');
single(P, 'api-removed-without-deprecation', 'ERR', 'an operation was removed without being deprecated first');
single(P, 'api-removed-with-deprecation', 'INFO', 'a deprecated (or draft/alpha) operation was removed; no sunset date, or it has passed');
single(P, 'api-removed-before-sunset', 'ERR', 'a deprecated operation was removed before its sunset date');
single(P, 'endpoint-deprecated', 'INFO', 'an operation was marked deprecated');
single(P, 'endpoint-deprecated-with-sunset', 'INFO', 'an operation was marked deprecated with a sunset date (x-sunset)');
single(P, 'endpoint-reactivated', 'INFO', 'an operation is no longer deprecated');
single(P, 'sunset-deleted', 'ERR', 'a deprecated operation lost its sunset date');
single(P, 'api-invalid-stability-level', 'ERR', 'x-stability-level is not one of draft, alpha, beta, stable');
single(P, 'api-stability-decreased', 'ERR', 'x-stability-level went down (for example stable to beta)');
single(P, 'api-operation-id-removed', 'INFO', 'an operationId was removed or renamed');
single(P, 'api-operation-id-added', 'INFO', 'an operationId was added');
single(P, 'api-tag-removed', 'INFO', 'a tag was removed from an operation');
single(P, 'api-tag-added', 'INFO', 'a tag was added to an operation');
single(P, 'webhook-added', 'INFO', 'an OpenAPI 3.1 webhook was added');
single(P, 'webhook-removed', 'ERR', 'an OpenAPI 3.1 webhook was removed');

// ---- parameters
const PA = 'Parameters';
single(PA, 'new-required-request-parameter', 'ERR', 'a required parameter was added to an operation');
single(PA, 'new-optional-request-parameter', 'INFO', 'an optional parameter was added to an operation');
single(PA, 'new-required-request-default-parameter-to-existing-path', 'ERR', 'a required path-level parameter was added to an existing path');
single(PA, 'new-optional-request-default-parameter-to-existing-path', 'INFO', 'an optional path-level parameter was added to an existing path');
single(
  PA,
  'request-parameter-removed',
  'WARN',
  'a parameter was removed without deprecation (servers usually ignore unknown query parameters and headers)',
  'oasdiff says WARN, openapi-diff says incompatible. We follow oasdiff: a client that still sends the parameter is not rejected by a server that ignores unknown parameters, but its meaning is lost.',
);
single(PA, 'request-parameter-removed-with-deprecation', 'INFO', 'a deprecated parameter was removed (no sunset date, or it has passed)');
single(PA, 'request-parameter-removed-before-sunset', 'ERR', 'a deprecated parameter was removed before its sunset date');
single(PA, 'request-parameter-became-required', 'ERR', 'an optional parameter became required');
single(PA, 'request-parameter-became-optional', 'INFO', 'a required parameter became optional');
single(PA, 'request-parameter-deprecated', 'INFO', 'a parameter was marked deprecated');
single(PA, 'request-parameter-reactivated', 'INFO', 'a parameter is no longer deprecated');
single(PA, 'request-parameter-default-value-added', 'ERR', 'a parameter got a default value (clients that omit it now get different behaviour)');
single(PA, 'request-parameter-default-value-removed', 'ERR', 'a parameter lost its default value');
single(PA, 'request-parameter-default-value-changed', 'ERR', 'a parameter default value changed');

// ---- request bodies
const RB = 'Request bodies';
single(RB, 'request-body-added-required', 'ERR', 'a required request body was added to an operation');
single(RB, 'request-body-added-optional', 'INFO', 'an optional request body was added to an operation');
single(RB, 'request-body-removed', 'ERR', 'the request body was removed');
single(RB, 'request-body-became-required', 'ERR', 'the request body became required');
single(RB, 'request-body-became-optional', 'INFO', 'the request body became optional');
single(RB, 'request-body-media-type-added', 'INFO', 'a request media type was added');
single(RB, 'request-body-media-type-removed', 'ERR', 'a request media type was removed');
single(RB, 'request-body-media-type-schema-added', 'ERR', 'a schema appeared in a request media type that had none');
single(RB, 'request-body-media-type-schema-removed', 'INFO', 'the schema of a request media type was removed');

// ---- responses and headers
const RS = 'Responses and headers';
single(RS, 'response-success-status-removed', 'ERR', 'a 2xx response status was removed');
single(RS, 'response-success-status-added', 'INFO', 'a 2xx response status was added');
single(RS, 'response-non-success-status-removed', 'INFO', 'a non-2xx response status (or default) was removed');
single(RS, 'response-non-success-status-added', 'INFO', 'a non-2xx response status (or default) was added');
single(RS, 'response-media-type-removed', 'ERR', 'a response media type was removed');
single(RS, 'response-media-type-added', 'INFO', 'a response media type was added');
single(RS, 'response-body-media-type-schema-added', 'INFO', 'a schema appeared in a response media type that had none');
single(RS, 'response-body-media-type-schema-removed', 'WARN', 'the schema of a response media type was removed');
single(RS, 'response-header-added', 'INFO', 'a response header was added');
single(RS, 'required-response-header-removed', 'ERR', 'a required response header was removed');
single(RS, 'optional-response-header-removed', 'WARN', 'an optional response header was removed');
single(RS, 'response-header-became-optional', 'ERR', 'a required response header became optional');
single(RS, 'response-header-became-required', 'INFO', 'an optional response header became required');
single(RS, 'response-header-type-changed', 'ERR', 'the type of a response header changed');
single(RS, 'response-header-type-generalized', 'ERR', 'the type of a response header was widened (for example integer to number)');
single(RS, 'response-header-type-specialized', 'INFO', 'the type of a response header was narrowed');
single(RS, 'response-header-became-nullable', 'ERR', 'a response header became nullable');
single(RS, 'response-header-became-not-nullable', 'INFO', 'a response header is no longer nullable');

// ---- security
const SE = 'Security';
single(SE, 'api-security-added', 'INFO', 'a security requirement was added to an operation that already had one (an extra alternative)');
single(
  SE,
  'api-security-added-to-public-endpoint',
  'ERR',
  'an operation that needed no credentials now requires them (directly or through the top-level security)',
  'Our own rule. oasdiff reports every added requirement as INFO (api-security-added, api-global-security-added) because a new entry in a `security` list is one more alternative. That holds only when the list already had an entry: a public operation (no requirement, `security: []` or `{}`) that starts to require a key rejects every existing anonymous caller, which openapi-diff counts as incompatible. Our describe endpoints are public, so this matters.',
);
single(SE, 'api-security-removed', 'INFO', 'a security requirement was removed from an operation');
single(SE, 'api-security-scope-added', 'INFO', 'a scope was added to a security requirement of an operation');
single(SE, 'api-security-scope-removed', 'INFO', 'a scope was removed from a security requirement of an operation');
single(SE, 'api-global-security-added', 'INFO', 'a top-level security requirement was added');
single(SE, 'api-global-security-removed', 'INFO', 'a top-level security requirement was removed');
single(SE, 'api-global-security-scope-added', 'INFO', 'a scope was added to a top-level security requirement');
single(SE, 'api-global-security-scope-removed', 'INFO', 'a scope was removed from a top-level security requirement');
single(SE, 'api-security-component-added', 'INFO', 'a security scheme was added to components.securitySchemes');
single(SE, 'api-security-component-removed', 'INFO', 'a security scheme was removed from components.securitySchemes');
single(SE, 'api-security-component-type-changed', 'INFO', 'the type of a security scheme changed');
single(
  SE,
  'api-security-component-api-key-changed',
  'ERR',
  'an apiKey security scheme now expects the key under another name or in another place',
  'Our own rule (oasdiff and openapi-diff do not look at `name`/`in` of an apiKey scheme): clients sending the key where it used to be are turned away.',
);

// ---- schema: properties and required
const PR = 'Schema properties';
single(PR, 'new-required-request-property', 'ERR', 'a required property was added to a request');
single(PR, 'new-required-request-property-with-default', 'ERR', 'a required property with a default value was added to a request');
single(PR, 'new-optional-request-property', 'INFO', 'an optional property was added to a request (a readOnly one counts as optional: clients never send it)');
single(
  PR,
  'request-property-removed',
  'WARN',
  'a property was removed from a request schema that accepts unknown properties',
  'oasdiff says WARN; openapi-diff does not report it. A server that ignores unknown properties still accepts the old request but no longer acts on the value.',
);
single(
  PR,
  'request-property-removed-from-closed-schema',
  'ERR',
  'a property was removed from a request schema that rejects unknown properties (additionalProperties: false, before and after)',
  "Our own rule, stricter than oasdiff's request-property-removed (WARN): when the schema is closed, the validator rejects every request that still sends the property, so it is certain to break. All our tool arguments are closed objects.",
);
single(PR, 'request-property-became-required', 'ERR', 'an optional request property became required');
single(PR, 'request-property-became-required-with-default', 'ERR', 'an optional request property with a default value became required');
single(PR, 'request-property-became-optional', 'INFO', 'a required request property became optional');
single(
  PR,
  'response-required-property-removed',
  'ERR',
  'a required response property was removed',
  'oasdiff and openapi-diff agree (openapi-diff: response required decreased).',
);
single(
  PR,
  'response-optional-property-removed',
  'WARN',
  'an optional response property was removed',
  'oasdiff says WARN, openapi-diff does not report it. We follow oasdiff: clients that read an optional field must cope with its absence, but some do not.',
);
single(PR, 'response-required-write-only-property-removed', 'INFO', 'a required writeOnly property was removed (it never appears in responses)');
single(PR, 'response-optional-write-only-property-removed', 'INFO', 'an optional writeOnly property was removed (it never appears in responses)');
single(PR, 'response-required-property-added', 'INFO', 'a required property was added to a response');
single(PR, 'response-optional-property-added', 'INFO', 'an optional property was added to a response');
single(PR, 'response-required-write-only-property-added', 'INFO', 'a required writeOnly property was added to a response schema');
single(PR, 'response-optional-write-only-property-added', 'INFO', 'an optional writeOnly property was added to a response schema');
single(PR, 'response-property-became-optional', 'ERR', 'a required response property became optional');
single(PR, 'response-write-only-property-became-optional', 'INFO', 'a required writeOnly property of a response schema became optional');
single(PR, 'response-property-became-required', 'INFO', 'an optional response property became required');
single(PR, 'response-write-only-property-became-required', 'INFO', 'an optional writeOnly property of a response schema became required');
for (const dir of ['request', 'response'] as const) {
  for (const req of ['required', 'optional'] as const) {
    for (const change of ['became-read-only', 'became-not-read-only', 'became-write-only', 'became-not-write-only'] as const) {
      const id = `${dir}-${req}-property-${change}`;
      const level: Level = id === 'response-required-property-became-not-write-only' ? 'WARN' : 'INFO';
      add(
        PR,
        `${dir}-*-property-${change}`,
        id,
        level,
        `a ${req} ${dir} property ${change.replaceAll('-', ' ')}` + (level === 'WARN' ? ' (it now appears in responses, where it is required)' : ''),
      );
    }
  }
}
variants(PR, ['request-property', 'response-property'], 'deprecated', 'INFO', 'a property was marked deprecated');
variants(PR, ['request-property', 'response-property'], 'deprecated-with-sunset', 'INFO', 'a property was marked deprecated with a sunset date');
variants(PR, ['request-property', 'response-property'], 'reactivated', 'INFO', 'a property is no longer deprecated');

// ---- schema: types, formats, nullability
const TY = 'Schema types and nullability';
variants(
  TY,
  REQ,
  'type-changed',
  'ERR',
  'the type changed so that some values valid before are now rejected',
  'oasdiff and openapi-diff agree that a narrowing type change breaks requests. oasdiff reports a parameter property type change as WARN (request-parameter-property-type-changed) and a narrowing as ERR; we say ERR for every narrowing and treat any change to `string` as a widening for parameters, whose values travel as text.',
);
variants(
  TY,
  REQ,
  'type-generalized',
  'INFO',
  'the type was widened (integer to number, a type dropped, or anything to string for parameters)',
  'oasdiff distinguishes widening; openapi-diff counts every type change as incompatible. We follow oasdiff: every value a client sent before is still accepted.',
);
variants(TY, RES, 'type-changed', 'ERR', 'the type of a response value changed');
variants(TY, RES, 'type-generalized', 'ERR', 'the type of a response value was widened (clients may receive values they cannot read)');
variants(TY, RES, 'type-specialized', 'INFO', 'the type of a response value was narrowed (number to integer)');
variants(
  TY,
  ['request-body', 'request-property'],
  'type-compatible',
  'INFO',
  'a concrete type was swapped for another in a media type that is not JSON (XML, form, text), where every value travels as text',
  'Follows oasdiff: only JSON media types are strongly typed; openapi-diff would call any type change incompatible.',
);
variants(TY, RES, 'type-compatible', 'INFO', 'a concrete response type was swapped for another in a media type that is not JSON');
variants(TY, [...REQ], 'list-of-types-widened', 'INFO', 'an OpenAPI 3.1 type list (or oneOf of types) gained a type');
variants(TY, [...REQ], 'list-of-types-narrowed', 'ERR', 'an OpenAPI 3.1 type list lost a type');
variants(TY, RES, 'list-of-types-widened', 'ERR', 'a response type list gained a type');
variants(TY, RES, 'list-of-types-narrowed', 'INFO', 'a response type list lost a type');
variants(TY, REQ, 'became-nullable', 'INFO', 'the value may now be null (nullable: true, a "null" type, or a oneOf with {type: null})');
variants(TY, REQ, 'became-not-nullable', 'ERR', 'null is no longer accepted');
variants(TY, RES, 'became-nullable', 'ERR', 'a response value may now be null');
variants(TY, RES, 'became-not-nullable', 'INFO', 'a response value is no longer null');
const formatWhy =
  'Neither oasdiff nor openapi-diff judge `format` (openapi-diff counts it as compatible). Our server validates formats (ajv-formats), so a new or changed format on a request can reject input that passed before: WARN. In responses, clients parse formats such as date-time, so a removed or changed format is WARN too.';
variants(TY, REQ, 'format-added', 'WARN', 'a format was set where there was none', formatWhy);
variants(TY, REQ, 'format-changed', 'WARN', 'the format changed', formatWhy);
variants(TY, REQ, 'format-removed', 'INFO', 'the format was removed');
variants(TY, RES, 'format-added', 'INFO', 'a response value got a format');
variants(TY, RES, 'format-changed', 'WARN', 'the format of a response value changed', formatWhy);
variants(TY, RES, 'format-removed', 'WARN', 'the format of a response value was removed', formatWhy);

// ---- schema: values
const VA = 'Schema values (enum, const, default, pattern)';
variants(VA, REQ, 'became-enum', 'ERR', 'the value was restricted to an enum');
variants(VA, REQ, 'enum-value-removed', 'ERR', 'an enum value is no longer accepted');
variants(VA, REQ, 'enum-value-added', 'INFO', 'an enum value was added');
add(
  VA,
  'request-header-property-became-enum',
  'request-header-property-became-enum',
  'ERR',
  'a property of an object-valued header parameter was restricted to an enum',
);
variants(VA, REQ, 'x-extensible-enum-value-removed', 'ERR', 'a value was removed from x-extensible-enum');
add(
  VA,
  'response-*-enum-value-added',
  'response-property-enum-value-added',
  'WARN',
  'a response enum gained a value',
  'oasdiff says WARN; openapi-diff says incompatible (response enum increased). We follow oasdiff: clients should tolerate unknown values, and our records gain new source ids when a source is added. Exhaustive switches in typed clients may still break, hence WARN.',
);
add(VA, 'response-*-enum-value-added', 'response-body-enum-value-added', 'WARN', 'a response enum gained a value (the whole body)');
add(VA, 'response-*-enum-value-removed', 'response-property-enum-value-removed', 'INFO', 'a response enum lost a value');
add(VA, 'response-*-enum-value-removed', 'response-mediatype-enum-value-removed', 'INFO', 'a response enum lost a value (the whole body)');
variants(VA, REQ, 'const-added', 'ERR', 'a const was set');
variants(VA, REQ, 'const-changed', 'ERR', 'the const value changed');
variants(VA, REQ, 'const-removed', 'INFO', 'the const was removed');
variants(VA, RES, 'const-added', 'INFO', 'a response value was fixed to a const');
variants(VA, RES, 'const-changed', 'ERR', 'the const value of a response changed');
variants(VA, RES, 'const-removed', 'ERR', 'a response value is no longer fixed to its const');
variants(VA, ['request-body', 'request-property', 'request-parameter-property'], 'default-value-added', 'INFO', 'a default value was added');
variants(VA, ['request-body', 'request-property', 'request-parameter-property'], 'default-value-removed', 'INFO', 'a default value was removed');
variants(VA, ['request-body', 'request-property', 'request-parameter-property'], 'default-value-changed', 'INFO', 'a default value changed');
variants(VA, RES, 'default-value-added', 'INFO', 'a default value was added');
variants(VA, RES, 'default-value-removed', 'INFO', 'a default value was removed');
variants(VA, RES, 'default-value-changed', 'INFO', 'a default value changed');
variants(VA, REQ, 'pattern-added', 'ERR', 'a pattern was set where there was none');
variants(VA, REQ, 'pattern-changed', 'WARN', 'the pattern changed (we cannot tell whether it is wider or narrower)');
variants(VA, REQ, 'pattern-generalized', 'INFO', 'the pattern was changed to match anything (.* or .+ style)');
variants(VA, REQ, 'pattern-removed', 'INFO', 'the pattern was removed');
const responsePatternWhy = 'oasdiff reports response pattern changes as INFO only; patterns in responses document values rather than being checked by clients.';
variants(VA, RES, 'pattern-added', 'INFO', 'a response value got a pattern', responsePatternWhy);
variants(VA, RES, 'pattern-changed', 'INFO', 'the pattern of a response value changed', responsePatternWhy);
variants(VA, RES, 'pattern-removed', 'INFO', 'the pattern of a response value was removed', responsePatternWhy);

// ---- schema: limits
const LI = 'Schema limits';
export const LIMITS = [
  { keyword: 'maximum', name: 'max', kind: 'max' },
  { keyword: 'exclusiveMaximum', name: 'exclusive-max', kind: 'max' },
  { keyword: 'minimum', name: 'min', kind: 'min' },
  { keyword: 'exclusiveMinimum', name: 'exclusive-min', kind: 'min' },
  { keyword: 'maxLength', name: 'max-length', kind: 'max' },
  { keyword: 'minLength', name: 'min-length', kind: 'min' },
  { keyword: 'maxItems', name: 'max-items', kind: 'max' },
  { keyword: 'minItems', name: 'min-items', kind: 'min' },
] as const;

/** The level of a limit change, by direction: a tightened limit breaks requests, a loosened one breaks responses. */
export function limitLevel(direction: 'request' | 'response', action: 'tightened' | 'loosened' | 'set' | 'unset'): Level {
  if (direction === 'request') return action === 'tightened' ? 'ERR' : action === 'set' ? 'WARN' : 'INFO';
  return action === 'loosened' || action === 'unset' ? 'ERR' : 'INFO';
}

const limitWhy = {
  request:
    'oasdiff: a tightened request limit is ERR, a newly set one WARN (values that passed may now fail, but most did not come near the new limit). openapi-diff agrees on decreased maxLength and numeric ranges.',
  response:
    'oasdiff: a loosened response limit is ERR (clients may get values they were told could not occur). openapi-diff checks numeric range increases in responses only when asked to (off by default); we follow oasdiff.',
};
const limitNames = (kind: 'max' | 'min') =>
  LIMITS.filter((limit) => limit.kind === kind)
    .map((limit) => limit.keyword)
    .join(', ');
const limitText = {
  increased: (kind: 'max' | 'min') => `a ${kind === 'max' ? 'maximum' : 'minimum'} (${limitNames(kind)}) increased`,
  decreased: (kind: 'max' | 'min') => `a ${kind === 'max' ? 'maximum' : 'minimum'} (${limitNames(kind)}) decreased`,
  set: (kind: 'max' | 'min') => `a ${kind === 'max' ? 'maximum' : 'minimum'} (${limitNames(kind)}) set where there was none`,
  unset: (kind: 'max' | 'min') => `a ${kind === 'max' ? 'maximum' : 'minimum'} (${limitNames(kind)}) removed`,
};
for (const direction of ['request', 'response'] as const) {
  for (const kind of ['max', 'min'] as const) {
    for (const action of ['increased', 'decreased', 'set', 'unset'] as const) {
      const effect = action === 'set' || action === 'unset' ? action : (action === 'increased') === (kind === 'max') ? 'loosened' : 'tightened';
      const level = limitLevel(direction, effect);
      for (const limit of LIMITS.filter((l) => l.kind === kind)) {
        variants(
          LI,
          direction === 'request' ? REQ : RES,
          `${limit.name}-${action}`,
          level,
          `${direction === 'request' ? 'request' : 'response'}: ${limitText[action](kind)}`,
          level === 'INFO' ? undefined : limitWhy[direction],
          `limit:${direction}:${kind}:${action}`,
        );
      }
    }
  }
}

// ---- schema: composition and structure
const CO = 'Schema composition and structure';
variants(CO, REQ, 'one-of-added', 'INFO', 'a sub-schema was added to oneOf');
variants(CO, REQ, 'one-of-removed', 'ERR', 'a sub-schema was removed from oneOf');
variants(CO, REQ, 'any-of-added', 'INFO', 'a sub-schema was added to anyOf');
variants(CO, REQ, 'any-of-removed', 'ERR', 'a sub-schema was removed from anyOf');
variants(CO, REQ, 'all-of-added', 'ERR', 'a sub-schema was added to allOf (one more condition to satisfy)');
variants(CO, REQ, 'all-of-removed', 'WARN', 'a sub-schema was removed from allOf');
variants(CO, RES, 'one-of-added', 'ERR', 'a response oneOf gained a sub-schema (clients meet a shape they do not know)');
variants(CO, RES, 'one-of-removed', 'INFO', 'a response oneOf lost a sub-schema');
variants(
  CO,
  RES,
  'any-of-added',
  'INFO',
  'a response anyOf gained a sub-schema',
  'oasdiff says INFO here while a oneOf addition is ERR; we follow oasdiff (anyOf branches usually add optional detail to a shape clients already read).',
);
variants(CO, RES, 'any-of-removed', 'INFO', 'a response anyOf lost a sub-schema');
variants(CO, RES, 'all-of-added', 'INFO', 'a response allOf gained a sub-schema');
variants(CO, RES, 'all-of-removed', 'INFO', 'a response allOf lost a sub-schema');
variants(
  CO,
  [...REQ, ...RES],
  'discriminator-added',
  'INFO',
  'a discriminator was added',
  'oasdiff says INFO; openapi-diff counts a discriminator property change as incompatible. We follow oasdiff: the payloads themselves do not change.',
);
variants(CO, [...REQ, ...RES], 'discriminator-removed', 'INFO', 'the discriminator was removed');
variants(CO, [...REQ, ...RES], 'discriminator-property-name-changed', 'INFO', 'the discriminator property name changed');
variants(CO, [...REQ, ...RES], 'discriminator-mapping-changed', 'INFO', 'the discriminator mapping changed');
const closedWhy =
  'Neither oasdiff nor openapi-diff judge additionalProperties itself. A request schema that closes (additionalProperties: false) rejects unknown properties that were accepted before, but clients rarely send undocumented fields: WARN.';
variants(CO, REQ, 'additional-properties-closed', 'WARN', 'additionalProperties became false (or a schema) where any property was allowed', closedWhy);
variants(CO, REQ, 'additional-properties-opened', 'INFO', 'additionalProperties: false was lifted');
variants(CO, RES, 'additional-properties-closed', 'INFO', 'a response object no longer allows extra properties');
variants(CO, RES, 'additional-properties-opened', 'INFO', 'a response object may now carry extra properties (like an added optional property)');
export const SUBSCHEMA_KEYWORDS = [
  { keyword: 'if', name: 'if' },
  { keyword: 'then', name: 'then' },
  { keyword: 'else', name: 'else' },
  { keyword: 'contains', name: 'contains' },
  { keyword: 'prefixItems', name: 'prefix-items' },
  { keyword: 'dependentRequired', name: 'dependent-required' },
  { keyword: 'dependentSchemas', name: 'dependent-schema' },
  { keyword: 'patternProperties', name: 'pattern-property' },
  { keyword: 'propertyNames', name: 'property-names' },
  { keyword: 'unevaluatedItems', name: 'unevaluated-items' },
  { keyword: 'unevaluatedProperties', name: 'unevaluated-properties' },
] as const;
const subNames = SUBSCHEMA_KEYWORDS.map((sub) => sub.keyword).join(', ');
for (const sub of SUBSCHEMA_KEYWORDS) {
  variants(
    CO,
    REQ,
    `${sub.name}-added`,
    'ERR',
    `request: an OpenAPI 3.1 sub-schema keyword (${subNames}) added, or one of its entries: a new condition`,
    undefined,
    'sub:request:added',
  );
  variants(
    CO,
    REQ,
    `${sub.name}-removed`,
    'INFO',
    `request: an OpenAPI 3.1 sub-schema keyword (${subNames}) removed, or one of its entries`,
    undefined,
    'sub:request:removed',
  );
  variants(
    CO,
    RES,
    `${sub.name}-added`,
    'INFO',
    `response: an OpenAPI 3.1 sub-schema keyword (${subNames}) added, or one of its entries`,
    undefined,
    'sub:response:added',
  );
  variants(
    CO,
    RES,
    `${sub.name}-removed`,
    'ERR',
    `response: an OpenAPI 3.1 sub-schema keyword (${subNames}) removed, or one of its entries: a guarantee is gone`,
    undefined,
    'sub:response:removed',
  );
}
variants(CO, REQ, 'dependent-required-changed', 'ERR', 'OpenAPI 3.1 dependentRequired changed');
variants(CO, RES, 'dependent-required-changed', 'ERR', 'OpenAPI 3.1 dependentRequired changed in a response');

export const RULES: readonly Rule[] = rules;
export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(rules.map((rule) => [rule.id, rule]));

export function levelOf(id: string): Level {
  const rule = RULES_BY_ID.get(id);
  if (!rule) throw new Error(`openapi-diff: rule ${id} is not in the policy table`);
  return rule.level;
}

/**
 * The policy table as Markdown: one row per check (its location variants listed together), and the
 * reasons for deliberate choices numbered once below the table.
 */
export function policyMarkdown(): string {
  const lines: string[] = [];
  const whys: string[] = [];
  let section = '';
  const rows = new Map<string, Rule[]>();
  for (const rule of rules) {
    const key = `${rule.section}\u0000${rule.row}\u0000${rule.level}`;
    rows.set(key, [...(rows.get(key) ?? []), rule]);
  }
  for (const group of rows.values()) {
    const first = group[0]!;
    if (first.section !== section) {
      section = first.section;
      lines.push('', `#### ${section}`, '', '| rule id | level | meaning | why |', '| --- | --- | --- | --- |');
    }
    let note = '';
    if (first.why) {
      if (!whys.includes(first.why)) whys.push(first.why);
      note = `[${whys.indexOf(first.why) + 1}]`;
    }
    const ids = group.map((rule) => `\`${rule.id}\``).join(' ');
    lines.push(`| ${ids} | ${first.level} | ${first.text} | ${note} |`);
  }
  lines.push('', '#### Why (deliberate choices, and where oasdiff and openapi-diff disagree)', '');
  whys.forEach((why, index) => lines.push(`${index + 1}. ${why}`));
  return lines.join('\n').trim() + '\n';
}

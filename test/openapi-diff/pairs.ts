/**
 * Hand-made base/revision pairs for the OpenAPI diff, each with the rule ids and levels it must
 * report (exactly those, nothing else). Schema pairs are placed at every location they name (request
 * body, request property, query parameter, parameter property, response body, response property),
 * so one pair shows how the same edit is judged in requests and in responses.
 */
export type Level = 'ERR' | 'WARN' | 'INFO';
export type Expected = [id: string, level: Level];
type S = Record<string, unknown>;

export const REQUEST = ['request-body', 'request-property', 'request-parameter', 'request-parameter-property'] as const;
export const RESPONSE = ['response-body', 'response-property'] as const;
export type Location = (typeof REQUEST)[number] | (typeof RESPONSE)[number];

const info = { title: 'pairs (hand-made)', version: '1.0.0' };

export function doc(paths: S, extra: S = {}, version = '3.1.0'): S {
  return { openapi: version, info, paths, ...extra };
}

/** POST /items with the given operation fields (a bare 200 response unless replaced). */
export function post(op: S, extra: S = {}): S {
  return doc({ '/items': { post: { responses: { '200': { description: 'ok' } }, ...op } } }, extra);
}

const requestBody = (schema: S, media = 'application/json') => post({ requestBody: { content: { [media]: { schema } } } });
const responseBody = (schema: S, media = 'application/json') => post({ responses: { '200': { description: 'ok', content: { [media]: { schema } } } } });
const queryParameter = (schema: S) => post({ parameters: [{ name: 'q', in: 'query', schema }] });
const holder = (schema: S) => ({ type: 'object', properties: { p: schema } });

export const place: Record<Location, (schema: S) => S> = {
  'request-body': (schema) => requestBody(schema),
  'request-property': (schema) => requestBody(holder(schema)),
  'request-parameter': (schema) => queryParameter(schema),
  'request-parameter-property': (schema) => queryParameter(holder(schema)),
  'response-body': (schema) => responseBody(schema),
  'response-property': (schema) => responseBody(holder(schema)),
};

export interface SchemaPair {
  title: string;
  base: S;
  revision: S;
  /** Per location: the findings expected there. Locations not named are not tried. */
  expect: Partial<Record<Location, Expected[]>>;
}

function on(
  locations: readonly Location[],
  suffix: string | ((location: Location) => string),
  level: Level | ((location: Location) => Level),
): Partial<Record<Location, Expected[]>> {
  return Object.fromEntries(
    locations.map((location) => [
      location,
      [[typeof suffix === 'string' ? `${location}-${suffix}` : suffix(location), typeof level === 'string' ? level : level(location)]],
    ]),
  );
}

function nothing(locations: readonly Location[]): Partial<Record<Location, Expected[]>> {
  return Object.fromEntries(locations.map((location) => [location, []]));
}

const str = { type: 'string' };
const num = { type: 'number' };
const int = { type: 'integer' };
const branch = (name: string) => ({ type: 'object', properties: { [name]: str } });

export const schemaPairs: SchemaPair[] = [
  // types
  { title: 'string to integer', base: str, revision: int, expect: { ...on(REQUEST, 'type-changed', 'ERR'), ...on(RESPONSE, 'type-changed', 'ERR') } },
  {
    title: 'integer to string (parameters carry text, so it widens them)',
    base: int,
    revision: str,
    expect: {
      ...on(['request-body', 'request-property'], 'type-changed', 'ERR'),
      ...on(['request-parameter', 'request-parameter-property'], 'type-generalized', 'INFO'),
      ...on(RESPONSE, 'type-changed', 'ERR'),
    },
  },
  { title: 'integer to number', base: int, revision: num, expect: { ...on(REQUEST, 'type-generalized', 'INFO'), ...on(RESPONSE, 'type-generalized', 'ERR') } },
  { title: 'number to integer', base: num, revision: int, expect: { ...on(REQUEST, 'type-changed', 'ERR'), ...on(RESPONSE, 'type-specialized', 'INFO') } },
  {
    title: 'type list gains a type (3.1)',
    base: { type: ['string'] },
    revision: { type: ['string', 'integer'] },
    expect: { ...on(REQUEST, 'list-of-types-widened', 'INFO'), ...on(RESPONSE, 'list-of-types-widened', 'ERR') },
  },
  {
    title: 'type list loses a type (3.1)',
    base: { type: ['string', 'boolean'] },
    revision: { type: ['string'] },
    expect: { ...on(REQUEST, 'list-of-types-narrowed', 'ERR'), ...on(RESPONSE, 'list-of-types-narrowed', 'INFO') },
  },
  {
    title: 'a type becomes a oneOf of plain types',
    base: str,
    revision: { oneOf: [str, int] },
    expect: { ...on(REQUEST, 'list-of-types-widened', 'INFO'), ...on(RESPONSE, 'list-of-types-widened', 'ERR') },
  },
  // nullability
  {
    title: '"null" added to a 3.1 type array',
    base: str,
    revision: { type: ['string', 'null'] },
    expect: { ...on(REQUEST, 'became-nullable', 'INFO'), ...on(RESPONSE, 'became-nullable', 'ERR') },
  },
  {
    title: 'a oneOf [{type: null}, X] wrapper added: only the nullability changes',
    base: { type: 'string', enum: ['a', 'b'] },
    revision: { oneOf: [{ type: 'null' }, { type: 'string', enum: ['a', 'b'] }] },
    expect: { ...on(REQUEST, 'became-nullable', 'INFO'), ...on(RESPONSE, 'became-nullable', 'ERR') },
  },
  {
    title: 'a nullable wrapper around a oneOf: the inner oneOf is still compared',
    base: { oneOf: [{ type: 'null' }, { oneOf: [branch('a'), branch('b')] }] },
    revision: { oneOf: [{ type: 'null' }, { oneOf: [branch('a'), branch('b'), branch('c')] }] },
    expect: { ...on(REQUEST, 'one-of-added', 'INFO'), ...on(RESPONSE, 'one-of-added', 'ERR') },
  },
  {
    title: '"null" removed from a 3.1 type array',
    base: { type: ['integer', 'null'] },
    revision: int,
    expect: { ...on(REQUEST, 'became-not-nullable', 'ERR'), ...on(RESPONSE, 'became-not-nullable', 'INFO') },
  },
  // format
  {
    title: 'format set',
    base: str,
    revision: { type: 'string', format: 'date' },
    expect: { ...on(REQUEST, 'format-added', 'WARN'), ...on(RESPONSE, 'format-added', 'INFO') },
  },
  {
    title: 'format changed',
    base: { type: 'string', format: 'date' },
    revision: { type: 'string', format: 'date-time' },
    expect: { ...on(REQUEST, 'format-changed', 'WARN'), ...on(RESPONSE, 'format-changed', 'WARN') },
  },
  {
    title: 'format removed',
    base: { type: 'string', format: 'uri' },
    revision: str,
    expect: { ...on(REQUEST, 'format-removed', 'INFO'), ...on(RESPONSE, 'format-removed', 'WARN') },
  },
  // enum, const, default
  {
    title: 'restricted to an enum',
    base: str,
    revision: { type: 'string', enum: ['a', 'b'] },
    expect: { ...on(REQUEST, 'became-enum', 'ERR'), ...nothing(RESPONSE) },
  },
  {
    title: 'enum value removed',
    base: { type: 'string', enum: ['a', 'b'] },
    revision: { type: 'string', enum: ['a'] },
    expect: {
      ...on(REQUEST, 'enum-value-removed', 'ERR'),
      ...on(RESPONSE, (location) => (location === 'response-body' ? 'response-mediatype-enum-value-removed' : 'response-property-enum-value-removed'), 'INFO'),
    },
  },
  {
    title: 'enum value added',
    base: { type: 'string', enum: ['a'] },
    revision: { type: 'string', enum: ['a', 'b'] },
    expect: { ...on(REQUEST, 'enum-value-added', 'INFO'), ...on(RESPONSE, 'enum-value-added', 'WARN') },
  },
  {
    title: 'x-extensible-enum value removed',
    base: { type: 'string', 'x-extensible-enum': ['a', 'b'] },
    revision: { type: 'string', 'x-extensible-enum': ['a'] },
    expect: { ...on(REQUEST, 'x-extensible-enum-value-removed', 'ERR'), ...nothing(RESPONSE) },
  },
  {
    title: 'const set',
    base: str,
    revision: { type: 'string', const: 'x' },
    expect: { ...on(REQUEST, 'const-added', 'ERR'), ...on(RESPONSE, 'const-added', 'INFO') },
  },
  {
    title: 'const changed',
    base: { type: 'string', const: 'x' },
    revision: { type: 'string', const: 'y' },
    expect: { ...on(REQUEST, 'const-changed', 'ERR'), ...on(RESPONSE, 'const-changed', 'ERR') },
  },
  {
    title: 'const removed',
    base: { type: 'string', const: 'x' },
    revision: str,
    expect: { ...on(REQUEST, 'const-removed', 'INFO'), ...on(RESPONSE, 'const-removed', 'ERR') },
  },
  {
    title: 'default added (a parameter default changes what the server does for clients that omit it)',
    base: int,
    revision: { type: 'integer', default: 10 },
    expect: {
      ...on(REQUEST, 'default-value-added', (location) => (location === 'request-parameter' ? 'ERR' : 'INFO')),
      ...on(RESPONSE, 'default-value-added', 'INFO'),
    },
  },
  {
    title: 'default changed',
    base: { type: 'integer', default: 10 },
    revision: { type: 'integer', default: 20 },
    expect: {
      ...on(REQUEST, 'default-value-changed', (location) => (location === 'request-parameter' ? 'ERR' : 'INFO')),
      ...on(RESPONSE, 'default-value-changed', 'INFO'),
    },
  },
  {
    title: 'default removed',
    base: { type: 'integer', default: 10 },
    revision: int,
    expect: {
      ...on(REQUEST, 'default-value-removed', (location) => (location === 'request-parameter' ? 'ERR' : 'INFO')),
      ...on(RESPONSE, 'default-value-removed', 'INFO'),
    },
  },
  // pattern
  {
    title: 'pattern set',
    base: str,
    revision: { type: 'string', pattern: '^[a-z]+$' },
    expect: { ...on(REQUEST, 'pattern-added', 'ERR'), ...on(RESPONSE, 'pattern-added', 'INFO') },
  },
  {
    title: 'pattern changed',
    base: { type: 'string', pattern: '^[a-z]+$' },
    revision: { type: 'string', pattern: '^[0-9]+$' },
    expect: { ...on(REQUEST, 'pattern-changed', 'WARN'), ...on(RESPONSE, 'pattern-changed', 'INFO') },
  },
  {
    title: 'pattern changed to match anything',
    base: { type: 'string', pattern: '^[a-z]+$' },
    revision: { type: 'string', pattern: '.*' },
    expect: { ...on(REQUEST, 'pattern-generalized', 'INFO'), ...on(RESPONSE, 'pattern-changed', 'INFO') },
  },
  {
    title: 'pattern removed',
    base: { type: 'string', pattern: '^[a-z]+$' },
    revision: str,
    expect: { ...on(REQUEST, 'pattern-removed', 'INFO'), ...on(RESPONSE, 'pattern-removed', 'INFO') },
  },
  { title: 'an empty pattern is no pattern', base: { type: 'string', pattern: '' }, revision: str, expect: { ...nothing(REQUEST), ...nothing(RESPONSE) } },
  // limits: 3.0 boolean exclusiveMaximum is read as the 3.1 number form
  {
    title: 'OpenAPI 3.0 exclusiveMaximum: true with maximum 10 equals 3.1 exclusiveMaximum: 10',
    base: { type: 'number', maximum: 10, exclusiveMaximum: true },
    revision: { type: 'number', exclusiveMaximum: 10 },
    expect: { ...nothing(REQUEST), ...nothing(RESPONSE) },
  },
  // composition
  {
    title: 'oneOf gains a branch',
    base: { oneOf: [branch('a'), branch('b')] },
    revision: { oneOf: [branch('a'), branch('b'), branch('c')] },
    expect: { ...on(REQUEST, 'one-of-added', 'INFO'), ...on(RESPONSE, 'one-of-added', 'ERR') },
  },
  {
    title: 'oneOf loses a branch',
    base: { oneOf: [branch('a'), branch('b'), branch('c')] },
    revision: { oneOf: [branch('a'), branch('c')] },
    expect: { ...on(REQUEST, 'one-of-removed', 'ERR'), ...on(RESPONSE, 'one-of-removed', 'INFO') },
  },
  {
    title: 'anyOf gains a branch',
    base: { anyOf: [branch('a'), branch('b')] },
    revision: { anyOf: [branch('a'), branch('b'), branch('c')] },
    expect: { ...on(REQUEST, 'any-of-added', 'INFO'), ...on(RESPONSE, 'any-of-added', 'INFO') },
  },
  {
    title: 'anyOf loses a branch',
    base: { anyOf: [branch('a'), branch('b'), branch('c')] },
    revision: { anyOf: [branch('b'), branch('c')] },
    expect: { ...on(REQUEST, 'any-of-removed', 'ERR'), ...on(RESPONSE, 'any-of-removed', 'INFO') },
  },
  {
    title: 'allOf gains a sub-schema',
    base: { allOf: [branch('a')] },
    revision: { allOf: [branch('a'), { required: ['a'] }] },
    expect: { ...on(REQUEST, 'all-of-added', 'ERR'), ...on(RESPONSE, 'all-of-added', 'INFO') },
  },
  {
    title: 'allOf loses a sub-schema',
    base: { allOf: [branch('a'), { required: ['a'] }] },
    revision: { allOf: [branch('a')] },
    expect: { ...on(REQUEST, 'all-of-removed', 'WARN'), ...on(RESPONSE, 'all-of-removed', 'INFO') },
  },
  {
    title: 'discriminator added',
    base: { type: 'object', properties: { kind: str } },
    revision: { type: 'object', properties: { kind: str }, discriminator: { propertyName: 'kind' } },
    expect: { ...on(REQUEST, 'discriminator-added', 'INFO'), ...on(RESPONSE, 'discriminator-added', 'INFO') },
  },
  {
    title: 'discriminator removed',
    base: { type: 'object', properties: { kind: str }, discriminator: { propertyName: 'kind' } },
    revision: { type: 'object', properties: { kind: str } },
    expect: { ...on(REQUEST, 'discriminator-removed', 'INFO'), ...on(RESPONSE, 'discriminator-removed', 'INFO') },
  },
  {
    title: 'discriminator property renamed',
    base: { type: 'object', properties: { kind: str, sort: str }, discriminator: { propertyName: 'kind' } },
    revision: { type: 'object', properties: { kind: str, sort: str }, discriminator: { propertyName: 'sort' } },
    expect: { ...on(REQUEST, 'discriminator-property-name-changed', 'INFO'), ...on(RESPONSE, 'discriminator-property-name-changed', 'INFO') },
  },
  {
    title: 'discriminator mapping changed',
    base: { type: 'object', properties: { kind: str }, discriminator: { propertyName: 'kind', mapping: { a: '#/components/schemas/A' } } },
    revision: { type: 'object', properties: { kind: str }, discriminator: { propertyName: 'kind', mapping: { b: '#/components/schemas/A' } } },
    expect: { ...on(REQUEST, 'discriminator-mapping-changed', 'INFO'), ...on(RESPONSE, 'discriminator-mapping-changed', 'INFO') },
  },
  {
    title: 'additionalProperties: false set',
    base: { type: 'object', properties: { a: str } },
    revision: { type: 'object', properties: { a: str }, additionalProperties: false },
    expect: { ...on(REQUEST, 'additional-properties-closed', 'WARN'), ...on(RESPONSE, 'additional-properties-closed', 'INFO') },
  },
  {
    title: 'additionalProperties: false lifted',
    base: { type: 'object', properties: { a: str }, additionalProperties: false },
    revision: { type: 'object', properties: { a: str } },
    expect: { ...on(REQUEST, 'additional-properties-opened', 'INFO'), ...on(RESPONSE, 'additional-properties-opened', 'INFO') },
  },
  {
    title: 'additionalProperties schema: its type changes (nested, so a property-level rule)',
    base: { type: 'object', additionalProperties: int },
    revision: { type: 'object', additionalProperties: str },
    expect: { 'request-body': [['request-property-type-changed', 'ERR']], 'response-body': [['response-property-type-changed', 'ERR']] },
  },
  {
    title: 'array items: a nested limit is a property-level rule',
    base: { type: 'array', items: { type: 'string', maxLength: 20 } },
    revision: { type: 'array', items: { type: 'string', maxLength: 10 } },
    expect: { 'request-body': [['request-property-max-length-decreased', 'ERR']], 'response-body': [['response-property-max-length-decreased', 'INFO']] },
  },
  {
    title: 'dependentRequired changed (3.1)',
    base: { type: 'object', dependentRequired: { a: ['b'] } },
    revision: { type: 'object', dependentRequired: { a: ['b', 'c'] } },
    expect: { ...on(REQUEST, 'dependent-required-changed', 'ERR'), ...on(RESPONSE, 'dependent-required-changed', 'ERR') },
  },
];

// Limits: each keyword increased, decreased, set and unset, in requests and responses.
const LIMIT_KEYWORDS = [
  ['maximum', 'max', 'number', 'max'],
  ['exclusiveMaximum', 'exclusive-max', 'number', 'max'],
  ['minimum', 'min', 'number', 'min'],
  ['exclusiveMinimum', 'exclusive-min', 'number', 'min'],
  ['maxLength', 'max-length', 'string', 'max'],
  ['minLength', 'min-length', 'string', 'min'],
  ['maxItems', 'max-items', 'array', 'max'],
  ['minItems', 'min-items', 'array', 'min'],
] as const;
/** A tightened limit breaks requests; a loosened (or dropped) one breaks responses. */
const LIMIT_LEVELS = {
  max: { increased: ['INFO', 'ERR'], decreased: ['ERR', 'INFO'], set: ['WARN', 'INFO'], unset: ['INFO', 'ERR'] },
  min: { increased: ['ERR', 'INFO'], decreased: ['INFO', 'ERR'], set: ['WARN', 'INFO'], unset: ['INFO', 'ERR'] },
} as const;
for (const [keyword, name, type, kind] of LIMIT_KEYWORDS) {
  const schema = (value?: number) => ({ type, ...(type === 'array' ? { items: str } : {}), ...(value === undefined ? {} : { [keyword]: value }) });
  const moves = { increased: [2, 5], decreased: [5, 2], set: [undefined, 3], unset: [3, undefined] } as const;
  for (const [action, [from, to]] of Object.entries(moves) as [keyof typeof moves, readonly [number | undefined, number | undefined]][]) {
    const [request, response] = LIMIT_LEVELS[kind][action];
    schemaPairs.push({
      title: `${keyword} ${action}`,
      base: schema(from),
      revision: schema(to),
      expect: { ...on(REQUEST, `${name}-${action}`, request), ...on(RESPONSE, `${name}-${action}`, response) },
    });
  }
}

// OpenAPI 3.1 sub-schema keywords: added and removed.
const SUBSCHEMAS = [
  ['if', 'if', { properties: { a: { const: 1 } } }],
  ['then', 'then', { required: ['a'] }],
  ['else', 'else', { required: ['b'] }],
  ['contains', 'contains', str],
  ['prefixItems', 'prefix-items', [str]],
  ['dependentRequired', 'dependent-required', { a: ['b'] }],
  ['dependentSchemas', 'dependent-schema', { a: { required: ['b'] } }],
  ['patternProperties', 'pattern-property', { '^x-': str }],
  ['propertyNames', 'property-names', { maxLength: 5 }],
  ['unevaluatedItems', 'unevaluated-items', false],
  ['unevaluatedProperties', 'unevaluated-properties', false],
] as const;
for (const [keyword, name, value] of SUBSCHEMAS) {
  schemaPairs.push({
    title: `${keyword} added (3.1)`,
    base: { type: 'object' },
    revision: { type: 'object', [keyword]: value },
    expect: { ...on(REQUEST, `${name}-added`, 'ERR'), ...on(RESPONSE, `${name}-added`, 'INFO') },
  });
  schemaPairs.push({
    title: `${keyword} removed (3.1)`,
    base: { type: 'object', [keyword]: value },
    revision: { type: 'object' },
    expect: { ...on(REQUEST, `${name}-removed`, 'INFO'), ...on(RESPONSE, `${name}-removed`, 'ERR') },
  });
}

export interface Pair {
  title: string;
  base: S;
  revision: S;
  expect: Expected[];
}

const bodyOf = (schema: S, extra: S = {}) => post({ requestBody: { content: { 'application/json': { schema } } }, ...extra });
const resultOf = (schema: S) => responseBody(schema);
const object = (properties: S, required: string[] = [], extra: S = {}) => ({ type: 'object', properties, ...(required.length ? { required } : {}), ...extra });
const op = (fields: S = {}) => ({ responses: { '200': { description: 'ok' } }, ...fields });
const at = (path: string, item: S, extra: S = {}) => doc({ '/keep': { get: op() }, [path]: item }, extra);
const schemes = {
  components: {
    securitySchemes: {
      key: { type: 'apiKey', in: 'header', name: 'x-api-key' },
      oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://example.org/token', scopes: { read: 'r', write: 'w' } } } },
    },
  },
};
const secured = (security: unknown, extra: S = {}) => post({ security }, { ...schemes, ...extra });
const withHeader = (header: S | undefined) => post({ responses: { '200': { description: 'ok', ...(header ? { headers: { 'X-Rate': header } } : {}) } } });
const withParameter = (parameter: S | undefined, pathParameter?: S) =>
  doc({
    '/items': {
      ...(pathParameter ? { parameters: [pathParameter] } : {}),
      get: op(parameter ? { parameters: [parameter] } : {}),
    },
  });

export const pairs: Pair[] = [
  // paths and operations
  { title: 'an operation is added', base: post({}), revision: doc({ '/items': { post: op(), get: op() } }), expect: [['endpoint-added', 'INFO']] },
  {
    title: 'an operation is removed without deprecation',
    base: doc({ '/items': { post: op(), get: op() } }),
    revision: post({}),
    expect: [['api-removed-without-deprecation', 'ERR']],
  },
  {
    title: 'a deprecated operation is removed',
    base: doc({ '/items': { post: op(), get: op({ deprecated: true }) } }),
    revision: post({}),
    expect: [['api-removed-with-deprecation', 'INFO']],
  },
  {
    title: 'a deprecated operation is removed before its sunset',
    base: doc({ '/items': { post: op(), get: op({ deprecated: true, 'x-sunset': '9999-01-01' }) } }),
    revision: post({}),
    expect: [['api-removed-before-sunset', 'ERR']],
  },
  { title: 'a whole path is removed', base: at('/gone', { get: op() }), revision: at('/other', {}), expect: [['api-path-removed-without-deprecation', 'ERR']] },
  {
    title: 'a whole deprecated path is removed',
    base: at('/gone', { get: op({ deprecated: true, 'x-sunset': '2000-01-01' }) }),
    revision: at('/other', {}),
    expect: [['api-path-removed-with-deprecation', 'INFO']],
  },
  {
    title: 'a whole path is removed before its sunset',
    base: at('/gone', { get: op({ deprecated: true, 'x-sunset': '9999-01-01' }) }),
    revision: at('/other', {}),
    expect: [['api-path-removed-before-sunset', 'ERR']],
  },
  {
    title: 'a renamed path parameter is the same path',
    base: doc({ '/items/{id}': { get: op({ parameters: [{ name: 'id', in: 'path', required: true, schema: str }] }) } }),
    revision: doc({ '/items/{itemId}': { get: op({ parameters: [{ name: 'itemId', in: 'path', required: true, schema: str }] }) } }),
    expect: [],
  },
  { title: 'an operation is deprecated', base: post({}), revision: post({ deprecated: true }), expect: [['endpoint-deprecated', 'INFO']] },
  {
    title: 'an operation is deprecated with a sunset date',
    base: post({}),
    revision: post({ deprecated: true, 'x-sunset': '2030-01-01' }),
    expect: [['endpoint-deprecated-with-sunset', 'INFO']],
  },
  { title: 'an operation is no longer deprecated', base: post({ deprecated: true }), revision: post({}), expect: [['endpoint-reactivated', 'INFO']] },
  {
    title: 'the sunset date of a deprecated operation is deleted',
    base: post({ deprecated: true, 'x-sunset': '2030-01-01' }),
    revision: post({ deprecated: true }),
    expect: [['sunset-deleted', 'ERR']],
  },
  { title: 'an invalid stability level', base: post({}), revision: post({ 'x-stability-level': 'gold' }), expect: [['api-invalid-stability-level', 'ERR']] },
  {
    title: 'stability goes down',
    base: post({ 'x-stability-level': 'stable' }),
    revision: post({ 'x-stability-level': 'beta' }),
    expect: [['api-stability-decreased', 'ERR']],
  },
  { title: 'stability goes up', base: post({ 'x-stability-level': 'alpha' }), revision: post({ 'x-stability-level': 'beta' }), expect: [] },
  { title: 'operationId renamed', base: post({ operationId: 'a' }), revision: post({ operationId: 'b' }), expect: [['api-operation-id-removed', 'INFO']] },
  { title: 'operationId added', base: post({}), revision: post({ operationId: 'b' }), expect: [['api-operation-id-added', 'INFO']] },
  {
    title: 'tag swapped',
    base: post({ tags: ['a'] }),
    revision: post({ tags: ['b'] }),
    expect: [
      ['api-tag-removed', 'INFO'],
      ['api-tag-added', 'INFO'],
    ],
  },
  {
    title: 'webhook added and another removed',
    base: doc({}, { webhooks: { created: { post: op() } } }),
    revision: doc({}, { webhooks: { updated: { post: op() } } }),
    expect: [
      ['webhook-removed', 'ERR'],
      ['webhook-added', 'INFO'],
    ],
  },
  {
    title: 'only the servers differ',
    base: doc({}, { servers: [{ url: 'https://a.example' }] }),
    revision: doc({}, { servers: [{ url: 'https://b.example' }] }),
    expect: [],
  },
  // parameters
  {
    title: 'a required query parameter is added',
    base: withParameter(undefined),
    revision: withParameter({ name: 'q', in: 'query', required: true, schema: str }),
    expect: [['new-required-request-parameter', 'ERR']],
  },
  {
    title: 'an optional header parameter is added',
    base: withParameter(undefined),
    revision: withParameter({ name: 'X-Trace', in: 'header', schema: str }),
    expect: [['new-optional-request-parameter', 'INFO']],
  },
  {
    title: 'a required path-level parameter is added',
    base: withParameter(undefined),
    revision: withParameter(undefined, { name: 'v', in: 'query', required: true, schema: str }),
    expect: [['new-required-request-default-parameter-to-existing-path', 'ERR']],
  },
  {
    title: 'an optional path-level parameter is added',
    base: withParameter(undefined),
    revision: withParameter(undefined, { name: 'v', in: 'query', schema: str }),
    expect: [['new-optional-request-default-parameter-to-existing-path', 'INFO']],
  },
  {
    title: 'a parameter is removed',
    base: withParameter({ name: 'q', in: 'query', schema: str }),
    revision: withParameter(undefined),
    expect: [['request-parameter-removed', 'WARN']],
  },
  {
    title: 'a deprecated parameter is removed',
    base: withParameter({ name: 'q', in: 'query', deprecated: true, schema: str }),
    revision: withParameter(undefined),
    expect: [['request-parameter-removed-with-deprecation', 'INFO']],
  },
  {
    title: 'a deprecated parameter is removed before its sunset',
    base: withParameter({ name: 'q', in: 'query', deprecated: true, 'x-sunset': '9999-01-01', schema: str }),
    revision: withParameter(undefined),
    expect: [['request-parameter-removed-before-sunset', 'ERR']],
  },
  {
    title: 'a parameter becomes required',
    base: withParameter({ name: 'q', in: 'query', schema: str }),
    revision: withParameter({ name: 'q', in: 'query', required: true, schema: str }),
    expect: [['request-parameter-became-required', 'ERR']],
  },
  {
    title: 'a parameter becomes optional',
    base: withParameter({ name: 'q', in: 'query', required: true, schema: str }),
    revision: withParameter({ name: 'q', in: 'query', schema: str }),
    expect: [['request-parameter-became-optional', 'INFO']],
  },
  {
    title: 'a parameter is deprecated',
    base: withParameter({ name: 'q', in: 'query', schema: str }),
    revision: withParameter({ name: 'q', in: 'query', deprecated: true, schema: str }),
    expect: [['request-parameter-deprecated', 'INFO']],
  },
  {
    title: 'a parameter is no longer deprecated',
    base: withParameter({ name: 'q', in: 'query', deprecated: true, schema: str }),
    revision: withParameter({ name: 'q', in: 'query', schema: str }),
    expect: [['request-parameter-reactivated', 'INFO']],
  },
  {
    title: 'a property of an object header parameter is restricted to an enum',
    base: withParameter({ name: 'X-F', in: 'header', schema: holder(str) }),
    revision: withParameter({ name: 'X-F', in: 'header', schema: holder({ type: 'string', enum: ['a'] }) }),
    expect: [['request-header-property-became-enum', 'ERR']],
  },
  // request bodies
  {
    title: 'a required request body is added',
    base: post({}),
    revision: post({ requestBody: { required: true, content: { 'application/json': { schema: str } } } }),
    expect: [['request-body-added-required', 'ERR']],
  },
  { title: 'an optional request body is added', base: post({}), revision: bodyOf(str), expect: [['request-body-added-optional', 'INFO']] },
  { title: 'the request body is removed', base: bodyOf(str), revision: post({}), expect: [['request-body-removed', 'ERR']] },
  {
    title: 'the request body becomes required',
    base: bodyOf(str),
    revision: post({ requestBody: { required: true, content: { 'application/json': { schema: str } } } }),
    expect: [['request-body-became-required', 'ERR']],
  },
  {
    title: 'the request body becomes optional',
    base: post({ requestBody: { required: true, content: { 'application/json': { schema: str } } } }),
    revision: bodyOf(str),
    expect: [['request-body-became-optional', 'INFO']],
  },
  {
    title: 'a request media type is added',
    base: bodyOf(str),
    revision: post({ requestBody: { content: { 'application/json': { schema: str }, 'text/plain': { schema: str } } } }),
    expect: [['request-body-media-type-added', 'INFO']],
  },
  {
    title: 'a request media type is removed',
    base: post({ requestBody: { content: { 'application/json': { schema: str }, 'text/plain': { schema: str } } } }),
    revision: bodyOf(str),
    expect: [['request-body-media-type-removed', 'ERR']],
  },
  {
    title: 'a schema appears in a request media type',
    base: post({ requestBody: { content: { 'application/json': {} } } }),
    revision: bodyOf(str),
    expect: [['request-body-media-type-schema-added', 'ERR']],
  },
  {
    title: 'the schema of a request media type is removed',
    base: bodyOf(str),
    revision: post({ requestBody: { content: { 'application/json': {} } } }),
    expect: [['request-body-media-type-schema-removed', 'INFO']],
  },
  {
    title: 'XML request body object to string',
    base: requestBody(object({ a: str }), 'application/xml'),
    revision: requestBody(str, 'application/xml'),
    expect: [['request-body-type-compatible', 'INFO']],
  },
  {
    title: 'XML request property integer to boolean',
    base: requestBody(holder(int), 'application/xml'),
    revision: requestBody(holder({ type: 'boolean' }), 'application/xml'),
    expect: [['request-property-type-compatible', 'INFO']],
  },
  {
    title: 'XML response body string to object',
    base: responseBody(str, 'application/xml'),
    revision: responseBody(object({ a: str }), 'application/xml'),
    expect: [['response-body-type-compatible', 'INFO']],
  },
  {
    title: 'XML response property boolean to integer',
    base: responseBody(holder({ type: 'boolean' }), 'text/xml'),
    revision: responseBody(holder(int), 'text/xml'),
    expect: [['response-property-type-compatible', 'INFO']],
  },
  // request properties
  {
    title: 'a required request property is added',
    base: bodyOf(object({ a: str })),
    revision: bodyOf(object({ a: str, b: str }, ['b'])),
    expect: [['new-required-request-property', 'ERR']],
  },
  {
    title: 'a required request property with a default is added',
    base: bodyOf(object({ a: str })),
    revision: bodyOf(object({ a: str, b: { type: 'string', default: 'x' } }, ['b'])),
    expect: [['new-required-request-property-with-default', 'ERR']],
  },
  {
    title: 'an optional request property is added',
    base: bodyOf(object({ a: str })),
    revision: bodyOf(object({ a: str, b: str })),
    expect: [['new-optional-request-property', 'INFO']],
  },
  {
    title: 'a required readOnly property added to a request is not breaking',
    base: bodyOf(object({ a: str })),
    revision: bodyOf(object({ a: str, id: { type: 'string', readOnly: true } }, ['id'])),
    expect: [['new-optional-request-property', 'INFO']],
  },
  {
    title: 'a request property is removed from an open schema',
    base: bodyOf(object({ a: str, b: str })),
    revision: bodyOf(object({ a: str })),
    expect: [['request-property-removed', 'WARN']],
  },
  {
    title: 'a request property is removed from a closed schema',
    base: bodyOf(object({ a: str, b: str }, [], { additionalProperties: false })),
    revision: bodyOf(object({ a: str }, [], { additionalProperties: false })),
    expect: [['request-property-removed-from-closed-schema', 'ERR']],
  },
  {
    title: 'a request property is removed while the schema opens up',
    base: bodyOf(object({ a: str, b: str }, [], { additionalProperties: false })),
    revision: bodyOf(object({ a: str })),
    expect: [
      ['request-property-removed', 'WARN'],
      ['request-body-additional-properties-opened', 'INFO'],
    ],
  },
  {
    title: 'a request property becomes required',
    base: bodyOf(object({ a: str })),
    revision: bodyOf(object({ a: str }, ['a'])),
    expect: [['request-property-became-required', 'ERR']],
  },
  {
    title: 'a request property with a default becomes required',
    base: bodyOf(object({ a: { type: 'string', default: 'x' } })),
    revision: bodyOf(object({ a: { type: 'string', default: 'x' } }, ['a'])),
    expect: [['request-property-became-required-with-default', 'ERR']],
  },
  {
    title: 'a request property becomes optional',
    base: bodyOf(object({ a: str }, ['a'])),
    revision: bodyOf(object({ a: str })),
    expect: [['request-property-became-optional', 'INFO']],
  },
  {
    title: 'a request property is deprecated',
    base: bodyOf(object({ a: str })),
    revision: bodyOf(object({ a: { type: 'string', deprecated: true } })),
    expect: [['request-property-deprecated', 'INFO']],
  },
  {
    title: 'a request property is deprecated with a sunset',
    base: bodyOf(object({ a: str })),
    revision: bodyOf(object({ a: { type: 'string', deprecated: true, 'x-sunset': '2030-01-01' } })),
    expect: [['request-property-deprecated-with-sunset', 'INFO']],
  },
  {
    title: 'a request property is no longer deprecated',
    base: bodyOf(object({ a: { type: 'string', deprecated: true } })),
    revision: bodyOf(object({ a: str })),
    expect: [['request-property-reactivated', 'INFO']],
  },
  // response properties
  {
    title: 'a required response property is removed',
    base: resultOf(object({ a: str, b: str }, ['a', 'b'])),
    revision: resultOf(object({ a: str }, ['a'])),
    expect: [['response-required-property-removed', 'ERR']],
  },
  {
    title: 'an optional response property is removed',
    base: resultOf(object({ a: str, b: str })),
    revision: resultOf(object({ a: str })),
    expect: [['response-optional-property-removed', 'WARN']],
  },
  {
    title: 'a required writeOnly property is removed from a response schema',
    base: resultOf(object({ a: str, pw: { type: 'string', writeOnly: true } }, ['pw'])),
    revision: resultOf(object({ a: str })),
    expect: [['response-required-write-only-property-removed', 'INFO']],
  },
  {
    title: 'an optional writeOnly property is removed from a response schema',
    base: resultOf(object({ a: str, pw: { type: 'string', writeOnly: true } })),
    revision: resultOf(object({ a: str })),
    expect: [['response-optional-write-only-property-removed', 'INFO']],
  },
  {
    title: 'a required response property is added',
    base: resultOf(object({ a: str })),
    revision: resultOf(object({ a: str, b: str }, ['b'])),
    expect: [['response-required-property-added', 'INFO']],
  },
  {
    title: 'an optional response property is added',
    base: resultOf(object({ a: str })),
    revision: resultOf(object({ a: str, b: str })),
    expect: [['response-optional-property-added', 'INFO']],
  },
  {
    title: 'a required writeOnly property is added to a response schema',
    base: resultOf(object({ a: str })),
    revision: resultOf(object({ a: str, pw: { type: 'string', writeOnly: true } }, ['pw'])),
    expect: [['response-required-write-only-property-added', 'INFO']],
  },
  {
    title: 'an optional writeOnly property is added to a response schema',
    base: resultOf(object({ a: str })),
    revision: resultOf(object({ a: str, pw: { type: 'string', writeOnly: true } })),
    expect: [['response-optional-write-only-property-added', 'INFO']],
  },
  {
    title: 'a response property becomes optional',
    base: resultOf(object({ a: str }, ['a'])),
    revision: resultOf(object({ a: str })),
    expect: [['response-property-became-optional', 'ERR']],
  },
  {
    title: 'a writeOnly response property becomes optional',
    base: resultOf(object({ pw: { type: 'string', writeOnly: true } }, ['pw'])),
    revision: resultOf(object({ pw: { type: 'string', writeOnly: true } })),
    expect: [['response-write-only-property-became-optional', 'INFO']],
  },
  {
    title: 'a response property becomes required',
    base: resultOf(object({ a: str })),
    revision: resultOf(object({ a: str }, ['a'])),
    expect: [['response-property-became-required', 'INFO']],
  },
  {
    title: 'a writeOnly response property becomes required',
    base: resultOf(object({ pw: { type: 'string', writeOnly: true } })),
    revision: resultOf(object({ pw: { type: 'string', writeOnly: true } }, ['pw'])),
    expect: [['response-write-only-property-became-required', 'INFO']],
  },
  {
    title: 'a response property is deprecated',
    base: resultOf(object({ a: str })),
    revision: resultOf(object({ a: { type: 'string', deprecated: true } })),
    expect: [['response-property-deprecated', 'INFO']],
  },
  {
    title: 'a response property is deprecated with a sunset',
    base: resultOf(object({ a: str })),
    revision: resultOf(object({ a: { type: 'string', deprecated: true, 'x-sunset': '2030-01-01' } })),
    expect: [['response-property-deprecated-with-sunset', 'INFO']],
  },
  {
    title: 'a response property is no longer deprecated',
    base: resultOf(object({ a: { type: 'string', deprecated: true } })),
    revision: resultOf(object({ a: str })),
    expect: [['response-property-reactivated', 'INFO']],
  },
  // responses and headers
  {
    title: 'a success status is removed',
    base: post({ responses: { '200': { description: 'ok' }, '201': { description: 'made' } } }),
    revision: post({}),
    expect: [['response-success-status-removed', 'ERR']],
  },
  {
    title: 'a success status is added',
    base: post({}),
    revision: post({ responses: { '200': { description: 'ok' }, '201': { description: 'made' } } }),
    expect: [['response-success-status-added', 'INFO']],
  },
  {
    title: 'an error status is removed',
    base: post({ responses: { '200': { description: 'ok' }, '404': { description: 'no' } } }),
    revision: post({}),
    expect: [['response-non-success-status-removed', 'INFO']],
  },
  {
    title: 'an error status is added',
    base: post({}),
    revision: post({ responses: { '200': { description: 'ok' }, default: { description: 'error' } } }),
    expect: [['response-non-success-status-added', 'INFO']],
  },
  {
    title: 'a response media type is removed',
    base: post({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: str }, 'text/csv': { schema: str } } } } }),
    revision: resultOf(str),
    expect: [['response-media-type-removed', 'ERR']],
  },
  {
    title: 'a response media type is added',
    base: resultOf(str),
    revision: post({ responses: { '200': { description: 'ok', content: { 'application/json': { schema: str }, 'text/csv': { schema: str } } } } }),
    expect: [['response-media-type-added', 'INFO']],
  },
  {
    title: 'a schema appears in a response media type',
    base: post({ responses: { '200': { description: 'ok', content: { 'application/json': {} } } } }),
    revision: resultOf(str),
    expect: [['response-body-media-type-schema-added', 'INFO']],
  },
  {
    title: 'the schema of a response media type is removed',
    base: resultOf(str),
    revision: post({ responses: { '200': { description: 'ok', content: { 'application/json': {} } } } }),
    expect: [['response-body-media-type-schema-removed', 'WARN']],
  },
  { title: 'a response header is added', base: withHeader(undefined), revision: withHeader({ schema: int }), expect: [['response-header-added', 'INFO']] },
  {
    title: 'a required response header is removed',
    base: withHeader({ required: true, schema: int }),
    revision: withHeader(undefined),
    expect: [['required-response-header-removed', 'ERR']],
  },
  {
    title: 'an optional response header is removed',
    base: withHeader({ schema: int }),
    revision: withHeader(undefined),
    expect: [['optional-response-header-removed', 'WARN']],
  },
  {
    title: 'a response header becomes optional',
    base: withHeader({ required: true, schema: int }),
    revision: withHeader({ schema: int }),
    expect: [['response-header-became-optional', 'ERR']],
  },
  {
    title: 'a response header becomes required',
    base: withHeader({ schema: int }),
    revision: withHeader({ required: true, schema: int }),
    expect: [['response-header-became-required', 'INFO']],
  },
  {
    title: 'a response header type changes',
    base: withHeader({ schema: int }),
    revision: withHeader({ schema: { type: 'boolean' } }),
    expect: [['response-header-type-changed', 'ERR']],
  },
  {
    title: 'a response header type widens',
    base: withHeader({ schema: int }),
    revision: withHeader({ schema: num }),
    expect: [['response-header-type-generalized', 'ERR']],
  },
  {
    title: 'a response header type narrows',
    base: withHeader({ schema: num }),
    revision: withHeader({ schema: int }),
    expect: [['response-header-type-specialized', 'INFO']],
  },
  {
    title: 'a response header becomes nullable',
    base: withHeader({ schema: int }),
    revision: withHeader({ schema: { type: ['integer', 'null'] } }),
    expect: [['response-header-became-nullable', 'ERR']],
  },
  {
    title: 'a response header is no longer nullable',
    base: withHeader({ schema: { type: ['integer', 'null'] } }),
    revision: withHeader({ schema: int }),
    expect: [['response-header-became-not-nullable', 'INFO']],
  },
  // security
  {
    title: 'a security alternative is added to an operation that had one',
    base: secured([{ key: [] }]),
    revision: secured([{ key: [] }, { oauth: ['read'] }]),
    expect: [['api-security-added', 'INFO']],
  },
  {
    title: 'a public operation starts to require a key',
    base: secured([]),
    revision: secured([{ key: [] }]),
    expect: [['api-security-added-to-public-endpoint', 'ERR']],
  },
  {
    title: 'a security requirement is removed',
    base: secured([{ key: [] }, { oauth: ['read'] }]),
    revision: secured([{ key: [] }]),
    expect: [['api-security-removed', 'INFO']],
  },
  {
    title: 'a scope is added to a requirement',
    base: secured([{ oauth: ['read'] }]),
    revision: secured([{ oauth: ['read', 'write'] }]),
    expect: [['api-security-scope-added', 'INFO']],
  },
  {
    title: 'a scope is removed from a requirement',
    base: secured([{ oauth: ['read', 'write'] }]),
    revision: secured([{ oauth: ['read'] }]),
    expect: [['api-security-scope-removed', 'INFO']],
  },
  {
    title: 'a top-level requirement is added (operations keep their own)',
    base: secured([{ key: [] }]),
    revision: secured([{ key: [] }], { security: [{ oauth: ['read'] }] }),
    expect: [['api-global-security-added', 'INFO']],
  },
  {
    title: 'a top-level requirement is added to an API whose operation was public',
    base: post({}, schemes),
    revision: post({}, { ...schemes, security: [{ key: [] }] }),
    expect: [
      ['api-security-added-to-public-endpoint', 'ERR'],
      ['api-global-security-added', 'INFO'],
    ],
  },
  {
    title: 'a top-level requirement is removed',
    base: secured([{ key: [] }], { security: [{ oauth: ['read'] }] }),
    revision: secured([{ key: [] }]),
    expect: [['api-global-security-removed', 'INFO']],
  },
  {
    title: 'a top-level scope is added',
    base: secured([{ key: [] }], { security: [{ oauth: ['read'] }] }),
    revision: secured([{ key: [] }], { security: [{ oauth: ['read', 'write'] }] }),
    expect: [['api-global-security-scope-added', 'INFO']],
  },
  {
    title: 'a top-level scope is removed',
    base: secured([{ key: [] }], { security: [{ oauth: ['read', 'write'] }] }),
    revision: secured([{ key: [] }], { security: [{ oauth: ['read'] }] }),
    expect: [['api-global-security-scope-removed', 'INFO']],
  },
  {
    title: 'a security scheme is added',
    base: post({}, { components: { securitySchemes: {} } }),
    revision: post({}, { components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' } } } }),
    expect: [['api-security-component-added', 'INFO']],
  },
  {
    title: 'a security scheme is removed',
    base: post({}, { components: { securitySchemes: { basic: { type: 'http', scheme: 'basic' } } } }),
    revision: post({}, { components: { securitySchemes: {} } }),
    expect: [['api-security-component-removed', 'INFO']],
  },
  {
    title: 'a security scheme changes type',
    base: post({}, { components: { securitySchemes: { s: { type: 'http', scheme: 'basic' } } } }),
    revision: post({}, { components: { securitySchemes: { s: { type: 'apiKey', in: 'header', name: 'k' } } } }),
    expect: [['api-security-component-type-changed', 'INFO']],
  },
  {
    title: 'an API key moves to another header',
    base: post({}, { components: { securitySchemes: { s: { type: 'apiKey', in: 'header', name: 'x-api-key' } } } }),
    revision: post({}, { components: { securitySchemes: { s: { type: 'apiKey', in: 'header', name: 'x-key' } } } }),
    expect: [['api-security-component-api-key-changed', 'ERR']],
  },
];

// readOnly / writeOnly transitions of a property, seen from a request and from a response.
for (const direction of ['request', 'response'] as const) {
  for (const required of [true, false]) {
    for (const [flag, name] of [
      ['readOnly', 'read-only'],
      ['writeOnly', 'write-only'],
    ] as const) {
      for (const becomes of [true, false]) {
        const schema = (on: boolean) => object({ a: { type: 'string', ...(on ? { [flag]: true } : {}) } }, required ? ['a'] : []);
        const wrap = direction === 'request' ? bodyOf : resultOf;
        const id = `${direction}-${required ? 'required' : 'optional'}-property-became-${becomes ? '' : 'not-'}${name}`;
        pairs.push({
          title: `a ${required ? 'required' : 'optional'} ${direction} property ${becomes ? 'becomes' : 'is no longer'} ${flag}`,
          base: wrap(schema(!becomes)),
          revision: wrap(schema(becomes)),
          expect: [[id, id === 'response-required-property-became-not-write-only' ? 'WARN' : 'INFO']],
        });
      }
    }
  }
}

/** Emits generated/openapi.json: the whole REST interface (spec part 4.1) as OpenAPI 3.1.0. */
import type { Manifest, ToolDefinition } from '../manifest/types.ts';
import { accountPaths, accountSchemas, packSwitches } from './account-openapi.ts';
import { inputSchema, toJsonSchema, type JsonSchema } from './json-schema.ts';
import { ERRORS } from '../errors.ts';
import {
  BUILTIN_SOURCE,
  GENERATED_NOTICE,
  argsTypeName,
  callOperationId,
  dataTypeName,
  describeOperationId,
  extraTypeName,
  recordSchemaName,
  resultSchemaName,
  toolPath,
} from './names.ts';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string): JsonSchema => ({ $ref: `#/components/responses/${name}` });
const headerRef = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` });
const json = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema } });

/** Every error of spec part 7 (and 413 for oversized bodies), by response component name (codegen/errors.ts). */
const errorResponses = ERRORS.filter((error) => error.response !== undefined).map((error) => ({
  name: error.response!,
  status: String(error.status),
  code: error.code,
  description: error.description,
}));

const rateLimitHeaders = {
  'RateLimit-Limit': headerRef('RateLimitLimit'),
  'RateLimit-Remaining': headerRef('RateLimitRemaining'),
  'RateLimit-Reset': headerRef('RateLimitReset'),
  'RateLimit-Policy': headerRef('RateLimitPolicy'),
  RateLimit: headerRef('RateLimit'),
};

function sharedComponents(manifest: Manifest): JsonSchema {
  const schemas: JsonSchema = {
    Error: {
      type: 'object',
      description: 'The error object of spec part 2.4.',
      additionalProperties: false,
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          additionalProperties: false,
          required: ['code', 'message'],
          properties: {
            code: { type: 'string', enum: ERRORS.filter((error) => !error.neverAnswered).map((error) => error.code) },
            message: { type: 'string' },
            retry_after_s: {
              type: 'integer',
              minimum: 0,
              description: 'Seconds to wait before retrying, when the wait is known (the Retry-After header says the same).',
            },
          },
        },
      },
    },
    Account: {
      type: 'object',
      description: "The caller's account and its last 20 calls, newest first.",
      additionalProperties: false,
      required: ['account', 'recent_calls'],
      properties: {
        account: {
          type: 'object',
          additionalProperties: false,
          required: ['id', 'name', 'balance', 'packs'],
          properties: {
            id: { type: 'string' },
            name: { type: 'string' },
            balance: { type: 'integer', minimum: 0, description: 'Credits left.' },
            packs: packSwitches(manifest),
          },
        },
        recent_calls: {
          type: 'array',
          maxItems: 20,
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['call_id', 'tool', 'status', 'credits', 'created_at'],
            properties: {
              call_id: { type: 'string' },
              tool: { type: 'string' },
              status: { type: 'string', description: '`ok`, or the error code the call answered.' },
              credits: { type: 'integer', minimum: 0, description: 'Credits charged.' },
              created_at: { type: 'string', format: 'date-time' },
            },
          },
        },
      },
    },
    FailedSource: {
      type: 'object',
      additionalProperties: false,
      required: ['source', 'error'],
      properties: { source: { type: 'string' }, error: { type: 'string' } },
    },
    File: {
      type: 'object',
      additionalProperties: false,
      required: ['name', 'url', 'mimeType'],
      properties: { name: { type: 'string' }, url: { type: 'string', format: 'uri' }, mimeType: { type: 'string' } },
    },
    ToolDescription: {
      type: 'object',
      description: 'The tool description of spec part 2.1.',
      additionalProperties: false,
      required: ['name', 'title', 'description', 'pack', 'input_schema'],
      properties: {
        name: { type: 'string' },
        title: { type: 'string' },
        description: { type: 'string' },
        pack: { type: 'string', enum: manifest.packs.map((pack) => pack.id) },
        input_schema: { type: 'object', description: "JSON Schema of the tool's arguments." },
      },
    },
    ToolList: {
      type: 'object',
      additionalProperties: false,
      required: ['tools'],
      properties: {
        tools: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['name', 'title', 'description', 'pack', 'credits', 'capability', 'path'],
            properties: {
              name: { type: 'string' },
              title: { type: 'string' },
              description: { type: 'string' },
              pack: { type: 'string', enum: manifest.packs.map((pack) => pack.id) },
              credits: { type: 'integer', minimum: 0, description: 'Credits charged per successful call.' },
              capability: { type: 'string' },
              path: { type: 'string' },
            },
          },
        },
      },
    },
  };
  const responses = Object.fromEntries(
    errorResponses.map((error) => [
      error.name,
      {
        description: error.description,
        ...(error.status === '429' ? { headers: { 'Retry-After': headerRef('RetryAfter'), ...rateLimitHeaders } } : {}),
        ...(error.status === '503' || error.status === '409' ? { headers: { 'Retry-After': headerRef('RetryAfter') } } : {}),
        content: {
          'application/json': {
            schema: ref('Error'),
            example: { error: { code: error.code, message: error.description } },
          },
        },
      },
    ]),
  );
  const integerHeader = (description: string): JsonSchema => ({ description, schema: { type: 'integer', minimum: 0 } });
  const headers = {
    RetryAfter: integerHeader('Seconds to wait before the next request.'),
    RateLimitLimit: integerHeader('Requests allowed per window by the limit closest to running out (per key or per account).'),
    RateLimitRemaining: integerHeader('Requests left in the current window of that limit.'),
    RateLimitReset: integerHeader('Seconds until the current window of that limit resets.'),
    RateLimitPolicy: {
      description: 'The quota policies (IETF httpapi-ratelimit-headers), e.g. `"per-key";q=60;w=60, "per-account";q=600;w=60`.',
      schema: { type: 'string' },
    },
    RateLimit: {
      description: 'The remaining quota of each policy (IETF httpapi-ratelimit-headers), e.g. `"per-key";r=59;t=60, "per-account";r=599;t=60`.',
      schema: { type: 'string' },
    },
    CreditsRemaining: integerHeader("The account's balance in credits after this request (on every answer to a valid key)."),
    IdempotentReplayed: {
      description: '`true` when this is the stored answer of an earlier request with the same Idempotency-Key.',
      schema: { type: 'string', const: 'true' },
    },
  };
  const parameters = {
    IdempotencyKey: {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Makes a retried call safe (IETF draft): within 24 hours, a repeat with the same key and body gets the stored answer ' +
        '(same call_id, status and body) and is not charged again; the same key with another body is 422; a repeat while the first runs is 409. ' +
        'Successes and 400/402/403/406 answers are stored; 429 and 5xx are not, so a retry after them runs again.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    },
  };
  return { schemas, responses, headers, parameters };
}

function recordSchema(tool: ToolDefinition): JsonSchema {
  const sources = tool.upstream ? [...new Set(tool.upstream.calls.map((call) => call.source))] : [BUILTIN_SOURCE];
  return {
    type: 'object',
    description: `One record of ${tool.name} (spec part 2.3).`,
    additionalProperties: false,
    required: ['id', 'type', 'source', 'license', 'attribution', 'retrievedAt', 'data'],
    properties: {
      id: { type: 'string', description: 'Record identifier: the source id, a colon, the native id.', pattern: '^[a-z][a-z0-9-]*:.+$' },
      type: { type: 'string', const: tool.record_type },
      source: { type: 'string', enum: sources },
      title: { type: 'string' },
      url: { type: 'string', format: 'uri' },
      license: { type: 'string' },
      attribution: { type: 'string' },
      retrievedAt: { type: 'string', format: 'date-time', description: 'UTC, with milliseconds.' },
      data: ref(dataTypeName(tool.name)),
    },
  };
}

function resultSchema(tool: ToolDefinition): JsonSchema {
  const properties: JsonSchema = {
    summary: { type: 'string', description: 'One sentence describing the result.' },
    records: { type: 'array', items: ref(recordSchemaName(tool.name)) },
    partial: { type: 'boolean', const: true, description: 'Present only when some sources failed and others answered.' },
    failedSources: { type: 'array', items: ref('FailedSource'), description: 'Present only when a source failed.' },
    files: { type: 'array', items: ref('File'), description: 'Present only when the call produced a file.' },
  };
  if (tool.extra) properties.extra = ref(extraTypeName(tool.name));
  properties.credits_used = { type: 'integer', minimum: 0, description: 'Credits charged for this call.' };
  properties.call_id = { type: 'string', description: 'Identifier of this call.' };
  return {
    type: 'object',
    description: `The result of ${tool.name} (spec part 2.2).`,
    additionalProperties: false,
    required: ['summary', 'records', 'credits_used', 'call_id'],
    properties,
  };
}

export function describeCost(tool: ToolDefinition): string {
  if (tool.figure_price_credits !== undefined) {
    return `${tool.credits} credits at call time; ${tool.figure_price_credits} credits when the image is finished.`;
  }
  return `${tool.credits} credit${tool.credits === 1 ? '' : 's'} per successful call.`;
}

/** The citation formats of tools with citation_export; the media types are the server's (src/server/citation-export.ts). */
const citationContent: JsonSchema = {
  'application/x-bibtex': { schema: { type: 'string', description: 'BibTeX entries, one per paper.' } },
  'application/x-research-info-systems': { schema: { type: 'string', description: 'RIS records, one per paper.' } },
  'application/vnd.citationstyles.csl+json': { schema: { type: 'array', items: { type: 'object' }, description: 'CSL-JSON items, one per paper.' } },
};

function toolPathItem(tool: ToolDefinition): JsonSchema {
  const hasRequired = (tool.input.required ?? []).length > 0;
  const errors = [
    'InvalidInput',
    'Unauthorized',
    'InsufficientCredits',
    'PackDisabled',
    'UnknownTool',
    // every tool refuses an Accept it cannot answer (those without citation export answer only JSON)
    'NotAcceptable',
    'IdempotencyInProgress',
    'PayloadTooLarge',
    'IdempotencyKeyReused',
    'RateLimited',
    'Internal',
    'UpstreamError',
    'TemporarilyUnavailable',
  ];
  const statusOf = (name: string): string => errorResponses.find((error) => error.name === name)!.status;
  return {
    get: {
      operationId: describeOperationId(tool.name),
      summary: `Describe ${tool.name}`,
      description: 'Returns the tool description (spec part 2.1). No key needed.',
      tags: [tool.pack],
      security: [],
      responses: {
        '200': { description: 'The tool description.', content: json(ref('ToolDescription')) },
        '406': responseRef('NotAcceptable'),
        '500': responseRef('Internal'),
      },
    },
    post: {
      operationId: callOperationId(tool.name),
      summary: tool.title,
      description: `${tool.description}\n\nCost: ${describeCost(tool)}`,
      tags: [tool.pack],
      security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: { required: hasRequired, content: json(ref(argsTypeName(tool.name))) },
      responses: {
        '200': {
          description: tool.citation_export
            ? 'The call succeeded. With `Accept: application/x-bibtex`, `application/x-research-info-systems` or `application/vnd.citationstyles.csl+json` the papers come as BibTeX, RIS or CSL-JSON (call id and credits in the X-Call-Id and X-Credits-Used headers).'
            : 'The call succeeded.',
          headers: { ...rateLimitHeaders, 'X-Credits-Remaining': headerRef('CreditsRemaining'), 'Idempotent-Replayed': headerRef('IdempotentReplayed') },
          content: { ...json(ref(resultSchemaName(tool.name))), ...(tool.citation_export ? citationContent : {}) },
        },
        ...Object.fromEntries(errors.map((name) => [statusOf(name), responseRef(name)])),
      },
      'x-credits': tool.credits,
      ...(tool.figure_price_credits !== undefined ? { 'x-figure-price-credits': tool.figure_price_credits } : {}),
    },
  };
}

export function buildOpenApi(manifest: Manifest): JsonSchema {
  const tools = [...manifest.tools].sort((a, b) => a.name.localeCompare(b.name));
  const shared = sharedComponents(manifest);
  const toolSchemas: JsonSchema = {};
  for (const tool of tools) {
    toolSchemas[argsTypeName(tool.name)] = { description: `Arguments of ${tool.name}.`, ...inputSchema(tool) };
    toolSchemas[dataTypeName(tool.name)] = toJsonSchema(tool.data, true);
    if (tool.extra) toolSchemas[extraTypeName(tool.name)] = toJsonSchema(tool.extra, true);
    toolSchemas[recordSchemaName(tool.name)] = recordSchema(tool);
    toolSchemas[resultSchemaName(tool.name)] = resultSchema(tool);
  }
  const schemas = { ...(shared.schemas as JsonSchema), ...accountSchemas(manifest), ...toolSchemas };
  const sortedSchemas = Object.fromEntries(
    Object.keys(schemas)
      .sort()
      .map((name) => [name, schemas[name]]),
  );
  const paths: JsonSchema = {
    '/api/v1': {
      get: {
        operationId: 'listTools',
        summary: 'List all tools',
        description: 'Every tool with its pack, credits and path. No key needed.',
        tags: ['api'],
        security: [],
        responses: {
          '200': { description: 'All tools.', content: json(ref('ToolList')) },
          '406': responseRef('NotAcceptable'),
          '500': responseRef('Internal'),
        },
      },
    },
    '/api/v1/openapi.json': {
      get: {
        operationId: 'getOpenApi',
        summary: 'This OpenAPI description',
        description: 'The OpenAPI 3.1 description of the whole API. No key needed.',
        tags: ['api'],
        security: [],
        responses: {
          '200': { description: 'The OpenAPI document.', content: json({ type: 'object' }) },
          '406': responseRef('NotAcceptable'),
          '500': responseRef('Internal'),
        },
      },
    },
    '/api/v1/account': {
      get: {
        operationId: 'getAccount',
        summary: 'Your account',
        description: "The balance, packs and last 20 calls of the key's account. Free, and not counted against the key's rate limit.",
        tags: ['account'],
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }],
        responses: {
          '200': { description: 'The account.', headers: { 'X-Credits-Remaining': headerRef('CreditsRemaining') }, content: json(ref('Account')) },
          '401': responseRef('Unauthorized'),
          '406': responseRef('NotAcceptable'),
          '429': responseRef('RateLimited'),
          '500': responseRef('Internal'),
          '503': responseRef('TemporarilyUnavailable'),
        },
      },
    },
  };
  Object.assign(paths, accountPaths(manifest));
  for (const tool of tools) paths[toolPath(tool.name)] = toolPathItem(tool);
  return {
    'x-generated': GENERATED_NOTICE,
    openapi: '3.1.0',
    info: {
      title: 'Research Tools API',
      version: '1.0.0',
      summary: 'One authenticated, credit-billed interface to research lookup tools.',
      description:
        'Each tool is called with POST /api/v1/<tool> and a JSON object of arguments, with an API key in ' +
        "`Authorization: Bearer <key>` or `x-api-key: <key>`. Each successful call costs the tool's credits; " +
        'a failed call costs nothing. Limits (by default): 60 requests per minute per key, and 600 per minute with all ' +
        "of an account's keys together; beyond them 429 with Retry-After. A method an address does not serve is " +
        '405 method_not_allowed with an `Allow` header naming those it does.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: '/', description: 'This server; replaced at run time by PUBLIC_BASE_URL.' }],
    tags: [
      { name: 'api', description: 'The API itself' },
      { name: 'account', description: 'Your account: balance, API keys, packs and usage (free)' },
      ...manifest.packs.map((pack) => ({ name: pack.id, description: pack.title })),
    ],
    paths,
    components: {
      schemas: sortedSchemas,
      responses: shared.responses,
      headers: shared.headers,
      parameters: shared.parameters,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (`sm_…`) as a bearer token.' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (`sm_…`).' },
      },
    },
  };
}

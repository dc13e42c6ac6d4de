/**
 * JSON Schema of tools.yaml itself. Structural rules live here; rules that relate one part of the
 * manifest to another (a tool's pack exists, a default matches its own schema) are in validate.ts.
 */
const identifier = { type: 'string', pattern: '^[a-z][a-z0-9_]*$' };
const sourceId = { type: 'string', pattern: '^[a-z][a-z0-9-]*$' };
const nonEmpty = { type: 'string', minLength: 1 };
const nonNegativeInteger = { type: 'integer', minimum: 0 };

const schemaKeywords = {
  type: { enum: ['string', 'integer', 'number', 'boolean', 'array', 'object'] },
  description: nonEmpty,
  enum: { type: 'array', minItems: 1, items: { type: ['string', 'number'] } },
  const: { type: ['string', 'number', 'boolean'] },
  default: {},
  minimum: { type: 'number' },
  maximum: { type: 'number' },
  exclusiveMinimum: { type: 'number' },
  exclusiveMaximum: { type: 'number' },
  minLength: nonNegativeInteger,
  maxLength: nonNegativeInteger,
  pattern: nonEmpty,
  format: { enum: ['date', 'date-time', 'uri'] },
  items: { $ref: '#/definitions/schemaNode' },
  minItems: nonNegativeInteger,
  maxItems: nonNegativeInteger,
  uniqueItems: { type: 'boolean' },
  properties: { type: 'object', additionalProperties: { $ref: '#/definitions/schemaNode' } },
  required: { type: 'array', items: nonEmpty },
  additionalProperties: { anyOf: [{ type: 'boolean' }, { $ref: '#/definitions/schemaNode' }] },
  oneOf: { type: 'array', minItems: 2, items: { $ref: '#/definitions/schemaNode' } },
};

const twoFields = { type: 'array', items: identifier, minItems: 2, maxItems: 2 };

/**
 * A source's documented quotas (upstream budgets): windows with their reset, costs per request kind,
 * and the answer by which the upstream says a quota is spent. Cross-checks are in validate.ts.
 */
const budget = {
  type: 'object',
  additionalProperties: false,
  required: ['documented', 'windows'],
  properties: {
    /** Where the figures come from (a page of the source's documentation), in words a maintainer can check. */
    documented: nonEmpty,
    /** What limits and costs count: requests (the default) or US dollars. */
    unit: { enum: ['requests', 'usd'] },
    /** Request kinds the connector tags, with what one request of that kind costs. */
    kinds: { type: 'object', minProperties: 1, propertyNames: identifier, additionalProperties: { type: 'number', minimum: 0 } },
    windows: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['per', 'reset', 'limit'],
        properties: {
          per: { enum: ['second', 'minute', 'hour', 'day'] },
          /** midnight_utc: a calendar day of UTC; rolling: the last second, minute, hour or 24 hours. */
          reset: { enum: ['midnight_utc', 'rolling'] },
          limit: { type: 'number', exclusiveMinimum: 0 },
          /** The limit while no key is configured, for sources whose key is optional. */
          limit_without_key: { type: 'number', exclusiveMinimum: 0 },
        },
      },
    },
    /** The answer by which the upstream says a quota is spent: that window counts as spent until its reset. */
    spent_signal: {
      type: 'object',
      additionalProperties: false,
      required: ['status', 'window'],
      properties: {
        status: { type: 'integer', minimum: 200, maximum: 599 },
        body_pattern: nonEmpty,
        window: { enum: ['second', 'minute', 'hour', 'day'] },
      },
    },
  },
};

export const manifestMetaSchema = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  definitions: {
    schemaNode: { type: 'object', additionalProperties: false, properties: schemaKeywords },
    inputProperty: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ...schemaKeywords,
        default_from: {
          type: 'object',
          additionalProperties: false,
          required: ['field', 'map', 'otherwise'],
          properties: { field: identifier, map: { type: 'object' }, otherwise: {} },
        },
      },
    },
    constraint: {
      type: 'object',
      required: ['rule', 'fields'],
      oneOf: [
        {
          additionalProperties: false,
          properties: {
            rule: { enum: ['together', 'at_least_one'] },
            fields: { type: 'array', items: identifier, minItems: 2 },
          },
        },
        {
          additionalProperties: false,
          properties: { rule: { const: 'ordered' }, fields: twoFields },
        },
        {
          additionalProperties: false,
          required: ['max'],
          properties: {
            rule: { const: 'max_days' },
            fields: twoFields,
            max: { type: 'integer', minimum: 1 },
            when: { type: 'object' },
          },
        },
      ],
    },
  },
  type: 'object',
  additionalProperties: false,
  required: ['packs', 'capabilities', 'sources', 'tools'],
  properties: {
    packs: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'title'],
        properties: { id: identifier, title: nonEmpty },
      },
    },
    capabilities: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'title'],
        properties: { id: identifier, title: nonEmpty },
      },
    },
    sources: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['id', 'title', 'base_url', 'docs_url', 'license', 'attribution', 'key', 'contact_email', 'timeout_ms', 'rate_limit', 'cache_ttl_s'],
        properties: {
          id: sourceId,
          title: nonEmpty,
          base_url: { type: 'string', pattern: '^https?://[^\\s]+[^/\\s]$' },
          docs_url: { type: 'string', pattern: '^https?://\\S+$' },
          license: nonEmpty,
          attribution: nonEmpty,
          key: { enum: ['required', 'optional', 'none'] },
          contact_email: { enum: ['required', 'recommended', 'none'] },
          timeout_ms: { type: 'integer', minimum: 100 },
          rate_limit: {
            type: 'object',
            additionalProperties: false,
            required: ['requests_per_second', 'concurrency'],
            properties: {
              requests_per_second: { type: 'number', exclusiveMinimum: 0 },
              concurrency: { type: 'integer', minimum: 1 },
            },
          },
          cache_ttl_s: nonNegativeInteger,
          max_body_bytes: { type: 'integer', minimum: 1024 },
          same_host_redirects: { type: 'integer', minimum: 0, maximum: 5 },
          budget,
          note: nonEmpty,
        },
      },
    },
    tools: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'title', 'description', 'pack', 'credits', 'capability', 'record_type', 'input', 'data'],
        properties: {
          name: identifier,
          title: nonEmpty,
          description: nonEmpty,
          pack: identifier,
          credits: { type: 'integer' },
          capability: identifier,
          record_type: identifier,
          input: {
            type: 'object',
            additionalProperties: false,
            required: ['properties'],
            properties: {
              properties: { type: 'object', additionalProperties: { $ref: '#/definitions/inputProperty' } },
              required: { type: 'array', items: identifier },
              constraints: { type: 'array', items: { $ref: '#/definitions/constraint' } },
            },
          },
          data: { $ref: '#/definitions/schemaNode' },
          extra: { $ref: '#/definitions/schemaNode' },
          figure_price_credits: { type: 'integer' },
          limits: { type: 'object', additionalProperties: { type: 'integer', minimum: 1 } },
          citation_export: { type: 'boolean' },
          upstream: {
            type: 'object',
            additionalProperties: false,
            required: ['calls'],
            properties: {
              select_by: identifier,
              calls: {
                type: 'array',
                minItems: 1,
                items: {
                  type: 'object',
                  additionalProperties: false,
                  required: ['source', 'function'],
                  properties: { source: sourceId, function: { type: 'string', pattern: '^[a-z][A-Za-z0-9]*$' } },
                },
              },
            },
          },
        },
      },
    },
  },
} as const;

/**
 * The account owner's settings endpoints under /api/v1/account (keys, packs, usage, changes) as
 * OpenAPI paths and schemas, merged into generated/openapi.json by openapi.ts. The server side is
 * src/server/account/api.ts; the limits below are the ones src/server/account/owner.ts enforces.
 */
import type { Manifest } from '../manifest/types.ts';
import type { JsonSchema } from './json-schema.ts';

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string): JsonSchema => ({ $ref: `#/components/responses/${name}` });
const headerRef = (name: string): JsonSchema => ({ $ref: `#/components/headers/${name}` });
const json = (schema: JsonSchema): JsonSchema => ({ 'application/json': { schema } });

const MAX_KEY_NAME_LENGTH = 100;
const KEYED = [{ bearerAuth: [] }, { apiKeyHeader: [] }];
const date = { type: 'string', format: 'date', description: 'A UTC date, YYYY-MM-DD.' };
const dateTime = { type: 'string', format: 'date-time' };
const totals = { calls: { type: 'integer', minimum: 0 }, credits: { type: 'integer', minimum: 0 } };
const keyName = { type: ['string', 'null'], minLength: 1, maxLength: MAX_KEY_NAME_LENGTH, description: 'A label of your choice; null for none.' };

function closed(properties: Record<string, JsonSchema>, required = Object.keys(properties), description?: string): JsonSchema {
  return { type: 'object', ...(description ? { description } : {}), additionalProperties: false, required, properties };
}

/** Every pack of the manifest with its switch, as the account answers show them. */
export function packSwitches(manifest: Manifest): JsonSchema {
  return {
    type: 'object',
    description: 'Each discipline pack, switched on (true) or off (false) for the account.',
    additionalProperties: false,
    required: manifest.packs.map((pack) => pack.id),
    properties: Object.fromEntries(manifest.packs.map((pack) => [pack.id, { type: 'boolean' }])),
  };
}

export function accountSchemas(manifest: Manifest): JsonSchema {
  const keyProperties = {
    id: { type: 'string' },
    name: { type: ['string', 'null'] },
    prefix: { type: 'string', description: 'The first characters of the key, to tell keys apart.' },
    created_at: dateTime,
    last_used_at: { type: ['string', 'null'], format: 'date-time', description: 'Last use, to the minute; null when never used.' },
    in_use: { type: 'boolean', description: 'True for the key this request was made with.' },
  };
  return {
    AccountKey: closed(keyProperties, undefined, 'An API key of the account, without its secret.'),
    AccountKeyList: closed({ keys: { type: 'array', items: ref('AccountKey') } }),
    CreatedAccountKey: closed(
      { ...keyProperties, key: { type: 'string', description: 'The whole key: shown in this answer only, never again.' }, message: { type: 'string' } },
      undefined,
      'The new key, with its secret shown this once.',
    ),
    DeletedAccountKey: closed({
      id: { type: 'string' },
      deleted: { type: 'boolean', const: true },
      was_in_use: { type: 'boolean', description: 'True when the key deleted is the one this request was made with.' },
      message: { type: 'string' },
    }),
    AccountPacks: closed({ packs: packSwitches(manifest) }),
    AccountUsage: closed({
      from: date,
      to: date,
      total: closed(totals),
      by_day: { type: 'array', description: 'Every day of the period, oldest first.', items: closed({ date, ...totals }) },
      by_tool: { type: 'array', description: 'Tools called in the period, most credits first.', items: closed({ tool: { type: 'string' }, ...totals }) },
      by_day_and_tool: { type: 'array', description: 'Days and tools with calls, oldest first.', items: closed({ date, tool: { type: 'string' }, ...totals }) },
      recent_calls: {
        type: 'array',
        maxItems: 20,
        description: 'The last 20 calls, newest first.',
        items: closed({
          call_id: { type: 'string' },
          tool: { type: 'string' },
          status: { type: 'string', description: '`ok`, or the error code the call failed with (`cancelled`: its caller cancelled it, over MCP).' },
          credits: { type: 'integer', minimum: 0 },
          created_at: dateTime,
        }),
      },
    }),
    AccountChanges: closed({
      changes: {
        type: 'array',
        description: "The last 50 changes to the account's keys and packs, newest first.",
        items: closed({
          action: { type: 'string', enum: ['key_created', 'key_renamed', 'key_deleted', 'pack_enabled', 'pack_disabled'] },
          subject: { type: 'string', description: 'The key id or pack changed.' },
          detail: { type: ['string', 'null'], description: "The key's name, for key_created and key_renamed." },
          actor: {
            type: 'string',
            enum: ['owner', 'operator'],
            description: '`owner`: through these endpoints or the settings page; `operator`: the admin CLI.',
          },
          actor_key_id: { type: ['string', 'null'], description: 'The key the owner used.' },
          created_at: dateTime,
        }),
      },
    }),
  };
}

function operation(
  operationId: string,
  summary: string,
  description: string,
  answer: { status: string; description: string; schema: string },
  extra: { parameters?: JsonSchema[]; requestBody?: JsonSchema; errors?: string[] } = {},
): JsonSchema {
  // Every operation here needs a key (401, and 429 once an address has sent too many bad ones) and answers JSON only (406).
  const errors = ['Unauthorized', ...(extra.errors ?? []), 'NotAcceptable', 'RateLimited', 'Internal', 'TemporarilyUnavailable'];
  const statusOf: Record<string, string> = {
    InvalidInput: '400',
    Unauthorized: '401',
    NotFound: '404',
    NotAcceptable: '406',
    PayloadTooLarge: '413',
    RateLimited: '429',
    Internal: '500',
    TemporarilyUnavailable: '503',
  };
  return {
    operationId,
    summary,
    description,
    tags: ['account'],
    security: KEYED,
    ...(extra.parameters ? { parameters: extra.parameters } : {}),
    ...(extra.requestBody ? { requestBody: extra.requestBody } : {}),
    responses: {
      [answer.status]: {
        description: answer.description,
        headers: { 'X-Credits-Remaining': headerRef('CreditsRemaining') },
        content: json(ref(answer.schema)),
      },
      ...Object.fromEntries(errors.map((name) => [statusOf[name], responseRef(name)])),
    },
  };
}

const pathParameter = (name: string, description: string, schema: JsonSchema = { type: 'string' }): JsonSchema => ({
  name,
  in: 'path',
  required: true,
  description,
  schema,
});
const body = (schema: JsonSchema): JsonSchema => ({ required: true, content: json(schema) });

export function accountPaths(manifest: Manifest): JsonSchema {
  const keyId = pathParameter('key_id', "The key's id (`key_…`), as listed.");
  const free = "Free, and not counted against the key's rate limit of tool calls.";
  return {
    '/api/v1/account/keys': {
      get: operation('listAccountKeys', 'Your API keys', `The account's live keys, oldest first, never with their secret. ${free}`, {
        status: '200',
        description: 'The keys.',
        schema: 'AccountKeyList',
      }),
      post: operation(
        'createAccountKey',
        'Create an API key',
        `A new key of the account; it works at once. The whole key is in this answer only: copy it now. An account holds at most 20 live keys, and makes at most 20 new keys an hour (KEY_CREATIONS_PER_HOUR; 429 past them). ${free}`,
        { status: '201', description: 'The new key, with its secret.', schema: 'CreatedAccountKey' },
        { requestBody: { required: false, content: json(closed({ name: keyName }, [])) }, errors: ['InvalidInput', 'PayloadTooLarge'] },
      ),
    },
    '/api/v1/account/keys/{key_id}': {
      patch: operation(
        'renameAccountKey',
        'Rename an API key',
        `Gives one of the account's keys another name (null removes it). ${free}`,
        { status: '200', description: 'The key renamed.', schema: 'AccountKey' },
        {
          parameters: [keyId],
          requestBody: body(closed({ name: keyName })),
          errors: ['InvalidInput', 'NotFound', 'PayloadTooLarge'],
        },
      ),
      delete: operation(
        'deleteAccountKey',
        'Delete an API key',
        `Revokes one of the account's keys at once, on every server within a second. Deleting the key the request is made with is allowed, and the answer says so. ${free}`,
        { status: '200', description: 'The key is deleted.', schema: 'DeletedAccountKey' },
        { parameters: [keyId], errors: ['NotFound'] },
      ),
    },
    '/api/v1/account/packs/{pack}': {
      put: operation(
        'setAccountPack',
        'Switch a discipline pack',
        `Switches a pack on or off for the account: the tools of a switched-off pack answer 403 pack_disabled. ${free}`,
        { status: '200', description: 'Every pack with its state.', schema: 'AccountPacks' },
        {
          parameters: [pathParameter('pack', 'The pack.', { type: 'string', enum: manifest.packs.map((pack) => pack.id) })],
          requestBody: body(closed({ enabled: { type: 'boolean' } })),
          errors: ['InvalidInput', 'NotFound', 'PayloadTooLarge'],
        },
      ),
    },
    '/api/v1/account/usage': {
      get: operation(
        'getAccountUsage',
        'Your usage',
        `Calls and credits per day and per tool over a period (by default the last 30 days up to today, UTC; at most 366 days), with the last 20 calls. ${free}`,
        { status: '200', description: 'The usage.', schema: 'AccountUsage' },
        {
          parameters: [
            {
              name: 'from',
              in: 'query',
              required: false,
              description: 'First day (UTC, YYYY-MM-DD); default 29 days before `to`.',
              schema: { type: 'string', format: 'date' },
            },
            { name: 'to', in: 'query', required: false, description: 'Last day (UTC, YYYY-MM-DD); default today.', schema: { type: 'string', format: 'date' } },
          ],
          errors: ['InvalidInput'],
        },
      ),
    },
    '/api/v1/account/changes': {
      get: operation(
        'listAccountChanges',
        'Changes to your settings',
        `Who changed the account's keys and packs, and when: the owner (by key id) or the operator. ${free}`,
        { status: '200', description: 'The changes.', schema: 'AccountChanges' },
      ),
    },
  };
}

/**
 * Emits generated/mcp-tools.json: every tool as an MCP `Tool` definition (the `tools/list` entry of
 * the agent-protocol connection at POST /mcp). The input schema is the REST input_schema, unchanged.
 */
import type { Manifest, ToolDefinition } from '../manifest/types.ts';
import { inputSchema, type JsonSchema } from './json-schema.ts';
import { GENERATED_NOTICE } from './names.ts';
import { describeCost } from './openapi.ts';

/**
 * The result envelope of spec part 2.2, the same JSON as the REST body, kept short: every tool
 * definition carries it, and agents read the whole list. A record's exact `data` fields are in the
 * OpenAPI document (GET /api/v1/openapi.json, schema <Tool>Data).
 */
function outputSchema(tool: ToolDefinition): JsonSchema {
  const properties: JsonSchema = {
    summary: { type: 'string' },
    records: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'type', 'source', 'data'],
        properties: { id: { type: 'string' }, type: { const: tool.record_type }, source: { type: 'string' }, data: { type: 'object' } },
      },
    },
    partial: { type: 'boolean' },
    failedSources: { type: 'array' },
    files: { type: 'array' },
  };
  if (tool.extra) properties.extra = { type: 'object' };
  properties.credits_used = { type: 'integer' };
  properties.call_id = { type: 'string' };
  return { type: 'object', required: ['summary', 'records', 'credits_used', 'call_id'], properties };
}

/** A tool with a figure price makes a new figure; every other tool only looks things up. */
function annotations(tool: ToolDefinition): JsonSchema {
  return {
    readOnlyHint: tool.figure_price_credits === undefined,
    ...(tool.figure_price_credits !== undefined ? { destructiveHint: false, idempotentHint: false } : {}),
    openWorldHint: tool.upstream !== undefined,
  };
}

export function buildMcpTools(manifest: Manifest): JsonSchema {
  const tools = [...manifest.tools].sort((a, b) => a.name.localeCompare(b.name));
  return {
    'x-generated': GENERATED_NOTICE,
    tools: tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: `${tool.description}\n\nCost: ${describeCost(tool)}`,
      inputSchema: inputSchema(tool),
      outputSchema: outputSchema(tool),
      annotations: annotations(tool),
    })),
  };
}

/**
 * Emits generated/mcp-tools.json: every tool as an MCP `Tool` definition (the `tools/list` entry of
 * the agent-protocol connection at POST /mcp). An agent reads the whole list before each
 * conversation, so it says each thing once:
 *
 * - the input schema is the REST input_schema with every argument, constraint and default
 *   (tools.yaml's descriptions leave to the schema what it says: defaults, allowed values, bounds);
 *   only its `x-constraints` between arguments are said in words ("start <= end") instead of as
 *   objects, which a model reads as well for a third of the tokens;
 * - no output schema: the result is the REST body (spec part 2.2), whose record fields are in the
 *   OpenAPI document; an envelope without them told a model little, cost a third of the list, and
 *   made clients check every result against it;
 * - hints only where they differ from the protocol's defaults (readOnlyHint false, destructiveHint
 *   true, idempotentHint false, openWorldHint true);
 * - no title (hosts show the name, which says the same), and the price only where it is not the
 *   usual credit (the server's instructions, read once, say what the usual price is).
 */
import type { Constraint, Manifest, ToolDefinition } from '../manifest/types.ts';
import { inputSchema, type JsonSchema } from './json-schema.ts';
import { GENERATED_NOTICE } from './names.ts';

/** A tool with a figure price makes a new figure (not destructive: it keeps the old ones); every other tool only looks things up. */
function annotations(tool: ToolDefinition): JsonSchema {
  const hints: JsonSchema = tool.figure_price_credits === undefined ? { readOnlyHint: true } : { destructiveHint: false };
  if (tool.upstream === undefined) hints.openWorldHint = false;
  return hints;
}

/** Credits of a tool whose description does not say otherwise (INSTRUCTIONS say so once, with "a failed call costs nothing"). */
export const USUAL_CREDITS = 1;

/** The price, where it is not the usual one. */
function costOf(tool: ToolDefinition): string | undefined {
  if (tool.figure_price_credits !== undefined) return `Cost: ${tool.figure_price_credits} credits once the image is finished.`;
  return tool.credits === USUAL_CREDITS ? undefined : `Cost: ${tool.credits === 0 ? 'free' : `${tool.credits} credits`}.`;
}

/** A constraint between arguments in words, each of its fields and numbers kept. */
export function constraintInWords(constraint: Constraint): string {
  switch (constraint.rule) {
    case 'ordered':
      return `${constraint.fields[0]} <= ${constraint.fields[1]}`;
    case 'together':
      return `${constraint.fields.join(', ')} together`;
    case 'at_least_one':
      return `at least one of ${constraint.fields.join(', ')}`;
    case 'max_days': {
      const when = Object.entries(constraint.when ?? {}).map(([field, value]) => `${field} = ${String(value)}`);
      return `${constraint.fields[0]} to ${constraint.fields[1]} at most ${constraint.max} days${when.length > 0 ? ` when ${when.join(' and ')}` : ''}`;
    }
  }
}

/** The REST input schema, its constraints between arguments in words. */
function mcpInputSchema(tool: ToolDefinition): JsonSchema {
  const schema = inputSchema(tool);
  if (tool.input.constraints && tool.input.constraints.length > 0) schema['x-constraints'] = tool.input.constraints.map(constraintInWords);
  return schema;
}

/** What an agent is told once, at initialize: what the tool descriptions leave unsaid. */
export const INSTRUCTIONS =
  `Research lookups over public sources, paid in credits: a tool costs ${USUAL_CREDITS} credit per successful call unless its description ` +
  'gives another cost, and a failed call costs nothing. A failed call is a result with isError and the error JSON as text: ' +
  '{"error": {"code", "message"}}. Records name their source, licence and attribution.';

export function buildMcpTools(manifest: Manifest): JsonSchema {
  const tools = [...manifest.tools].sort((a, b) => a.name.localeCompare(b.name));
  return {
    'x-generated': GENERATED_NOTICE,
    instructions: INSTRUCTIONS,
    tools: tools.map((tool) => ({
      name: tool.name,
      description: [tool.description, costOf(tool)].filter(Boolean).join(' '),
      inputSchema: mcpInputSchema(tool),
      annotations: annotations(tool),
    })),
  };
}

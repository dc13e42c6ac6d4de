import { expect } from 'chai';
import mcpTools from '../../generated/mcp-tools.json' with { type: 'json' };
import { tools, type ToolMetadata } from '../../generated/tools.ts';
import { buildMcpTools, constraintInWords } from '../../codegen/emit/mcp.ts';
import { TOOL_LIST_BUDGET, toolListSize } from '../../scripts/mcp-tool-list-size.ts';
import { loadManifest } from '../../codegen/manifest/load.ts';
import type { Constraint } from '../../codegen/manifest/types.ts';

type Schema = Record<string, unknown>;

/** A schema without its constraints between arguments. */
function withoutConstraints(schema: Schema): Schema {
  const { 'x-constraints': _constraints, ...rest } = schema;
  return rest;
}

describe('the MCP tool list generated from tools.yaml', () => {
  const manifest = loadManifest('tools.yaml');
  const definitions = mcpTools.tools as Array<{ name: string; description: string; inputSchema: Schema; annotations: Schema } & Schema>;

  it('has one definition per tool, with every argument, constraint and default of the REST input schema', () => {
    expect(definitions.map((tool) => tool.name)).to.deep.equal(manifest.tools.map((tool) => tool.name).sort());
    for (const definition of definitions) {
      const rest = tools[definition.name as keyof typeof tools];
      const restSchema = rest.inputSchema as Schema;
      // Every property with each of its keywords (type, bounds, enum, pattern, format, default, x-default-from, description) and the rest of the schema, as REST validates it.
      expect(withoutConstraints(definition.inputSchema), definition.name).to.deep.equal(withoutConstraints(restSchema));
      // The constraints between arguments, each in words.
      const constraints = (restSchema['x-constraints'] ?? []) as Constraint[];
      expect(definition.inputSchema['x-constraints'] ?? [], definition.name).to.deep.equal(constraints.map(constraintInWords));
      expect(Object.keys(definition).sort(), definition.name).to.deep.equal(['annotations', 'description', 'inputSchema', 'name']);
    }
  });

  it('says each constraint between arguments in words that keep every field and number', () => {
    expect(constraintInWords({ rule: 'ordered', fields: ['start', 'end'] })).to.equal('start <= end');
    expect(constraintInWords({ rule: 'together', fields: ['latitude', 'longitude'] })).to.equal('latitude, longitude together');
    expect(constraintInWords({ rule: 'at_least_one', fields: ['site', 'state', 'bbox'] })).to.equal('at least one of site, state, bbox');
    expect(constraintInWords({ rule: 'max_days', fields: ['start', 'end'], max: 2000, when: { aggregate: 'daily' } })).to.equal(
      'start to end at most 2000 days when aggregate = daily',
    );
    expect(constraintInWords({ rule: 'max_days', fields: ['from', 'to'], max: 31 })).to.equal('from to to at most 31 days');
  });

  it("gives the REST description, and the price where it is not the usual credit (the server's instructions say the usual price once)", () => {
    for (const definition of definitions) {
      const rest: ToolMetadata = tools[definition.name as keyof typeof tools];
      const cost = definition.description.slice(rest.description.length);
      const figurePrice = 'figurePriceCredits' in rest ? rest.figurePriceCredits : undefined;
      expect(definition.description.startsWith(rest.description), definition.name).to.equal(true);
      if (figurePrice !== undefined) expect(cost, definition.name).to.equal(` Cost: ${figurePrice} credits once the image is finished.`);
      else if (rest.credits === 1) expect(cost, definition.name).to.equal('');
      else expect(cost, definition.name).to.equal(rest.credits === 0 ? ' Cost: free.' : ` Cost: ${rest.credits} credits.`);
    }
    expect(mcpTools.instructions).to.contain(
      'a tool costs 1 credit per successful call unless its description gives another cost, and a failed call costs nothing',
    );
  });

  it("gives only the hints that differ from the protocol's defaults: read-only lookups, figure tools that destroy nothing, tools that stay inside the service", () => {
    const hints = Object.fromEntries(definitions.map((tool) => [tool.name, tool.annotations]));
    expect(hints.create_figure).to.deep.equal({ destructiveHint: false, openWorldHint: false });
    expect(hints.edit_figure).to.deep.equal({ destructiveHint: false, openWorldHint: false });
    expect(hints.get_figure).to.deep.equal({ readOnlyHint: true, openWorldHint: false });
    expect(hints.list_capabilities).to.deep.equal({ readOnlyHint: true, openWorldHint: false });
    expect(hints.search_papers).to.deep.equal({ readOnlyHint: true });
  });

  it('is what the emitter writes for the project manifest', () => {
    expect(buildMcpTools(manifest)).to.deep.equal(mcpTools);
  });

  it(`stays within the budget of ${TOOL_LIST_BUDGET.bytes} bytes and ${TOOL_LIST_BUDGET.tokens} tokens an agent spends on reading it`, () => {
    const size = toolListSize();
    expect(size.tools).to.equal(Object.keys(tools).length);
    expect(size.bytes, 'bytes').to.be.at.most(TOOL_LIST_BUDGET.bytes);
    expect(size.tokens, 'tokens').to.be.at.most(TOOL_LIST_BUDGET.tokens);
  });
});

import { expect } from 'chai';
import mcpTools from '../../generated/mcp-tools.json' with { type: 'json' };
import { tools } from '../../generated/tools.ts';
import { buildMcpTools } from '../../codegen/emit/mcp.ts';
import { TOOL_LIST_BUDGET, toolListSize } from '../../scripts/mcp-tool-list-size.ts';
import { loadManifest } from '../../codegen/manifest/load.ts';

describe('the MCP tool list generated from tools.yaml', () => {
  const manifest = loadManifest('tools.yaml');

  it('has one definition per tool of the manifest, with the REST input schema unchanged', () => {
    expect(mcpTools.tools.map((tool) => tool.name)).to.deep.equal(manifest.tools.map((tool) => tool.name).sort());
    for (const definition of mcpTools.tools) {
      const rest = tools[definition.name as keyof typeof tools];
      expect(definition.inputSchema, definition.name).to.deep.equal(rest.inputSchema);
      expect(definition.title, definition.name).to.equal(rest.title);
      expect(definition.description.startsWith(`${rest.description}\n\nCost: `), definition.name).to.equal(true);
    }
  });

  it('marks figure-making tools as not read-only and tools that reach outside sources as open-world', () => {
    const hints = Object.fromEntries(mcpTools.tools.map((tool) => [tool.name, tool.annotations]));
    expect(hints.create_figure).to.deep.equal({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    expect(hints.get_figure).to.deep.equal({ readOnlyHint: true, openWorldHint: false });
    expect(hints.list_capabilities).to.deep.equal({ readOnlyHint: true, openWorldHint: false });
    expect(hints.search_papers).to.deep.equal({ readOnlyHint: true, openWorldHint: true });
  });

  it('gives every tool an output schema for the REST result envelope with its record type', () => {
    const searchPapers = mcpTools.tools.find((tool) => tool.name === 'search_papers')!;
    expect(searchPapers.outputSchema.required).to.deep.equal(['summary', 'records', 'credits_used', 'call_id']);
    expect(searchPapers.outputSchema.properties.records.items.properties.type).to.deep.equal({ const: 'paper' });
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

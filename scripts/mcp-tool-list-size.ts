/**
 * npm run mcp:size — how much of an agent's context the MCP tool list takes: the bytes of the
 * tools/list result for an account with every pack on, and its tokens under o200k_base (the
 * encoding of current OpenAI models; other models' tokenizers give somewhat different counts,
 * hence "about"). A test keeps both under the budget below.
 */
import { countTokens } from 'gpt-tokenizer';
import mcpTools from '../generated/mcp-tools.json' with { type: 'json' };

/** The most the whole tool list may take; raise it only on purpose, with docs/api-guide.md. */
export const TOOL_LIST_BUDGET = { bytes: 25_000, tokens: 6_000 };

export interface ToolListSize {
  tools: number;
  bytes: number;
  tokens: number;
}

/** The size of the tools/list result as the server sends it (compact JSON). */
export function toolListSize(): ToolListSize {
  const text = JSON.stringify({ tools: mcpTools.tools });
  return { tools: mcpTools.tools.length, bytes: Buffer.byteLength(text, 'utf8'), tokens: countTokens(text) };
}

/** The table of it in docs/api-guide.md, written by `npm run docs:tables`. */
export function toolListSizeTable(): string {
  const { tools, bytes, tokens } = toolListSize();
  return [
    '| tools | bytes | tokens (about) | budget |',
    '|---|---|---|---|',
    `| ${tools} | ${bytes.toLocaleString('en')} | ${tokens.toLocaleString('en')} | ${TOOL_LIST_BUDGET.bytes.toLocaleString('en')} bytes, ${TOOL_LIST_BUDGET.tokens.toLocaleString('en')} tokens |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { tools, bytes, tokens } = toolListSize();
  console.log(
    `MCP tool list: ${tools} tools, ${bytes} bytes, about ${tokens} tokens (o200k_base); budget ${TOOL_LIST_BUDGET.bytes} bytes, ${TOOL_LIST_BUDGET.tokens} tokens`,
  );
}

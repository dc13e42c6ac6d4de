/**
 * The documentation's tables that are facts of the code (tools, configuration, the API compatibility
 * policy, the MCP tool-list size) are written from the code: `npm run docs:tables` rewrites them
 * between their markers, and a test fails when they are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { policyMarkdown } from '../codegen/openapi-diff/rules.ts';
import { packs, tools } from '../generated/tools.ts';
import { settings } from '../src/config.ts';
import { availableTools } from '../src/tools/handlers.ts';
import { toolListSizeTable } from './mcp-tool-list-size.ts';

export function toolTable(): string {
  const packTitle = new Map<string, string>(packs.map((pack) => [pack.id, pack.title]));
  const rows = Object.values(tools)
    .sort((a, b) => packs.findIndex((pack) => pack.id === a.pack) - packs.findIndex((pack) => pack.id === b.pack) || a.name.localeCompare(b.name))
    .map((tool) => {
      const credits = 'figurePriceCredits' in tool ? `${tool.credits} (+${tool.figurePriceCredits} per finished figure)` : String(tool.credits);
      const sources = (tool.sources as readonly string[]).join(', ') || 'built in';
      const status = availableTools.has(tool.name) ? 'available' : 'not available yet (502)';
      return `| \`${tool.name}\` | ${packTitle.get(tool.pack)} | ${credits} | ${sources} | ${status} |`;
    });
  return ['| tool | pack | credits | sources | status |', '|---|---|---|---|---|', ...rows].join('\n');
}

export function configTable(): string {
  const rows = Object.values(settings).map((setting) => {
    const fallback = setting.default === undefined ? (setting.variable === 'PUBLIC_BASE_URL' ? '`http://localhost:$PORT`' : 'unset') : `\`${setting.default}\``;
    return `| \`${setting.variable}\` | ${setting.doc} | ${fallback} |`;
  });
  return ['| variable | meaning | default |', '|---|---|---|', ...rows].join('\n');
}

/** The policy table of codegen/openapi-diff/rules.ts, its headings one level under the page's "Policy". */
export function policyTable(): string {
  return policyMarkdown().trim().replace(/^####/gm, '###');
}

/** Which tables each documentation file holds, between `<!-- table:<name>:start -->` and `…:end -->`. */
export const DOCUMENT_TABLES: Record<string, Record<string, () => string>> = {
  'docs/api-guide.md': { tools: toolTable, 'mcp-tool-list': toolListSizeTable },
  'docs/configuration.md': { configuration: configTable },
  'docs/api-compatibility.md': { policy: policyTable },
};

/** The file's text with every marked table replaced by its current rendering. */
export function withCurrentTables(text: string, file: string): string {
  let result = text;
  for (const [name, render] of Object.entries(DOCUMENT_TABLES[file] ?? {})) {
    const start = `<!-- table:${name}:start -->`;
    const end = `<!-- table:${name}:end -->`;
    const from = result.indexOf(start);
    const to = result.indexOf(end);
    if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} markers`);
    result = `${result.slice(0, from + start.length)}\n${render()}\n${result.slice(to)}`;
  }
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const file of Object.keys(DOCUMENT_TABLES)) writeFileSync(file, withCurrentTables(readFileSync(file, 'utf8'), file));
  console.log(`${Object.keys(DOCUMENT_TABLES).join(', ')}: tables rewritten from the code.`);
}

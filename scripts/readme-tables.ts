/**
 * The README's tables that are facts of the code (tools, configuration) are written from the code:
 * `npm run docs:tables` rewrites them between their markers, and a test fails when they are stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
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

const tables: Record<string, () => string> = { tools: toolTable, configuration: configTable, 'mcp-tool-list': toolListSizeTable };

/** The README text with every marked table replaced by its current rendering. */
export function withCurrentTables(readme: string): string {
  let text = readme;
  for (const [name, render] of Object.entries(tables)) {
    const start = `<!-- table:${name}:start -->`;
    const end = `<!-- table:${name}:end -->`;
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < from) throw new Error(`README.md has no ${start} … ${end} markers`);
    text = `${text.slice(0, from + start.length)}\n${render()}\n${text.slice(to)}`;
  }
  return text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync('README.md', withCurrentTables(readFileSync('README.md', 'utf8')));
  console.log('README.md: tables rewritten from the code.');
}

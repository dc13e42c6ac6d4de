/**
 * The table of upstream sources in docs/operations.md, written from the manifest (generated/tools.ts):
 * `npx tsx src/upstream/source-table.ts` prints it as Markdown.
 */
import { sources, tools } from '../../generated/tools.ts';
import type { SourceId } from '../../generated/types.ts';
import { hostGroupLimit, hostGroupOf, variableId } from './sources.ts';

const keyNeeds: Record<string, string> = { none: 'no key', optional: 'optional (raises limits)', required: '**required**' };

const cell = (text: string) => text.replace(/\|/g, '\\|');

export function sourceTable(): string {
  const usedBy = new Map<string, string[]>();
  for (const tool of Object.values(tools))
    for (const source of tool.sources as readonly string[]) usedBy.set(source, [...(usedBy.get(source) ?? []), tool.name]);
  const lines = ['| source | licence | key | variables | polite limit | tools |', '|---|---|---|---|---|---|'];
  for (const id of (Object.keys(sources) as SourceId[]).sort()) {
    const source = sources[id];
    const variables = [`\`SOURCE_${variableId(id)}_URL\``];
    if (source.key !== 'none') variables.push(`\`SOURCE_${variableId(id)}_KEY\``);
    const group = hostGroupOf(id);
    const limit = hostGroupLimit(group);
    const pace = `${limit.requestsPerSecond}/s, ${limit.concurrency} at once${group !== id ? ` (shared: ${group})` : ''}`;
    lines.push(
      `| \`${id}\` ${cell(source.title)} | ${cell(source.license)} | ${keyNeeds[source.key] ?? source.key} | ${variables.join(', ')} | ${pace} | ${(usedBy.get(id) ?? []).map((name) => `\`${name}\``).join(', ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(sourceTable());

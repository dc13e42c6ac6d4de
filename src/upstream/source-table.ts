/**
 * The tables of upstream sources and of their budgets in docs/operations.md, written from the
 * manifest (generated/tools.ts): `npx tsx src/upstream/source-table.ts` prints the first as Markdown,
 * `npx tsx src/upstream/source-table.ts --budgets` the second.
 */
import { sources, tools } from '../../generated/tools.ts';
import type { SourceId } from '../../generated/types.ts';
import { resolveBudget, type DeclaredBudget } from './budget-windows.ts';
import { hostGroupLimit, hostGroupOf, hostGroups, variableId } from './sources.ts';

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
    const keyed = hostGroups[group]?.limitWithKey;
    const pace = `${limit.requestsPerSecond}/s, ${limit.concurrency} at once${group !== id ? ` (shared: ${group})` : ''}${keyed ? `; ${keyed.requestsPerSecond}/s once all its sources have keys` : ''}`;
    lines.push(
      `| \`${id}\` ${cell(source.title)} | ${cell(source.license)} | ${keyNeeds[source.key] ?? source.key} | ${variables.join(', ')} | ${pace} | ${(usedBy.get(id) ?? []).map((name) => `\`${name}\``).join(', ')} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const amount = (unit: string, value: number) => (unit === 'usd' ? `$${value}` : String(value));

/** Per source with a budget: its windows (limit with a key, without one), request kinds with their cost, the spent signal, and where the figures come from. */
export function budgetTable(): string {
  const lines = ['| source | windows | costs | quota spent when | documented |', '|---|---|---|---|---|'];
  for (const id of (Object.keys(sources) as SourceId[]).sort()) {
    const source = sources[id];
    const declared = ('budget' in source ? source.budget : undefined) as (DeclaredBudget & { documented: string }) | undefined;
    if (!declared || !resolveBudget(declared, {}, true)) continue;
    const windows = declared.windows.map(
      (window) =>
        `${amount(declared.unit, window.limit)}${window.limitWithoutKey !== undefined ? ` (${amount(declared.unit, window.limitWithoutKey)} without a key)` : ''} per ${window.per}, ${window.reset === 'midnight_utc' ? 'reset at midnight UTC' : 'rolling'}`,
    );
    const costs = declared.kinds
      ? Object.entries(declared.kinds)
          .map(([kind, cost]) => `${kind} ${amount(declared.unit, cost)}`)
          .join(', ')
      : '1 a request';
    const signal = declared.spentSignal
      ? `HTTP ${declared.spentSignal.status}${declared.spentSignal.bodyPattern ? ` matching \`${declared.spentSignal.bodyPattern}\`` : ''} (${declared.spentSignal.window})`
      : '';
    lines.push(`| \`${id}\` | ${cell(windows.join('; '))} | ${cell(costs)} | ${cell(signal)} | ${cell(declared.documented)} |`);
  }
  return `${lines.join('\n')}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(process.argv.includes('--budgets') ? budgetTable() : sourceTable());

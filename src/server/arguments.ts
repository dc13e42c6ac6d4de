/**
 * What happens to a tool's arguments after the schema check: defaults are filled in (static ones
 * and those that depend on another argument), then the cross-field rules of tools.yaml are checked.
 */
import type { ToolMetadata } from '../../generated/tools.ts';

type Arguments = Record<string, unknown>;
type Constraint = ToolMetadata['constraints'][number];

export function applyDefaults(tool: ToolMetadata, given: Arguments): Arguments {
  const args: Arguments = { ...given };
  for (const [name, value] of Object.entries(tool.defaults as Record<string, unknown>)) {
    if (args[name] === undefined) args[name] = structuredClone(value);
  }
  const dependent = tool.defaultsFrom as Record<string, { field: string; map: Record<string, unknown>; otherwise: unknown }>;
  for (const [name, rule] of Object.entries(dependent)) {
    if (args[name] === undefined) {
      const key = String(args[rule.field]);
      args[name] = Object.hasOwn(rule.map, key) ? rule.map[key] : rule.otherwise;
    }
  }
  return args;
}

const DAY_MS = 86_400_000;
const present = (args: Arguments, field: string): boolean => args[field] !== undefined;
const list = (fields: readonly string[]): string => fields.join(', ');

/** Messages naming the fields that break a rule; empty when all rules hold. */
export function checkConstraints(tool: ToolMetadata, args: Arguments): string[] {
  const problems: string[] = [];
  for (const constraint of tool.constraints as readonly Constraint[]) {
    const fields = constraint.fields as readonly string[];
    switch (constraint.rule) {
      case 'together': {
        const given = fields.filter((field) => present(args, field));
        if (given.length > 0 && given.length < fields.length) {
          const missing = fields.filter((field) => !present(args, field));
          problems.push(`${list(missing)}: required when ${list(given)} ${given.length === 1 ? 'is' : 'are'} given (use ${list(fields)} together)`);
        }
        break;
      }
      case 'at_least_one':
        if (!fields.some((field) => present(args, field))) problems.push(`${list(fields)}: give at least one of them`);
        break;
      case 'ordered': {
        const [first, second] = fields as [string, string];
        const [a, b] = [args[first], args[second]];
        if (a === undefined || b === undefined) break;
        // Numbers compare as numbers; ISO dates and years compare as text.
        const outOfOrder = typeof a === 'number' && typeof b === 'number' ? a > b : String(a) > String(b);
        if (outOfOrder) problems.push(`${second}: must not be before ${first} (${first} ${String(a)}, ${second} ${String(b)})`);
        break;
      }
      case 'max_days': {
        const [startField, endField] = fields as [string, string];
        const when = ('when' in constraint ? constraint.when : {}) as Record<string, unknown>;
        const applies = Object.entries(when).every(([field, value]) => args[field] === value);
        if (!applies || !present(args, startField) || !present(args, endField)) break;
        const days = (Date.parse(String(args[endField])) - Date.parse(String(args[startField]))) / DAY_MS + 1;
        const condition = Object.entries(when)
          .map(([field, value]) => ` when ${field} is ${String(value)}`)
          .join('');
        if (days > constraint.max) {
          problems.push(`${endField}: ${startField} to ${endField} spans ${days} days; at most ${constraint.max}${condition}`);
        }
        break;
      }
    }
  }
  return problems;
}

/**
 * Rules that relate one part of tools.yaml to another. Structure is checked before by the
 * meta-schema, so the manifest here already has the right shape.
 */
import { createSchemaValidator } from './json-schema.ts';
import type { FieldPath, ManifestIssue } from './issues.ts';
import type { InputProperty, Manifest, SchemaNode, SourceDefinition, ToolDefinition } from './types.ts';

const ajv = createSchemaValidator();

function duplicates(ids: string[], listPath: string, what: string): ManifestIssue[] {
  const firstIndex = new Map<string, number>();
  const issues: ManifestIssue[] = [];
  ids.forEach((id, index) => {
    const first = firstIndex.get(id);
    if (first === undefined) firstIndex.set(id, index);
    else issues.push({ path: [listPath, index], message: `duplicate ${what} "${id}" (first at ${listPath}[${first}])` });
  });
  return issues;
}

/** Checks a JSON Schema compiles and, when given, that a value matches it. */
function checkSchema(schema: SchemaNode, path: FieldPath, value?: { value: unknown; path: FieldPath }): ManifestIssue[] {
  let validate;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    return [{ path, message: `is not a valid schema: ${(error as Error).message}` }];
  }
  if (value === undefined || validate(value.value)) return [];
  return (validate.errors ?? []).map((error) => ({
    path: value.path,
    message: `${JSON.stringify(value.value)} does not match the field's own schema: ${error.instancePath || 'value'} ${error.message}`,
  }));
}

function checkRequiredListed(schema: SchemaNode, path: FieldPath): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  for (const name of schema.required ?? []) {
    if (!schema.properties || !(name in schema.properties)) {
      issues.push({ path: [...path, 'required'], message: `"${name}" is required but not among the properties` });
    }
  }
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    issues.push(...checkRequiredListed(child, [...path, 'properties', name]));
  }
  if (schema.items) issues.push(...checkRequiredListed(schema.items, [...path, 'items']));
  return issues;
}

function withoutManifestKeys(property: InputProperty): SchemaNode {
  const { default_from: _ignored, ...schema } = property;
  return schema;
}

function enumOf(property: InputProperty | undefined): Array<string | number> | undefined {
  return property?.enum ?? property?.items?.enum;
}

function checkInput(tool: ToolDefinition, toolPath: FieldPath): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const inputPath = [...toolPath, 'input'];
  const properties = tool.input.properties;
  for (const name of tool.input.required ?? []) {
    if (!(name in properties)) {
      issues.push({ path: [...inputPath, 'required'], message: `"${name}" is required but not among the properties` });
    }
  }
  for (const [name, property] of Object.entries(properties)) {
    const path = [...inputPath, 'properties', name];
    const schema = withoutManifestKeys(property);
    const defaultCheck = 'default' in property ? { value: property.default, path: [...path, 'default'] } : undefined;
    issues.push(...checkSchema(schema, path, defaultCheck));
    issues.push(...checkRequiredListed(schema, path));
    if (defaultCheck && tool.input.required?.includes(name)) {
      issues.push({ path: [...path, 'default'], message: 'a required argument cannot have a default' });
    }
    const rule = property.default_from;
    if (rule) {
      const rulePath = [...path, 'default_from'];
      if ('default' in property) issues.push({ path: rulePath, message: 'use either default or default_from, not both' });
      const field = properties[rule.field];
      if (!field) issues.push({ path: [...rulePath, 'field'], message: `no argument "${rule.field}"` });
      const allowed = enumOf(field);
      for (const [key, value] of Object.entries(rule.map)) {
        if (allowed && !allowed.includes(key)) {
          issues.push({ path: [...rulePath, 'map', key], message: `"${key}" is not a value of ${rule.field}` });
        }
        issues.push(...checkSchema(schema, path, { value, path: [...rulePath, 'map', key] }));
      }
      issues.push(...checkSchema(schema, path, { value: rule.otherwise, path: [...rulePath, 'otherwise'] }));
    }
  }
  (tool.input.constraints ?? []).forEach((constraint, index) => {
    const path = [...inputPath, 'constraints', index];
    for (const field of constraint.fields) {
      if (!(field in properties)) issues.push({ path: [...path, 'fields'], message: `no argument "${field}"` });
    }
    if (constraint.rule === 'max_days') {
      for (const [field, value] of Object.entries(constraint.when ?? {})) {
        const property = properties[field];
        if (!property) issues.push({ path: [...path, 'when', field], message: `no argument "${field}"` });
        else issues.push(...checkSchema(withoutManifestKeys(property), path, { value, path: [...path, 'when', field] }));
      }
    }
  });
  return issues;
}

function checkUpstream(tool: ToolDefinition, toolPath: FieldPath, sourceIds: Set<string>): ManifestIssue[] {
  if (!tool.upstream) return [];
  const issues: ManifestIssue[] = [];
  const path = [...toolPath, 'upstream'];
  const callSources = new Set<string>();
  tool.upstream.calls.forEach((call, index) => {
    callSources.add(call.source);
    if (!sourceIds.has(call.source)) {
      issues.push({ path: [...path, 'calls', index, 'source'], message: `unknown source "${call.source}"` });
    }
  });
  const selectBy = tool.upstream.select_by;
  if (selectBy !== undefined) {
    const argument = tool.input.properties[selectBy];
    const values = enumOf(argument);
    if (!argument) issues.push({ path: [...path, 'select_by'], message: `no argument "${selectBy}"` });
    else if (!values) issues.push({ path: [...path, 'select_by'], message: `argument "${selectBy}" has no enum of source ids` });
    else {
      for (const value of values) {
        if (!callSources.has(String(value))) {
          issues.push({ path: [...path, 'select_by'], message: `"${value}" of ${selectBy} has no call in upstream.calls` });
        }
      }
    }
  }
  return issues;
}

/** Budgets are counted in millionths of their unit (src/upstream/budgets.ts): finer figures cannot be counted. */
const BUDGET_SCALE = 1_000_000;
const countable = (value: number): boolean => Math.abs(Math.round(value * BUDGET_SCALE) - value * BUDGET_SCALE) < 1e-6;

function checkBudget(source: SourceDefinition, sourcePath: FieldPath): ManifestIssue[] {
  const budget = source.budget;
  if (!budget) return [];
  const path = [...sourcePath, 'budget'];
  const issues: ManifestIssue[] = [];
  const costs = Object.entries(budget.kinds ?? {});
  for (const [kind, cost] of costs) {
    if (!countable(cost)) issues.push({ path: [...path, 'kinds', kind], message: `${cost} is finer than a millionth of the unit` });
  }
  const dearest = costs.length > 0 ? Math.max(...costs.map(([, cost]) => cost)) : 1;
  const pers = new Set<string>();
  budget.windows.forEach((window, index) => {
    const windowPath = [...path, 'windows', index];
    if (pers.has(window.per)) issues.push({ path: [...windowPath, 'per'], message: `a second window per ${window.per} (one window per length)` });
    pers.add(window.per);
    if (window.reset === 'midnight_utc' && window.per !== 'day') {
      issues.push({ path: [...windowPath, 'reset'], message: `midnight_utc resets a window per day, not per ${window.per}` });
    }
    if (window.limit_without_key !== undefined && source.key !== 'optional') {
      issues.push({ path: [...windowPath, 'limit_without_key'], message: `only a source whose key is optional has a limit without one (key: ${source.key})` });
    }
    for (const field of ['limit', 'limit_without_key'] as const) {
      const limit = window[field];
      if (limit === undefined) continue;
      if (!countable(limit)) issues.push({ path: [...windowPath, field], message: `${limit} is finer than a millionth of the unit` });
      if (limit < dearest) issues.push({ path: [...windowPath, field], message: `${limit} is less than one request of the dearest kind (${dearest})` });
    }
  });
  const signal = budget.spent_signal;
  if (signal) {
    if (!pers.has(signal.window)) issues.push({ path: [...path, 'spent_signal', 'window'], message: `no window per ${signal.window}` });
    if (signal.body_pattern !== undefined) {
      try {
        new RegExp(signal.body_pattern);
      } catch (error) {
        issues.push({ path: [...path, 'spent_signal', 'body_pattern'], message: `is not a regular expression: ${(error as Error).message}` });
      }
    }
  }
  return issues;
}

/** Names the server itself answers under /api/v1 (src/server/app.ts), so no tool may take them. */
export const RESERVED_TOOL_NAMES = ['account'];

export function checkManifest(manifest: Manifest): ManifestIssue[] {
  const packIds = new Set(manifest.packs.map((pack) => pack.id));
  const capabilityIds = new Set(manifest.capabilities.map((capability) => capability.id));
  const sourceIds = new Set(manifest.sources.map((source) => source.id));
  const issues: ManifestIssue[] = [
    ...duplicates(
      manifest.packs.map((pack) => pack.id),
      'packs',
      'pack',
    ),
    ...duplicates(
      manifest.capabilities.map((capability) => capability.id),
      'capabilities',
      'capability',
    ),
    ...duplicates(
      manifest.sources.map((source) => source.id),
      'sources',
      'source',
    ),
    ...duplicates(
      manifest.tools.map((tool) => tool.name),
      'tools',
      'tool name',
    ),
  ];
  manifest.sources.forEach((source, index) => issues.push(...checkBudget(source, ['sources', index])));
  manifest.tools.forEach((tool, index) => {
    const path: FieldPath = ['tools', index];
    if (RESERVED_TOOL_NAMES.includes(tool.name))
      issues.push({ path: [...path, 'name'], message: `"${tool.name}" is reserved: GET /api/v1/${tool.name} is the server's own` });
    if (!packIds.has(tool.pack)) issues.push({ path: [...path, 'pack'], message: `unknown pack "${tool.pack}"` });
    if (!capabilityIds.has(tool.capability)) {
      issues.push({ path: [...path, 'capability'], message: `unknown capability "${tool.capability}"` });
    }
    if (tool.credits < 0) issues.push({ path: [...path, 'credits'], message: `must be 0 or more, got ${tool.credits}` });
    if (tool.figure_price_credits !== undefined && tool.figure_price_credits < 0) {
      issues.push({ path: [...path, 'figure_price_credits'], message: `must be 0 or more, got ${tool.figure_price_credits}` });
    }
    issues.push(...checkInput(tool, path));
    issues.push(...checkSchema(tool.data, [...path, 'data']), ...checkRequiredListed(tool.data, [...path, 'data']));
    if (tool.extra) {
      issues.push(...checkSchema(tool.extra, [...path, 'extra']), ...checkRequiredListed(tool.extra, [...path, 'extra']));
    }
    issues.push(...checkUpstream(tool, path, sourceIds));
  });
  return issues;
}

/**
 * `enum_from: packs` (or `capabilities`, `sources`) in any schema of tools.yaml stands for the list
 * of ids declared at the top of the manifest, so an enum of pack or capability ids cannot fall
 * behind the list it is derived from. Expanded to a plain `enum` before the manifest is validated.
 */
import type { FieldPath, ManifestIssue } from './issues.ts';

export const ENUM_SOURCES = ['packs', 'capabilities', 'sources'] as const;

function idsOf(manifest: Record<string, unknown>, list: string): string[] | undefined {
  const entries = manifest[list];
  if (!Array.isArray(entries)) return undefined;
  const ids = entries.map((entry) => (entry && typeof entry === 'object' ? (entry as { id?: unknown }).id : undefined));
  return ids.every((id) => typeof id === 'string') ? (ids as string[]) : undefined;
}

/** Replaces every `enum_from` in place; returns the problems (an unknown list, `enum` beside it). */
export function expandEnumFrom(manifest: unknown): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  if (!manifest || typeof manifest !== 'object') return issues;
  const root = manifest as Record<string, unknown>;
  const walk = (node: unknown, path: FieldPath): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    if ('enum_from' in object) {
      const list = object.enum_from;
      const ids = typeof list === 'string' && (ENUM_SOURCES as readonly string[]).includes(list) ? idsOf(root, list) : undefined;
      if (ids === undefined) issues.push({ path: [...path, 'enum_from'], message: `must be one of ${ENUM_SOURCES.join(', ')} (the id lists of the manifest)` });
      else if ('enum' in object) issues.push({ path: [...path, 'enum_from'], message: 'give either enum or enum_from, not both' });
      else {
        // keep the key's position, so generated output reads as if the list were written there
        const entries = Object.entries(object).map(([key, value]) => (key === 'enum_from' ? ['enum', [...ids]] : [key, value]));
        for (const key of Object.keys(object)) delete object[key];
        Object.assign(object, Object.fromEntries(entries));
      }
    }
    for (const [key, value] of Object.entries(object)) walk(value, [...path, key]);
  };
  walk(root.tools, ['tools']);
  return issues;
}

/**
 * An enum written out by hand that lists some but not all of the pack or capability ids would fall
 * behind the manifest the day an id is added: say `enum_from` instead.
 */
export function handWrittenIdEnums(manifest: unknown): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  if (!manifest || typeof manifest !== 'object') return issues;
  const root = manifest as Record<string, unknown>;
  const lists = (['packs', 'capabilities'] as const).map((list) => ({ list, ids: idsOf(root, list) ?? [] }));
  const walk = (node: unknown, path: FieldPath): void => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => walk(item, [...path, index]));
      return;
    }
    if (!node || typeof node !== 'object') return;
    const values = (node as { enum?: unknown }).enum;
    if (Array.isArray(values) && values.length >= 2) {
      for (const { list, ids } of lists) {
        if (values.every((value) => ids.includes(value as string)) && values.length < ids.length) {
          const missing = ids.filter((id) => !values.includes(id));
          issues.push({
            path: [...path, 'enum'],
            message: `lists ${values.length} of the ${ids.length} ${list} ids (not ${missing.join(', ')}); write \`enum_from: ${list}\``,
          });
        }
      }
    }
    for (const [key, value] of Object.entries(node)) walk(value, [...path, key]);
  };
  walk(root.tools, ['tools']);
  return issues;
}

/**
 * `{{limits.<name>}}` in a tool's texts (its description and the descriptions of its schemas) stands
 * for the value under `limits:` of that tool, and a schema keyword written as exactly
 * `'{{limits.<name>}}'` (`maxItems: '{{limits.labels}}'`) becomes that number; so the number the
 * handler enforces, the one the schema publishes and the one the documentation states are one.
 * Replaced in place; an unknown name is an issue.
 */
const WHOLE_LIMIT = /^\{\{limits\.(\w+)\}\}$/;

export function expandLimits(manifest: unknown): ManifestIssue[] {
  const issues: ManifestIssue[] = [];
  const tools = (manifest as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(tools)) return issues;
  tools.forEach((tool: unknown, toolIndex) => {
    if (!tool || typeof tool !== 'object') return;
    const limits = ((tool as { limits?: unknown }).limits ?? {}) as Record<string, unknown>;
    const walk = (node: unknown, path: FieldPath): void => {
      if (Array.isArray(node)) node.forEach((item, index) => walk(item, [...path, index]));
      else if (node && typeof node === 'object') {
        const object = node as Record<string, unknown>;
        for (const [key, value] of Object.entries(object)) {
          if (key === 'description' && typeof value === 'string') {
            object[key] = value.replace(/\{\{limits\.(\w+)\}\}/g, (whole, name: string) => {
              if (typeof limits[name] === 'number') return String(limits[name]);
              issues.push({ path: [...path, key], message: `${whole}: the tool has no limit "${name}" under limits` });
              return whole;
            });
          } else if (typeof value === 'string' && WHOLE_LIMIT.test(value)) {
            const name = WHOLE_LIMIT.exec(value)![1]!;
            if (typeof limits[name] === 'number') object[key] = limits[name];
            else issues.push({ path: [...path, key], message: `${value}: the tool has no limit "${name}" under limits` });
          } else walk(value, [...path, key]);
        }
      }
    };
    walk(tool, ['tools', toolIndex]);
  });
  return issues;
}

/** api-changes.yaml: the committed list of breaking changes that were made on purpose. */
import { existsSync, readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import type { Change } from './diff.ts';
import { InputError } from './load.ts';
import { RULES_BY_ID } from './rules.ts';

export interface Acknowledgement {
  rule: string;
  /** `METHOD /path` as the diff prints it; omitted only for changes that have no operation. */
  operation?: string;
  /** Optional: the JSON path, when one rule fires more than once on one operation and only one is meant. */
  path?: string;
  reason: string;
}

export function readAcknowledgements(file: string): Acknowledgement[] {
  if (!existsSync(file)) return [];
  let data: unknown;
  try {
    data = parseYaml(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new InputError(`${file} does not parse as YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) return [];
  const list = (data as { acknowledged?: unknown }).acknowledged;
  if (typeof data !== 'object' || Array.isArray(data) || !(list === null || list === undefined || Array.isArray(list))) {
    throw new InputError(`${file}: expected a mapping with an \`acknowledged\` list`);
  }
  return (list ?? []).map((entry: unknown, index: number) => {
    const where = `${file}: acknowledged[${index}]`;
    if (!entry || typeof entry !== 'object') throw new InputError(`${where} is not a mapping`);
    const { rule, operation, path, reason, ...rest } = entry as Record<string, unknown>;
    const extra = Object.keys(rest);
    if (extra.length > 0) throw new InputError(`${where} has unknown field(s): ${extra.join(', ')} (allowed: rule, operation, path, reason)`);
    if (typeof rule !== 'string' || !RULES_BY_ID.has(rule)) throw new InputError(`${where}: rule ${JSON.stringify(rule ?? null)} is not a rule id of the policy table`);
    if (operation !== undefined && typeof operation !== 'string') throw new InputError(`${where}: operation must be text such as "POST /api/v1/search_papers"`);
    if (path !== undefined && typeof path !== 'string') throw new InputError(`${where}: path must be text`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new InputError(`${where}: a reason is required`);
    return { rule, ...(operation !== undefined ? { operation } : {}), ...(path !== undefined ? { path } : {}), reason };
  });
}

export function acknowledges(ack: Acknowledgement, change: Change): boolean {
  return ack.rule === change.id && (ack.operation ?? '') === (change.operation ?? '') && (ack.path === undefined || ack.path === change.path);
}

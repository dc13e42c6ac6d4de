/**
 * api-changes.yaml: the committed log of breaking changes that were made on purpose.
 *
 * Each entry names the rule, the operation and the JSON path of exactly one change. An entry is in
 * force only for the range of commits that added it (see `addedEntries`): it approves the change it
 * was committed with and nothing later, and an entry that matches no change of its range fails the gate.
 */
import { LineCounter, parseDocument, isMap, isSeq, type Node } from 'yaml';
import type { Change } from './diff.ts';
import { InputError } from './load.ts';
import { RULES_BY_ID } from './rules.ts';

export const ACKNOWLEDGEMENTS_FILE = 'api-changes.yaml';

export interface Acknowledgement {
  rule: string;
  /** `METHOD /path` as the diff prints it; null for document-wide changes (the diff prints no operation). */
  operation: string | null;
  /** The JSON path the diff printed for the change. */
  path: string;
  reason: string;
  /** 1-based line of the entry in the file it was read from. */
  line: number;
}

export interface AcknowledgementFile {
  entries: Acknowledgement[];
  /** `checked-since`: the commit of main from which every first-parent step is checked (see api-check.ts). */
  checkedSince?: string;
}

const FIELDS = ['rule', 'operation', 'path', 'reason'];

/** Parses the text of api-changes.yaml; `label` names the file (and the commit) in messages. */
export function parseAcknowledgements(text: string, label = ACKNOWLEDGEMENTS_FILE): AcknowledgementFile {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter });
  if (document.errors.length > 0) throw new InputError(`${label} does not parse as YAML: ${document.errors[0]!.message.split('\n')[0]}`);
  const lineOf = (node: Node | null | undefined): number => (node?.range ? lineCounter.linePos(node.range[0]).line : 1);
  const root = document.contents;
  if (root === null || root === undefined) return { entries: [] };
  if (!isMap(root)) throw new InputError(`${label}:${lineOf(root as Node)}: expected a mapping with an \`acknowledged\` list`);
  const extra = root.items
    .map((pair) => String((pair.key as { value?: unknown }).value ?? pair.key))
    .filter((key) => key !== 'acknowledged' && key !== 'checked-since');
  if (extra.length > 0) throw new InputError(`${label}: unknown top-level field(s): ${extra.join(', ')} (allowed: acknowledged, checked-since)`);
  const since = root.get('checked-since');
  if (since !== undefined && (typeof since !== 'string' || !/^[0-9a-f]{7,40}$/.test(since))) {
    throw new InputError(`${label}: checked-since must be a commit id (hex)`);
  }
  const list = root.get('acknowledged', true) as Node | undefined;
  if (list === undefined || list === null || (list as { value?: unknown }).value === null) return { entries: [], ...(since ? { checkedSince: since } : {}) };
  if (!isSeq(list)) throw new InputError(`${label}:${lineOf(list)}: \`acknowledged\` must be a list`);
  const entries = list.items.map((item) => {
    const line = lineOf(item as Node);
    const where = `${label}:${line}`;
    if (!isMap(item)) throw new InputError(`${where}: an acknowledgement must be a mapping with rule, operation, path and reason`);
    const entry = item.toJSON() as Record<string, unknown>;
    const unknown = Object.keys(entry).filter((key) => !FIELDS.includes(key));
    if (unknown.length > 0) throw new InputError(`${where}: unknown field(s): ${unknown.join(', ')} (allowed: ${FIELDS.join(', ')})`);
    const { rule, operation, path, reason } = entry;
    if (typeof rule !== 'string' || !RULES_BY_ID.has(rule))
      throw new InputError(`${where}: rule ${JSON.stringify(rule ?? null)} is not a rule id of the policy table`);
    if (!('operation' in entry) || (operation !== null && typeof operation !== 'string')) {
      throw new InputError(`${where}: operation is required: text such as "POST /api/v1/search_papers", or null for a document-wide change`);
    }
    if (typeof path !== 'string' || !path.startsWith('$')) throw new InputError(`${where}: path is required: the JSON path the gate printed ("at: $.paths…")`);
    if (typeof reason !== 'string' || reason.trim() === '') throw new InputError(`${where}: a reason is required`);
    return { rule, operation: operation as string | null, path, reason, line };
  });
  return { entries, ...(since ? { checkedSince: since } : {}) };
}

function key(ack: Acknowledgement): string {
  return JSON.stringify([ack.rule, ack.operation, ack.path]);
}

/**
 * The entries of `after` that `before` did not have: those added (or changed) by a range of commits.
 * A multiset difference on (rule, operation, path), so the same change made again needs a new entry.
 */
export function addedEntries(before: Acknowledgement[], after: Acknowledgement[]): Acknowledgement[] {
  const remaining = new Map<string, number>();
  for (const ack of before) remaining.set(key(ack), (remaining.get(key(ack)) ?? 0) + 1);
  return after.filter((ack) => {
    const left = remaining.get(key(ack)) ?? 0;
    if (left === 0) return true;
    remaining.set(key(ack), left - 1);
    return false;
  });
}

export function acknowledges(ack: Acknowledgement, change: Change): boolean {
  return ack.rule === change.id && ack.operation === (change.operation ?? null) && ack.path === change.path;
}

/**
 * The plain-language edits edit_figure understands, one or two per call. Each change is matched
 * against a fixed vocabulary (EDIT_VOCABULARY, also shown to callers when an instruction is not
 * understood) and applied to a copy of the parent's spec; the parent is never changed.
 */
import {
  ASPECT_RATIOS,
  FIGURE_KINDS,
  FIGURE_STYLES,
  FigureInputError,
  findNode,
  nodeIdFor,
  normaliseName,
  type AspectRatio,
  type FigureGraph,
  type FigureKind,
  type FigureNode,
  type FigureSpec,
  type FigureStyle,
} from './model.ts';
import { parseSentences } from './parse-text.ts';
import { NAMED_COLORS } from './styles.ts';

export const MAX_CHANGES = 2;

export const EDIT_VOCABULARY: string[] = [
  'add an entity: "add Apoptosis", "add Imaging after Sequencing", "add Consent before Randomisation"',
  'remove an entity: "remove TRADD"',
  'rename an entity: "rename TNFR1 to TNF receptor 1"',
  'add a relationship: "A20 inhibits TRAF2", "connect Sequencing to Analysis"',
  'remove a relationship: "remove the arrow from A to B", "disconnect A from B"',
  `change the style: "use the cell style" (${FIGURE_STYLES.join(', ')})`,
  `change the kind: "make it a workflow" (${FIGURE_KINDS.join(', ')})`,
  `change the aspect ratio: "change the aspect ratio to 1:1" (${ASPECT_RATIOS.join(', ')}; or square, landscape, portrait, widescreen, tall)`,
  'add or remove a label: \'add label "Figure 2"\', \'remove label "Figure 2"\'',
  'highlight an entity: "highlight NF-κB"',
  `recolour an entity: "colour NF-κB red" (${Object.keys(NAMED_COLORS)
    .filter((c) => c !== 'gray')
    .join(', ')} or #rrggbb)`,
];

export function vocabularyText(): string {
  return `edit_figure understands, one or two per call: ${EDIT_VOCABULARY.join('; ')}`;
}

const VERBS =
  '(?:add|insert|remove|delete|drop|rename|connect|link|disconnect|unlink|change|switch|set|use|make|highlight|emphasi[sz]e|colou?r|recolou?r|turn)';

export function splitChanges(instruction: string): string[] {
  return instruction
    .split(new RegExp(`;|\\.\\s+|\\n|,?\\s+(?:and\\s+)?then\\s+|,?\\s+and\\s+(?=${VERBS}\\b)|,\\s*(?=${VERBS}\\b)`, 'i'))
    .map((part) =>
      part
        .trim()
        .replace(/[.!]+$/, '')
        .trim(),
    )
    .filter(Boolean);
}

function unquote(text: string): string {
  return text
    .trim()
    .replace(/^["'“‘](.*)["'”’]$/s, '$1')
    .trim();
}

const STYLE_WORDS: Record<string, FigureStyle> = {
  nature: 'nature',
  cell: 'cell',
  'minimal line': 'minimal_line',
  minimal: 'minimal_line',
  'line art': 'minimal_line',
  'flat colou?r': 'flat_color',
  flat: 'flat_color',
  textbook: 'textbook',
};
const KIND_WORDS: Record<string, FigureKind> = {
  mechanism: 'mechanism',
  pathway: 'mechanism',
  workflow: 'workflow',
  'graphical abstract': 'graphical_abstract',
  schematic: 'schematic',
  diagram: 'schematic',
  'poster panel': 'poster_panel',
  poster: 'poster_panel',
};
const RATIO_WORDS: Record<string, AspectRatio> = { square: '1:1', landscape: '4:3', portrait: '3:4', widescreen: '16:9', wide: '16:9', tall: '9:16' };

function lookup<T>(table: Record<string, T>, text: string): T | undefined {
  const cleaned = text.toLowerCase().replace(/[_-]/g, ' ').replace(/\s+/g, ' ').trim();
  for (const [pattern, value] of Object.entries(table)) if (new RegExp(`^(?:${pattern})$`).test(cleaned)) return value;
  return undefined;
}

function requireNode(graph: FigureGraph, name: string): FigureNode {
  const node = findNode(graph, unquote(name));
  if (!node) {
    throw new FigureInputError('instruction', `the figure has no entity "${unquote(name)}"; its entities are: ${graph.nodes.map((n) => n.label).join(', ')}`);
  }
  return node;
}

function addNode(graph: FigureGraph, name: string): FigureNode {
  const existing = findNode(graph, unquote(name));
  if (existing) return existing;
  const label = unquote(name)
    .replace(/^(an?|the)\s+(entity|node|box|step|stage)\s+/i, '')
    .replace(/^(entity|node|box|step|stage)\s+/i, '');
  const node: FigureNode = { id: nodeIdFor(label, new Set(graph.nodes.map((n) => n.id))), label };
  graph.nodes.push(node);
  return node;
}

function color(text: string): string | undefined {
  const cleaned = text.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(cleaned)) return cleaned.toUpperCase();
  return NAMED_COLORS[cleaned];
}

/** Applies one change to `spec` (a copy); returns a short description of what changed, or undefined when not understood. */
function applyChange(spec: FigureSpec, change: string): string | undefined {
  const graph = spec.graph;
  let m: RegExpExecArray | null;

  if (
    (m = /^(?:change|switch|set|make)\s+(?:the\s+)?style\s+(?:to|into)\s+(?:the\s+)?(.+?)(?:\s+style)?$/i.exec(change)) ??
    (m = /^(?:use|apply|switch to|make it|render (?:it )?in|in)\s+(?:the\s+|a\s+)?(.+?)\s+style$/i.exec(change))
  ) {
    const style = lookup(STYLE_WORDS, m[1]!);
    if (!style) throw new FigureInputError('instruction', `unknown style "${m[1]}"; styles are: ${FIGURE_STYLES.join(', ')}`);
    spec.style = style;
    return `style ${style}`;
  }
  if (
    (m = /^(?:change|switch|set|make)\s+(?:the\s+)?(?:aspect\s+ratio|ratio|format|shape)\s+(?:to|into)\s+(.+)$/i.exec(change)) ??
    (m = /^(?:make it|use)\s+(?:a\s+)?(\d+:\d+|square|landscape|portrait|widescreen|wide|tall)(?:\s+(?:aspect ratio|format))?$/i.exec(change))
  ) {
    const value = m[1]!
      .trim()
      .toLowerCase()
      .replace(/^(a|an)\s+/, '');
    const ratio = (ASPECT_RATIOS as readonly string[]).includes(value) ? (value as AspectRatio) : lookup(RATIO_WORDS, value);
    if (!ratio)
      throw new FigureInputError(
        'instruction',
        `unknown aspect ratio "${m[1]}"; use one of ${ASPECT_RATIOS.join(', ')} or square, landscape, portrait, widescreen, tall`,
      );
    spec.aspectRatio = ratio;
    return `aspect ratio ${ratio}`;
  }
  if (
    (m = /^(?:change|switch|set|make)\s+(?:the\s+)?(?:kind|type)\s+(?:of figure\s+)?(?:to|into)\s+(?:an?\s+)?(.+)$/i.exec(change)) ??
    (m =
      /^(?:make it|turn it into|change it (?:to|into))\s+(?:an?\s+)?(mechanism|pathway|workflow|graphical[ _]abstract|schematic|diagram|poster[ _]panel|poster)(?:\s+figure)?$/i.exec(
        change,
      ))
  ) {
    const kind = lookup(KIND_WORDS, m[1]!);
    if (!kind) throw new FigureInputError('instruction', `unknown kind "${m[1]}"; kinds are: ${FIGURE_KINDS.join(', ')}`);
    spec.kind = kind;
    return `kind ${kind}`;
  }
  if ((m = /^(?:add|insert)\s+(?:the\s+|a\s+)?(?:text\s+)?label\s*:?\s+(.+)$/i.exec(change))) {
    const label = unquote(m[1]!);
    if (!spec.labels.includes(label)) spec.labels.push(label);
    return `label "${label}" added`;
  }
  if ((m = /^(?:remove|delete|drop)\s+(?:the\s+)?(?:text\s+)?label\s*:?\s+(.+)$/i.exec(change))) {
    const label = unquote(m[1]!);
    const index = spec.labels.findIndex((l) => l === label || normaliseName(l) === normaliseName(label));
    if (index < 0)
      throw new FigureInputError(
        'instruction',
        `the figure has no label "${label}"; its labels are: ${spec.labels.length > 0 ? spec.labels.join(', ') : 'none'}`,
      );
    spec.labels.splice(index, 1);
    return `label "${label}" removed`;
  }
  if (
    (m = /^(?:rename|relabel)\s+(.+?)\s+(?:to|as|into)\s+(.+)$/i.exec(change)) ??
    (m = /^change\s+(?:the\s+)?(?:label|name)\s+of\s+(.+?)\s+to\s+(.+)$/i.exec(change))
  ) {
    const node = requireNode(graph, m[1]!);
    const before = node.label;
    node.label = unquote(m[2]!);
    return `"${before}" renamed to "${node.label}"`;
  }
  if ((m = /^(?:colou?r|recolou?r|paint|make|turn)\s+(.+?)\s+(?:in\s+|to\s+|into\s+)?(#[0-9a-f]{6}|[a-z]+)$/i.exec(change)) && color(m[2]!)) {
    const node = requireNode(graph, m[1]!);
    node.color = color(m[2]!)!;
    return `"${node.label}" coloured ${m[2]!.toLowerCase()}`;
  }
  if ((m = /^(?:highlight|emphasi[sz]e|accent)\s+(.+)$/i.exec(change))) {
    const node = requireNode(graph, m[1]!);
    node.highlight = true;
    return `"${node.label}" highlighted`;
  }
  if (
    (m =
      /^(?:remove|delete|drop)\s+(?:the\s+|an?\s+)?(?:arrow|link|edge|relationship|relation|connection|interaction)\s+(?:from|between)\s+(.+?)\s+(?:to|and|->)\s+(.+)$/i.exec(
        change,
      )) ??
    (m = /^(?:disconnect|unlink)\s+(.+?)\s+(?:from|and)\s+(.+)$/i.exec(change))
  ) {
    const a = requireNode(graph, m[1]!);
    const b = requireNode(graph, m[2]!);
    const before = graph.edges.length;
    graph.edges = graph.edges.filter((e) => !((e.from === a.id && e.to === b.id) || (e.from === b.id && e.to === a.id)));
    if (graph.edges.length === before) throw new FigureInputError('instruction', `there is no relationship between "${a.label}" and "${b.label}"`);
    return `relationship "${a.label}"–"${b.label}" removed`;
  }
  if (
    (m = /^(?:connect|link)\s+(.+?)\s+(?:to|with|and|->)\s+(.+)$/i.exec(change)) ??
    (m = /^(?:add|draw)\s+(?:an?\s+)?(?:arrow|link|edge|relationship|connection)\s+from\s+(.+?)\s+to\s+(.+)$/i.exec(change))
  ) {
    const a = addNode(graph, m[1]!);
    const b = addNode(graph, m[2]!);
    graph.edges.push({ from: a.id, to: b.id, kind: 'leads' });
    return `"${a.label}" → "${b.label}" added`;
  }
  if ((m = /^(?:add|insert)\s+(?:an?\s+)?(?:entity|node|box|step|stage)?\s*:?\s*(.+?)\s+(after|before|downstream of|upstream of)\s+(.+)$/i.exec(change))) {
    const anchor = requireNode(graph, m[3]!);
    const node = addNode(graph, m[1]!);
    const after = /after|downstream/i.test(m[2]!);
    if (after) {
      // Insert into the chain: anchor → node → anchor's former successors.
      for (const edge of graph.edges) if (edge.from === anchor.id && edge.kind === 'leads') edge.from = node.id;
      graph.edges.push({ from: anchor.id, to: node.id, kind: 'leads' });
    } else {
      for (const edge of graph.edges) if (edge.to === anchor.id && edge.kind === 'leads') edge.to = node.id;
      graph.edges.push({ from: node.id, to: anchor.id, kind: 'leads' });
    }
    return `"${node.label}" added ${after ? 'after' : 'before'} "${anchor.label}"`;
  }
  // A sentence with a relation verb: "A20 inhibits TRAF2", "add: X activates Y".
  const sentence = change.replace(/^(?:add|show|draw)\s+(?:that|a relationship:?|an interaction:?|:)?\s*/i, '');
  const parsed = parseSentences(sentence);
  if (parsed.edges.length > 0) {
    const ids = new Map<string, string>();
    for (const node of parsed.nodes) ids.set(node.id, addNode(graph, node.label).id);
    for (const edge of parsed.edges) {
      const added = { ...edge, from: ids.get(edge.from)!, to: ids.get(edge.to)! };
      graph.edges = graph.edges.filter((e) => !(e.from === added.from && e.to === added.to));
      graph.edges.push(added);
    }
    return `relationship "${sentence}" added`;
  }
  if ((m = /^(?:add|insert)\s+(?:an?\s+)?(?:entity|node|box|step|stage)?\s*:?\s*(.+)$/i.exec(change))) {
    const node = addNode(graph, m[1]!);
    return `"${node.label}" added`;
  }
  if ((m = /^(?:remove|delete|drop)\s+(?:the\s+)?(?:entity|node|box|step|stage)?\s*:?\s*(.+)$/i.exec(change))) {
    const node = requireNode(graph, m[1]!);
    if (graph.nodes.length === 1) throw new FigureInputError('instruction', 'cannot remove the only entity of the figure');
    graph.nodes = graph.nodes.filter((n) => n.id !== node.id);
    graph.edges = graph.edges.filter((e) => e.from !== node.id && e.to !== node.id);
    return `"${node.label}" removed`;
  }
  return undefined;
}

/** The parent's spec with the instruction applied, and what was changed. */
export function applyInstruction(parent: FigureSpec, instruction: string): { spec: FigureSpec; changes: string[] } {
  const changes = splitChanges(instruction);
  if (changes.length === 0) throw new FigureInputError('instruction', `is empty. ${vocabularyText()}`);
  if (changes.length > MAX_CHANGES) {
    throw new FigureInputError('instruction', `has ${changes.length} changes; give at most ${MAX_CHANGES} per call (chain several edit_figure calls for more)`);
  }
  const spec = structuredClone(parent);
  const applied: string[] = [];
  for (const change of changes) {
    const result = applyChange(spec, change);
    if (!result) throw new FigureInputError('instruction', `could not understand "${change}". ${vocabularyText()}`);
    applied.push(result);
  }
  return { spec, changes: applied };
}

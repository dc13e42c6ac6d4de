/**
 * Mermaid flowchart syntax → graph: `flowchart LR` / `graph TD` headers, node shapes
 * (`A[box]`, `A(round)`, `A([stadium])`, `A((circle))`, `A{diamond}`, `A{{hexagon}}`), edges
 * (`-->`, `---`, `-.->`, `==>`, `--x`, `--o`, `-- text -->`, `-->|text|`), chains (`A --> B --> C`),
 * `&` fan-out, and `subgraph … end` groups. Styling lines (classDef, class, style, linkStyle,
 * click) and `%%` comments are ignored: the figure's style decides the look.
 */
import { FigureInputError, type FigureEdge, type FigureGraph, type FigureNode, type RelationKind } from './model.ts';
import { MAX_NODES } from './parse-text.ts';

const HEADER = /^\s*(?:flowchart|graph)(?:\s+(TB|TD|BT|LR|RL))?\s*;?\s*$/i;

export function isMermaid(description: string): boolean {
  const first = description
    .split('\n')
    .map((line) => line.trim())
    .find((line) => line && !line.startsWith('%%'));
  return first !== undefined && HEADER.test(first);
}

const DIRECTIONS = { TB: 'DOWN', TD: 'DOWN', BT: 'UP', LR: 'RIGHT', RL: 'LEFT' } as const;

const SHAPES: Array<[string, string, FigureNode['shape']]> = [
  ['(((', ')))', 'circle'],
  ['((', '))', 'circle'],
  ['([', '])', 'stadium'],
  ['[[', ']]', 'box'],
  ['[(', ')]', 'round'],
  ['{{', '}}', 'hexagon'],
  ['[/', '/]', 'box'],
  ['[\\', '\\]', 'box'],
  ['[/', '\\]', 'box'],
  ['[', ']', 'box'],
  ['(', ')', 'round'],
  ['{', '}', 'diamond'],
  ['>', ']', 'box'],
];

// An edge operator with an optional inline text (`-- text -->`) or pipe label (`-->|text|`).
const EDGE = /^\s*(?:(--|==|-\.)\s*([^-=.|>][^|]*?)\s*)?(-{2,}>|-{3,}|={2,}>|={3,}|-\.+->|-\.+-|--[xo]|<-{2,}>)\s*(?:\|([^|]*)\|)?\s*/;

function unquote(text: string): string {
  return text
    .trim()
    .replace(/^"(.*)"$/s, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}

export function parseMermaid(description: string): FigureGraph {
  const graph: FigureGraph = { nodes: [], edges: [], groups: [] };
  const byId = new Map<string, FigureNode>();
  const groupStack: string[] = [];
  let headerSeen = false;

  const node = (id: string, label?: string, shape?: FigureNode['shape']): FigureNode => {
    let found = byId.get(id);
    if (!found) {
      found = { id, label: label ?? id };
      const group = groupStack.at(-1);
      if (group) found.group = group;
      byId.set(id, found);
      graph.nodes.push(found);
      if (graph.nodes.length > MAX_NODES) throw new FigureInputError('description', `describes more than ${MAX_NODES} nodes; split it into several figures`);
    }
    if (label !== undefined) found.label = label;
    if (shape) found.shape = shape;
    return found;
  };

  /** Reads `id`, `id[label]`, … at the start of `text`; returns the node and the rest. */
  const readNode = (text: string, lineNumber: number): { node: FigureNode; rest: string } => {
    const idMatch = /^\s*([A-Za-z0-9_][\w.-]*?)(?=\s|$|[[({>&;]|-->|---|-\.|==|--)/.exec(text) ?? /^\s*([\w-]+)/.exec(text);
    if (!idMatch) throw new FigureInputError('description', `Mermaid line ${lineNumber}: expected a node id at "${text.trim().slice(0, 40)}"`);
    const id = idMatch[1]!;
    const rest = text.slice(idMatch[0].length);
    for (const [open, close, shape] of SHAPES) {
      if (!rest.startsWith(open)) continue;
      const end = rest.indexOf(close, open.length);
      if (end < 0) continue;
      const label = unquote(rest.slice(open.length, end));
      return { node: node(id, label, shape), rest: rest.slice(end + close.length) };
    }
    return { node: node(id), rest };
  };

  const readNodes = (text: string, lineNumber: number): { nodes: FigureNode[]; rest: string } => {
    const nodes: FigureNode[] = [];
    let rest = text;
    for (;;) {
      const read = readNode(rest, lineNumber);
      nodes.push(read.node);
      rest = read.rest.replace(/^\s*:::\w+/, '');
      const amp = /^\s*&\s*/.exec(rest);
      if (!amp) return { nodes, rest };
      rest = rest.slice(amp[0].length);
    }
  };

  const lines = description.replace(/\r/g, '').split(/\n|;(?=\s*(?:$|\w))/);
  lines.forEach((rawLine, index) => {
    const lineNumber = index + 1;
    const line = rawLine.replace(/%%.*$/, '').trim();
    if (!line) return;
    if (!headerSeen) {
      const header = HEADER.exec(line);
      if (header) {
        headerSeen = true;
        const direction = header[1]?.toUpperCase() as keyof typeof DIRECTIONS | undefined;
        if (direction) graph.direction = DIRECTIONS[direction];
        return;
      }
    }
    if (/^(classDef|class|style|linkStyle|click|direction)\b/.test(line)) return;
    const subgraph = /^subgraph\s+(.+)$/.exec(line);
    if (subgraph) {
      const spec = subgraph[1]!.trim();
      const named = /^([\w-]+)\s*\[(.*)\]$/.exec(spec);
      const id = named ? named[1]! : `group_${graph.groups.length + 1}`;
      const label = unquote(named ? named[2]! : spec);
      graph.groups.push({ id, label });
      groupStack.push(id);
      return;
    }
    if (line === 'end') {
      groupStack.pop();
      return;
    }
    let { nodes: sources, rest } = readNodes(line, lineNumber);
    while (rest.trim()) {
      const edge = EDGE.exec(rest);
      if (!edge) throw new FigureInputError('description', `Mermaid line ${lineNumber}: cannot read "${rest.trim().slice(0, 40)}"`);
      const operator = edge[3]!;
      const text = edge[4] ?? edge[2];
      rest = rest.slice(edge[0].length);
      const read = readNodes(rest, lineNumber);
      rest = read.rest;
      for (const from of sources) {
        for (const to of read.nodes) {
          let kind: RelationKind = /-[-.]*x$/.test(operator) ? 'inhibits' : />$/.test(operator) ? 'leads' : 'binds';
          if (operator.endsWith('o')) kind = 'binds';
          const item: FigureEdge = { from: from.id, to: to.id, kind };
          if (text && text.trim()) item.label = unquote(text);
          if (operator.includes('.')) item.dashed = true;
          graph.edges.push(item);
        }
      }
      sources = read.nodes;
    }
  });
  if (graph.nodes.length === 0) throw new FigureInputError('description', 'the Mermaid flowchart has no nodes');
  return graph;
}

/**
 * What a figure is before it is drawn: its parameters and a graph of entities and relationships.
 * The graph is what edits change; the drawing is always made afresh from it.
 */
export const FIGURE_KINDS = ['mechanism', 'workflow', 'graphical_abstract', 'schematic', 'poster_panel'] as const;
export const FIGURE_STYLES = ['nature', 'cell', 'minimal_line', 'flat_color', 'textbook'] as const;
export const ASPECT_RATIOS = ['16:9', '4:3', '1:1', '3:4', '9:16'] as const;

export type FigureKind = (typeof FIGURE_KINDS)[number];
export type FigureStyle = (typeof FIGURE_STYLES)[number];
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/**
 * How one entity acts on another: `activates` (arrow), `inhibits` (blunt T-bar), `binds`
 * (line with no head), `leads` (a step or consequence, arrow), `acts` (arrow with the verb as label).
 */
export type RelationKind = 'activates' | 'inhibits' | 'binds' | 'leads' | 'acts';

export interface FigureNode {
  id: string;
  /** Text drawn in the node. */
  label: string;
  /** Drawn with emphasis (bold outline, accent colour). */
  highlight?: boolean;
  /** Fill colour set by an edit, `#rrggbb`. */
  color?: string;
  /** Mermaid shape hint. */
  shape?: 'box' | 'round' | 'stadium' | 'circle' | 'diamond' | 'hexagon';
  /** Group (Mermaid subgraph) this node belongs to. */
  group?: string;
}

export interface FigureEdge {
  from: string;
  to: string;
  kind: RelationKind;
  /** Text drawn on the edge (the verb for `acts`, or a Mermaid edge label). */
  label?: string;
  dashed?: boolean;
}

export interface FigureGroup {
  id: string;
  label: string;
}

export interface FigureGraph {
  nodes: FigureNode[];
  edges: FigureEdge[];
  groups: FigureGroup[];
  /** Layout direction asked for by Mermaid (`LR`, `TD`…); otherwise chosen to fit the aspect ratio. */
  direction?: 'RIGHT' | 'DOWN' | 'LEFT' | 'UP';
}

/** Everything needed to draw a figure; stored with the figure so edits start from it. */
export interface FigureSpec {
  description: string;
  kind: FigureKind;
  style: FigureStyle;
  aspectRatio: AspectRatio;
  /** Exact strings that must appear in the figure. */
  labels: string[];
  graph: FigureGraph;
}

export function defaultAspectRatio(kind: FigureKind): AspectRatio {
  return kind === 'graphical_abstract' || kind === 'workflow' ? '16:9' : '4:3';
}

/** Canvas size in SVG units per aspect ratio; the PNG is drawn at twice this. */
export const CANVAS: Record<AspectRatio, { width: number; height: number }> = {
  '16:9': { width: 1280, height: 720 },
  '4:3': { width: 1200, height: 900 },
  '1:1': { width: 1000, height: 1000 },
  '3:4': { width: 900, height: 1200 },
  '9:16': { width: 720, height: 1280 },
};

export const PNG_SCALE = 2;

/** A problem with what the caller asked for (becomes a 400 naming the argument). */
export class FigureInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'FigureInputError';
  }
}

export function nodeIdFor(label: string, taken: ReadonlySet<string>): string {
  const base =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'n';
  let id = base;
  for (let i = 2; taken.has(id); i++) id = `${base}_${i}`;
  return id;
}

/** The node whose label matches `name` (case and surrounding articles ignored). */
export function findNode(graph: FigureGraph, name: string): FigureNode | undefined {
  const wanted = normaliseName(name);
  return graph.nodes.find((node) => normaliseName(node.label) === wanted) ?? graph.nodes.find((node) => node.id === name);
}

export function normaliseName(name: string): string {
  return name
    .trim()
    .replace(/^["'“‘](.*)["'”’]$/s, '$1')
    .replace(/^(the|a|an)\s+/i, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

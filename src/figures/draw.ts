/**
 * Graph → SVG. Text is measured with the shipped font, the graph is laid out by ELK's layered
 * algorithm (several directions are tried and the one that fills the canvas best wins), and the
 * drawing is made per kind (node shapes, step numbers, header, legend) and per style (palette,
 * strokes). Strings the caller asked for in `labels` are set on one line each, never wrapped, so
 * each appears in the SVG exactly as given.
 */
import { createRequire } from 'node:module';
import { FONT_FAMILY, textWidth, type FontWeight } from './font.ts';
import { CANVAS, normaliseName, type FigureEdge, type FigureKind, type FigureNode, type FigureSpec, type RelationKind } from './model.ts';
import { STYLES, contrastText, darken, tint, type StyleSheet } from './styles.ts';

export interface Drawing {
  svg: string;
  /** Canvas size in SVG units. */
  width: number;
  height: number;
}

interface KindSettings {
  fontSize: number;
  maxTextWidth: number;
  padX: number;
  padY: number;
  nodeSpacing: number;
  layerSpacing: number;
  defaultShape: NonNullable<FigureNode['shape']>;
  /** Largest enlargement of the laid-out graph to fill the canvas. */
  maxScale: number;
}

const KINDS: Record<FigureKind, KindSettings> = {
  mechanism: { fontSize: 18, maxTextWidth: 170, padX: 20, padY: 11, nodeSpacing: 36, layerSpacing: 64, defaultShape: 'stadium', maxScale: 1.5 },
  workflow: { fontSize: 18, maxTextWidth: 180, padX: 18, padY: 14, nodeSpacing: 34, layerSpacing: 58, defaultShape: 'box', maxScale: 1.5 },
  graphical_abstract: { fontSize: 21, maxTextWidth: 190, padX: 24, padY: 18, nodeSpacing: 44, layerSpacing: 76, defaultShape: 'box', maxScale: 1.6 },
  schematic: { fontSize: 18, maxTextWidth: 180, padX: 18, padY: 12, nodeSpacing: 36, layerSpacing: 60, defaultShape: 'box', maxScale: 1.5 },
  poster_panel: { fontSize: 22, maxTextWidth: 200, padX: 22, padY: 16, nodeSpacing: 40, layerSpacing: 70, defaultShape: 'box', maxScale: 1.6 },
};

const MARGIN = 44;
const LINE_HEIGHT = 1.25;

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function wrap(text: string, size: number, weight: FontWeight, maxWidth: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const candidate = line ? `${line} ${word}` : word;
    if (line && textWidth(candidate, size, weight) > maxWidth) {
      lines.push(line);
      line = word;
    } else line = candidate;
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [text];
}

interface PlacedNode {
  node: FigureNode;
  lines: string[];
  width: number;
  height: number;
  x: number;
  y: number;
  rank: number;
  step?: number;
}

interface ElkLabel {
  text: string;
  width: number;
  height: number;
  x?: number;
  y?: number;
}
interface ElkEdge {
  id: string;
  sources: string[];
  targets: string[];
  labels?: ElkLabel[];
  sections?: Array<{ startPoint: Point; endPoint: Point; bendPoints?: Point[] }>;
}
interface ElkNode {
  id: string;
  width?: number;
  height?: number;
  x?: number;
  y?: number;
  children?: ElkNode[];
  edges?: ElkEdge[];
  layoutOptions?: Record<string, string>;
  labels?: ElkLabel[];
}
interface Point {
  x: number;
  y: number;
}

// elkjs is CommonJS; its bundled build runs the layout in this thread (the caller is a worker thread).
const ElkConstructor = createRequire(import.meta.url)('elkjs/lib/elk.bundled.js') as new () => { layout(graph: unknown): Promise<unknown> };
const elk = new ElkConstructor();

/** Breadth-first depth from the sources (nodes nothing points to), in the order they were described; back edges of cycles are ignored. */
function ranks(nodes: FigureNode[], edges: FigureEdge[]): Map<string, number> {
  const rank = new Map<string, number>();
  const targets = new Set(edges.map((edge) => edge.to));
  const starts = [...nodes.filter((node) => !targets.has(node.id)), ...nodes];
  for (const start of starts) {
    if (rank.has(start.id)) continue;
    rank.set(start.id, 0);
    const queue = [start.id];
    while (queue.length > 0) {
      const current = queue.shift()!;
      for (const edge of edges) {
        if (edge.from !== current || rank.has(edge.to)) continue;
        rank.set(edge.to, rank.get(current)! + 1);
        queue.push(edge.to);
      }
    }
  }
  return rank;
}

interface Composition {
  title?: string;
  tags: string[];
  legend: RelationKind[];
  nodeText: Map<string, { text: string; exact: boolean }>;
  edgeText: Map<FigureEdge, { text: string; exact: boolean }>;
}

/** Decides where each requested label goes: a node or edge it names, else the title or the tag row. */
function compose(spec: FigureSpec): Composition {
  const nodeText = new Map<string, { text: string; exact: boolean }>();
  const edgeText = new Map<FigureEdge, { text: string; exact: boolean }>();
  for (const node of spec.graph.nodes) nodeText.set(node.id, { text: node.label, exact: false });
  for (const edge of spec.graph.edges) if (edge.label) edgeText.set(edge, { text: edge.label, exact: false });
  const free: string[] = [];
  for (const label of spec.labels) {
    const wanted = normaliseName(label);
    const node = spec.graph.nodes.find((n) => normaliseName(n.label) === wanted && !nodeText.get(n.id)!.exact);
    if (node) {
      nodeText.set(node.id, { text: label, exact: true });
      continue;
    }
    const edge = spec.graph.edges.find((e) => e.label !== undefined && normaliseName(e.label) === wanted && !edgeText.get(e)?.exact);
    if (edge) {
      edgeText.set(edge, { text: label, exact: true });
      continue;
    }
    if (!free.includes(label)) free.push(label);
  }
  let title: string | undefined;
  if ((spec.kind === 'graphical_abstract' || spec.kind === 'poster_panel') && free.length > 0) title = free.shift();
  const used = new Set(spec.graph.edges.map((edge) => edge.kind));
  const legend = (['activates', 'inhibits', 'binds'] as const).filter((kind) => used.has(kind));
  const showLegend = spec.kind === 'mechanism' ? legend.length > 0 : used.has('inhibits') || used.has('binds');
  return { title, tags: free, legend: showLegend ? [...legend] : [], nodeText, edgeText };
}

export async function drawFigure(spec: FigureSpec): Promise<Drawing> {
  const style = STYLES[spec.style];
  const kind = KINDS[spec.kind];
  const { width: canvasWidth, height: canvasHeight } = CANVAS[spec.aspectRatio];
  const composition = compose(spec);
  const weight = style.fontWeight;

  // Header, tag row and legend take their space first; the graph gets the rest.
  const titleSize = Math.round(kind.fontSize * 1.45);
  let top = MARGIN;
  let titleLines: string[] = [];
  if (composition.title) {
    titleLines = [composition.title];
    top += titleSize * LINE_HEIGHT + (spec.kind === 'poster_panel' ? 30 : 18);
  }
  const tagSize = Math.round(kind.fontSize * 0.9);
  const tagRows = layoutTags(composition.tags, tagSize, canvasWidth - 2 * MARGIN);
  const legendHeight = composition.legend.length > 0 ? tagSize * 2 : 0;
  const bottom = canvasHeight - MARGIN - (tagRows.length > 0 ? tagRows.length * (tagSize * 2.1) + 8 : 0) - (legendHeight > 0 ? legendHeight + 6 : 0);
  const area = { x: MARGIN, y: top, width: canvasWidth - 2 * MARGIN, height: Math.max(80, bottom - top) };

  const rank = ranks(spec.graph.nodes, spec.graph.edges);
  const placed = new Map<string, PlacedNode>();
  for (const node of spec.graph.nodes) {
    const { text, exact } = composition.nodeText.get(node.id)!;
    const nodeWeight: FontWeight = node.highlight ? 700 : weight;
    const lines = exact ? [text] : wrap(text, kind.fontSize, nodeWeight, kind.maxTextWidth);
    const textW = Math.max(...lines.map((line) => textWidth(line, kind.fontSize, nodeWeight)));
    const textH = lines.length * kind.fontSize * LINE_HEIGHT;
    const shape = node.shape ?? kind.defaultShape;
    const badge = spec.kind === 'workflow' && shape !== 'diamond' && shape !== 'circle' ? 26 : 0;
    let width = Math.max(textW + 2 * kind.padX + badge, 96);
    let height = textH + 2 * kind.padY;
    if (shape === 'circle') width = height = Math.max(width, height) * 1.02;
    if (shape === 'diamond') {
      width = width * 1.5;
      height = height * 1.6;
    }
    if (shape === 'hexagon') width += 24;
    if (spec.kind === 'graphical_abstract') height += 8;
    placed.set(node.id, { node, lines, width: Math.ceil(width), height: Math.ceil(height), x: 0, y: 0, rank: rank.get(node.id) ?? 0 });
  }
  if (spec.kind === 'workflow') {
    [...placed.values()]
      .filter((p) => p.node.shape !== 'diamond' && p.node.shape !== 'circle')
      .sort((a, b) => a.rank - b.rank || spec.graph.nodes.indexOf(a.node) - spec.graph.nodes.indexOf(b.node))
      .forEach((p, i) => (p.step = i + 1));
  }

  const edgeLabelSize = Math.round(kind.fontSize * 0.78);
  const layoutOf = async (direction: string, wrapping: boolean): Promise<ElkNode> => {
    const groups = new Map<string, ElkNode>();
    const root: ElkNode = {
      id: 'root',
      layoutOptions: {
        'elk.algorithm': 'layered',
        'elk.direction': direction,
        'elk.edgeRouting': 'ORTHOGONAL',
        'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
        'elk.json.shapeCoords': 'ROOT',
        'elk.json.edgeCoords': 'ROOT',
        'elk.spacing.nodeNode': String(kind.nodeSpacing),
        'elk.layered.spacing.nodeNodeBetweenLayers': String(kind.layerSpacing),
        'elk.spacing.edgeNode': '18',
        'elk.spacing.edgeEdge': '14',
        'elk.spacing.edgeLabel': '4',
        'elk.layered.spacing.edgeNodeBetweenLayers': '22',
        'elk.layered.nodePlacement.strategy': 'BRANDES_KOEPF',
        'elk.layered.nodePlacement.bk.fixedAlignment': 'BALANCED',
        'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
        'elk.layered.cycleBreaking.strategy': 'MODEL_ORDER',
        'elk.edgeLabels.placement': 'CENTER',
        'elk.layered.mergeEdges': 'false',
        ...(wrapping ? { 'elk.layered.wrapping.strategy': 'MULTI_EDGE', 'elk.aspectRatio': String(area.width / area.height) } : {}),
      },
      children: [],
      edges: [],
    };
    for (const group of spec.graph.groups) {
      const elkGroup: ElkNode = {
        id: `group:${group.id}`,
        children: [],
        layoutOptions: { 'elk.padding': `[top=${Math.round(kind.fontSize * 2.2)},left=18,bottom=18,right=18]` },
      };
      groups.set(group.id, elkGroup);
      root.children!.push(elkGroup);
    }
    for (const p of placed.values()) {
      const parent = (p.node.group && groups.get(p.node.group)) || root;
      parent.children!.push({ id: p.node.id, width: p.width, height: p.height });
    }
    spec.graph.edges.forEach((edge, i) => {
      const elkEdge: ElkEdge = { id: `e${i}`, sources: [edge.from], targets: [edge.to] };
      const label = composition.edgeText.get(edge);
      if (label) elkEdge.labels = [{ text: label.text, width: textWidth(label.text, edgeLabelSize, 400) + 10, height: edgeLabelSize * 1.3 }];
      root.edges!.push(elkEdge);
    });
    return (await elk.layout(root as never)) as unknown as ElkNode;
  };

  const landscape = area.width >= area.height;
  const directions = spec.graph.direction ? [spec.graph.direction] : landscape ? ['RIGHT', 'DOWN'] : ['DOWN', 'RIGHT'];
  const candidates: ElkNode[] = [];
  for (const direction of directions) candidates.push(await layoutOf(direction, false));
  const scaleOf = (layout: ElkNode): number => Math.min(area.width / (layout.width ?? 1), area.height / (layout.height ?? 1), kind.maxScale);
  let best = candidates[0]!;
  for (const candidate of candidates.slice(1)) if (scaleOf(candidate) > scaleOf(best) * 1.08) best = candidate;
  // A long chain drawn in one row would set the text too small to read: wrap it into rows instead.
  if (!spec.graph.direction && scaleOf(best) < 0.7) {
    const wrapped = await layoutOf(landscape ? 'RIGHT' : 'DOWN', true);
    if (scaleOf(wrapped) > scaleOf(best) * 1.3) best = wrapped;
  }
  const scale = scaleOf(best);
  const offsetX = area.x + (area.width - (best.width ?? 0) * scale) / 2;
  const offsetY = area.y + (area.height - (best.height ?? 0) * scale) / 2;

  const groupBoxes: Array<{ id: string; x: number; y: number; width: number; height: number }> = [];
  const visit = (node: ElkNode): void => {
    for (const child of node.children ?? []) {
      const p = placed.get(child.id);
      if (p) {
        p.x = child.x ?? 0;
        p.y = child.y ?? 0;
      } else if (child.id.startsWith('group:')) {
        groupBoxes.push({ id: child.id.slice(6), x: child.x ?? 0, y: child.y ?? 0, width: child.width ?? 0, height: child.height ?? 0 });
      }
      visit(child);
    }
  };
  visit(best);

  const out: string[] = [];
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${canvasWidth}" height="${canvasHeight}" viewBox="0 0 ${canvasWidth} ${canvasHeight}" font-family="${FONT_FAMILY}">`,
  );
  out.push('<defs>');
  if (style.shadow)
    out.push(
      '<filter id="shadow" x="-10%" y="-10%" width="130%" height="140%"><feDropShadow dx="0" dy="2.5" stdDeviation="2.5" flood-color="#000000" flood-opacity="0.18"/></filter>',
    );
  out.push('</defs>');
  out.push(`<rect width="${canvasWidth}" height="${canvasHeight}" fill="${style.background}"/>`);

  if (spec.kind === 'poster_panel') {
    out.push(
      `<rect x="10" y="10" width="${canvasWidth - 20}" height="${canvasHeight - 20}" rx="14" fill="none" stroke="${darken(style.palette[0]!, 0.1)}" stroke-width="3"/>`,
    );
  }
  if (composition.title) {
    const titleY = MARGIN + titleSize * 0.85;
    if (spec.kind === 'poster_panel') {
      const bandHeight = titleSize * LINE_HEIGHT + 22;
      out.push(
        `<path d="M10 ${10 + 14} a14 14 0 0 1 14 -14 h${canvasWidth - 48} a14 14 0 0 1 14 14 v${bandHeight + MARGIN - 24} h-${canvasWidth - 20} z" fill="${style.palette[0]}"/>`,
      );
      out.push(
        `<text x="${MARGIN}" y="${titleY + 6}" font-size="${titleSize}" font-weight="700" fill="${contrastText(style.palette[0]!)}">${escapeXml(titleLines[0]!)}</text>`,
      );
    } else {
      out.push(
        `<text x="${canvasWidth / 2}" y="${titleY}" font-size="${titleSize}" font-weight="700" fill="${style.textColor === 'contrast' ? '#1B1B1B' : style.textColor}" text-anchor="middle">${escapeXml(titleLines[0]!)}</text>`,
      );
      out.push(
        `<line x1="${canvasWidth / 2 - 40}" x2="${canvasWidth / 2 + 40}" y1="${titleY + 14}" y2="${titleY + 14}" stroke="${style.accent}" stroke-width="3" stroke-linecap="round"/>`,
      );
    }
  }

  out.push(`<g transform="translate(${round(offsetX)} ${round(offsetY)}) scale(${round(scale, 4)})">`);
  for (const box of groupBoxes) {
    const group = spec.graph.groups.find((g) => g.id === box.id)!;
    out.push(
      `<rect x="${round(box.x)}" y="${round(box.y)}" width="${round(box.width)}" height="${round(box.height)}" rx="${style.cornerRadius + 4}" fill="${style.groupFill}" stroke="${style.groupStroke}" stroke-width="1.4" stroke-dasharray="${spec.style === 'minimal_line' ? '5 4' : 'none'}"/>`,
    );
    out.push(
      `<text x="${round(box.x + 16)}" y="${round(box.y + kind.fontSize * 1.35)}" font-size="${Math.round(kind.fontSize * 0.85)}" font-weight="700" fill="${style.mutedText}">${escapeXml(group.label)}</text>`,
    );
  }

  const edges = best.edges ?? [];
  spec.graph.edges.forEach((edge, i) => {
    const laid = edges.find((e) => e.id === `e${i}`);
    const section = laid?.sections?.[0];
    if (!section) return;
    const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
    drawEdge(out, points, edge, style, spec.kind);
  });
  for (const p of placed.values()) drawNode(out, p, spec.kind, style, kind);
  spec.graph.edges.forEach((edge, i) => {
    const label = laid(edges, i)?.labels?.[0];
    const text = composition.edgeText.get(edge);
    if (!label || !text) return;
    const x = (label.x ?? 0) + label.width / 2;
    const y = (label.y ?? 0) + label.height / 2;
    out.push(
      `<rect x="${round(x - label.width / 2)}" y="${round(y - label.height / 2)}" width="${round(label.width)}" height="${round(label.height)}" rx="4" fill="${style.background}" fill-opacity="0.92"/>`,
    );
    out.push(
      `<text x="${round(x)}" y="${round(y + edgeLabelSize * 0.35)}" font-size="${edgeLabelSize}" font-style="${edge.kind === 'acts' ? 'italic' : 'normal'}" fill="${style.mutedText}" text-anchor="middle">${escapeXml(text.text)}</text>`,
    );
  });
  out.push('</g>');

  let y = canvasHeight - MARGIN;
  if (tagRows.length > 0) {
    y -= tagRows.length * tagSize * 2.1;
    drawTags(out, tagRows, tagSize, y + 4, canvasWidth, style);
  }
  if (composition.legend.length > 0) drawLegend(out, composition.legend, tagSize, y - legendHeight + 4, style, spec.kind);
  out.push('</svg>');
  return { svg: out.join('\n'), width: canvasWidth, height: canvasHeight };
}

function laid(edges: ElkEdge[], i: number): ElkEdge | undefined {
  return edges.find((e) => e.id === `e${i}`);
}

function round(value: number, digits = 1): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function nodeColors(p: PlacedNode, style: StyleSheet): { fill: string; stroke: string; text: string } {
  const base = p.node.color ?? style.palette[p.rank % style.palette.length]!;
  const fill = p.node.color && style.fillStrength < 0.3 ? tint(base, 0.35) : tint(base, style.fillStrength);
  const stroke = style.nodeStroke === 'palette' ? darken(base, 0.15) : p.node.color && style.nodeStroke !== 'none' ? darken(base, 0.2) : style.nodeStroke;
  const text = style.textColor === 'contrast' ? contrastText(fill) : style.textColor;
  return { fill, stroke, text };
}

function drawNode(out: string[], p: PlacedNode, kind: FigureKind, style: StyleSheet, settings: KindSettings): void {
  const { fill, stroke, text } = nodeColors(p, style);
  const highlight = p.node.highlight === true;
  const strokeWidth = highlight ? Math.max(style.nodeStrokeWidth * 2, 3) : style.nodeStrokeWidth;
  const strokeColor = highlight ? style.accent : stroke;
  const { x, y, width: w, height: h } = p;
  const shape = p.node.shape ?? settings.defaultShape;
  const attrs = `fill="${fill}" stroke="${strokeColor}" stroke-width="${strokeWidth}"${style.shadow ? ' filter="url(#shadow)"' : ''}`;
  if (highlight) {
    out.push(
      `<rect x="${round(x - 7)}" y="${round(y - 7)}" width="${round(w + 14)}" height="${round(h + 14)}" rx="${shape === 'stadium' || shape === 'circle' ? round((h + 14) / 2) : style.cornerRadius + 6}" fill="${tint(style.accent, 0.14)}" stroke="none"/>`,
    );
  }
  switch (shape) {
    case 'circle':
      out.push(`<ellipse cx="${round(x + w / 2)}" cy="${round(y + h / 2)}" rx="${round(w / 2)}" ry="${round(h / 2)}" ${attrs}/>`);
      break;
    case 'diamond':
      out.push(
        `<polygon points="${round(x + w / 2)},${round(y)} ${round(x + w)},${round(y + h / 2)} ${round(x + w / 2)},${round(y + h)} ${round(x)},${round(y + h / 2)}" ${attrs} stroke-linejoin="round"/>`,
      );
      break;
    case 'hexagon': {
      const inset = 14;
      out.push(
        `<polygon points="${round(x + inset)},${round(y)} ${round(x + w - inset)},${round(y)} ${round(x + w)},${round(y + h / 2)} ${round(x + w - inset)},${round(y + h)} ${round(x + inset)},${round(y + h)} ${round(x)},${round(y + h / 2)}" ${attrs} stroke-linejoin="round"/>`,
      );
      break;
    }
    default: {
      const radius = shape === 'stadium' ? h / 2 : shape === 'round' ? Math.max(style.cornerRadius, 14) : style.cornerRadius;
      out.push(`<rect x="${round(x)}" y="${round(y)}" width="${round(w)}" height="${round(h)}" rx="${round(Math.min(radius, h / 2))}" ${attrs}/>`);
      if (kind === 'graphical_abstract' && shape === 'box') {
        const band = style.palette[p.rank % style.palette.length]!;
        out.push(
          `<path d="M${round(x + Math.min(radius, 10))} ${round(y)} h${round(w - 2 * Math.min(radius, 10))} a${Math.min(radius, 10)} ${Math.min(radius, 10)} 0 0 1 ${Math.min(radius, 10)} ${Math.min(radius, 10)} v-${Math.min(radius, 10) - 7} h-${round(w)} v${Math.min(radius, 10) - 7} a${Math.min(radius, 10)} ${Math.min(radius, 10)} 0 0 1 ${Math.min(radius, 10)} -${Math.min(radius, 10)} z" fill="${p.node.color ?? band}"/>`,
        );
      }
    }
  }
  let textX = x + w / 2;
  if (p.step !== undefined) {
    const r = 12;
    const cx = x + 18 + r - 6;
    const cy = y + h / 2;
    out.push(
      `<circle cx="${round(cx)}" cy="${round(cy)}" r="${r}" fill="${style.textColor === 'contrast' ? '#FFFFFF' : strokeColor === 'none' ? style.accent : strokeColor}" fill-opacity="${style.textColor === 'contrast' ? 0.9 : 1}"/>`,
    );
    out.push(
      `<text x="${round(cx)}" y="${round(cy + 5)}" font-size="14" font-weight="700" fill="${style.textColor === 'contrast' ? fill : '#FFFFFF'}" text-anchor="middle">${p.step}</text>`,
    );
    textX += 13;
  }
  const size = settings.fontSize;
  const lineHeight = size * LINE_HEIGHT;
  const firstBaseline = y + h / 2 - ((p.lines.length - 1) * lineHeight) / 2 + size * 0.36 + (kind === 'graphical_abstract' ? 4 : 0);
  const weight = highlight ? 700 : style.fontWeight;
  if (p.lines.length === 1) {
    out.push(
      `<text x="${round(textX)}" y="${round(firstBaseline)}" font-size="${size}" font-weight="${weight}" fill="${text}" text-anchor="middle">${escapeXml(p.lines[0]!)}</text>`,
    );
  } else {
    const spans = p.lines.map((line, i) => `<tspan x="${round(textX)}" y="${round(firstBaseline + i * lineHeight)}">${escapeXml(line)}</tspan>`).join('');
    out.push(`<text font-size="${size}" font-weight="${weight}" fill="${text}" text-anchor="middle">${spans}</text>`);
  }
}

function drawEdge(out: string[], input: Point[], edge: FigureEdge, style: StyleSheet, kind: FigureKind): void {
  const points = input.map((p) => ({ ...p }));
  const width = kind === 'graphical_abstract' ? style.edgeWidth * 1.4 : style.edgeWidth;
  const color = style.edgeColor;
  const last = points[points.length - 1]!;
  const prev = points[points.length - 2]!;
  const length = Math.hypot(last.x - prev.x, last.y - prev.y) || 1;
  const ux = (last.x - prev.x) / length;
  const uy = (last.y - prev.y) / length;
  const head = 7 + width * 2.4;
  const arrow = edge.kind === 'activates' || edge.kind === 'leads' || edge.kind === 'acts';
  if (arrow) {
    last.x -= ux * (head - 1);
    last.y -= uy * (head - 1);
  } else if (edge.kind === 'inhibits') {
    last.x -= ux * 4;
    last.y -= uy * 4;
  }
  const dash = edge.dashed ? ` stroke-dasharray="${round(width * 3.5)} ${round(width * 2.5)}"` : '';
  out.push(
    `<path d="${roundedPath(points, 10)}" fill="none" stroke="${color}" stroke-width="${width}" stroke-linejoin="round" stroke-linecap="round"${dash}/>`,
  );
  const tip = input[input.length - 1]!;
  if (arrow) {
    const bx = tip.x - ux * head;
    const by = tip.y - uy * head;
    const half = head * 0.42;
    out.push(
      `<path d="M${round(tip.x)} ${round(tip.y)} L${round(bx - uy * half)} ${round(by + ux * half)} L${round(bx + ux * head * 0.18)} ${round(by + uy * head * 0.18)} L${round(bx + uy * half)} ${round(by - ux * half)} Z" fill="${color}" stroke="${color}" stroke-width="${round(width * 0.5)}" stroke-linejoin="round"/>`,
    );
  } else if (edge.kind === 'inhibits') {
    const half = 9 + width;
    const cx = tip.x - ux * 4;
    const cy = tip.y - uy * 4;
    out.push(
      `<line x1="${round(cx - uy * half)}" y1="${round(cy + ux * half)}" x2="${round(cx + uy * half)}" y2="${round(cy - ux * half)}" stroke="${color}" stroke-width="${round(width * 1.8)}" stroke-linecap="round"/>`,
    );
  } else {
    const start = input[0]!;
    for (const p of [start, tip]) out.push(`<circle cx="${round(p.x)}" cy="${round(p.y)}" r="${round(width * 1.6)}" fill="${color}"/>`);
  }
}

/** A polyline with its corners rounded. */
function roundedPath(points: Point[], radius: number): string {
  let d = `M${round(points[0]!.x)} ${round(points[0]!.y)}`;
  for (let i = 1; i < points.length - 1; i++) {
    const [a, b, c] = [points[i - 1]!, points[i]!, points[i + 1]!];
    const r = Math.min(radius, Math.hypot(b.x - a.x, b.y - a.y) / 2, Math.hypot(c.x - b.x, c.y - b.y) / 2);
    const inX = b.x - Math.sign(b.x - a.x) * r;
    const inY = b.y - Math.sign(b.y - a.y) * r;
    const outX = b.x + Math.sign(c.x - b.x) * r;
    const outY = b.y + Math.sign(c.y - b.y) * r;
    d += ` L${round(inX)} ${round(inY)} Q${round(b.x)} ${round(b.y)} ${round(outX)} ${round(outY)}`;
  }
  const end = points[points.length - 1]!;
  return `${d} L${round(end.x)} ${round(end.y)}`;
}

function layoutTags(tags: string[], size: number, maxWidth: number): Array<Array<{ text: string; width: number }>> {
  const rows: Array<Array<{ text: string; width: number }>> = [];
  let row: Array<{ text: string; width: number }> = [];
  let used = 0;
  for (const text of tags) {
    const width = textWidth(text, size, 500) + 28;
    if (row.length > 0 && used + width + 12 > maxWidth) {
      rows.push(row);
      row = [];
      used = 0;
    }
    row.push({ text, width });
    used += width + 12;
  }
  if (row.length > 0) rows.push(row);
  return rows;
}

function drawTags(out: string[], rows: Array<Array<{ text: string; width: number }>>, size: number, top: number, canvasWidth: number, style: StyleSheet): void {
  rows.forEach((row, r) => {
    const total = row.reduce((sum, tag) => sum + tag.width, 0) + (row.length - 1) * 12;
    let x = (canvasWidth - total) / 2;
    const y = top + r * size * 2.1;
    for (const tag of row) {
      const fill = style.fillStrength >= 1 ? style.palette[0]! : tint(style.accent, 0.1);
      const textColor = style.fillStrength >= 1 ? contrastText(fill) : darken(style.accent, 0.35);
      out.push(
        `<rect x="${round(x)}" y="${round(y)}" width="${round(tag.width)}" height="${round(size * 1.7)}" rx="${round(size * 0.85)}" fill="${fill}" stroke="${style.fillStrength >= 1 ? 'none' : tint(style.accent, 0.45)}" stroke-width="1"/>`,
      );
      out.push(
        `<text x="${round(x + tag.width / 2)}" y="${round(y + size * 1.2)}" font-size="${size}" font-weight="500" fill="${textColor}" text-anchor="middle">${escapeXml(tag.text)}</text>`,
      );
      x += tag.width + 12;
    }
  });
}

const LEGEND_TEXT: Record<string, string> = { activates: 'activation', inhibits: 'inhibition', binds: 'binding' };

function drawLegend(out: string[], kinds: RelationKind[], size: number, top: number, style: StyleSheet, kind: FigureKind): void {
  let x = MARGIN;
  const y = top + size * 0.6;
  for (const relation of kinds) {
    drawEdge(
      out,
      [
        { x, y },
        { x: x + 44, y },
      ],
      { from: '', to: '', kind: relation },
      style,
      kind === 'graphical_abstract' ? 'schematic' : kind,
    );
    const label = LEGEND_TEXT[relation]!;
    out.push(`<text x="${round(x + 54)}" y="${round(y + size * 0.36)}" font-size="${size}" fill="${style.mutedText}">${escapeXml(label)}</text>`);
    x += 54 + textWidth(label, size) + 30;
  }
}

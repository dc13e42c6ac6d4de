import { expect } from 'chai';
import { drawFigure } from '../../src/figures/draw.ts';
import { applyInstruction, EDIT_VOCABULARY } from '../../src/figures/edits.ts';
import { FigureInputError, type FigureSpec } from '../../src/figures/model.ts';
import { parseMermaid } from '../../src/figures/parse-mermaid.ts';
import { parseSentences } from '../../src/figures/parse-text.ts';
import { parseDescription } from '../../src/figures/describe.ts';
import { svgTexts } from './helpers.ts';

function edges(description: string): string[] {
  const graph = parseSentences(description);
  const label = (id: string): string => graph.nodes.find((node) => node.id === id)!.label;
  return graph.edges.map((edge) => `${label(edge.from)} ${edge.kind}${edge.label ? `(${edge.label})` : ''} ${label(edge.to)}`);
}

function spec(description: string, extra: Partial<FigureSpec> = {}): FigureSpec {
  return { description, kind: 'schematic', style: 'nature', aspectRatio: '4:3', labels: [], graph: parseDescription(description), ...extra };
}

describe('figures: reading a description', () => {
  it('reads relations, relative pronouns and semicolons from plain sentences', () => {
    expect(edges('A binds B, which activates C; C inhibits D')).to.deep.equal(['A binds B', 'B activates C', 'C inhibits D']);
  });

  it('reads passive voice, lists and verbs drawn as labelled arrows', () => {
    expect(edges('IκBα is degraded by the proteasome. TNFR1 recruits TRADD and TRAF2.')).to.deep.equal([
      'Proteasome acts(degrades) IκBα',
      'TNFR1 acts(recruits) TRADD',
      'TNFR1 acts(recruits) TRAF2',
    ]);
  });

  it('chains steps with no verb in the order they are given', () => {
    expect(edges('Sample collection, then DNA extraction, then sequencing')).to.deep.equal([
      'Sample collection leads DNA extraction',
      'DNA extraction leads Sequencing',
    ]);
    expect(edges('Raw data -> Cleaning -> Model')).to.deep.equal(['Raw data leads Cleaning', 'Cleaning leads Model']);
  });

  it('reads Mermaid flowchart syntax exactly: shapes, edge texts, inhibition, fan-out, groups and direction', () => {
    const graph = parseMermaid(
      'flowchart TD\n  %% a comment\n  A[Start] -->|go| B{Check}\n  B -- no --x C((Stop))\n  A & B --> D([End])\n  subgraph S [Stage 2]\n    E[Inner]\n  end\n  classDef x fill:#f00',
    );
    expect(graph.direction).to.equal('DOWN');
    expect(graph.nodes.map((n) => [n.id, n.label, n.shape ?? null, n.group ?? null])).to.deep.equal([
      ['A', 'Start', 'box', null],
      ['B', 'Check', 'diamond', null],
      ['C', 'Stop', 'circle', null],
      ['D', 'End', 'stadium', null],
      ['E', 'Inner', 'box', 'S'],
    ]);
    expect(graph.edges).to.deep.equal([
      { from: 'A', to: 'B', kind: 'leads', label: 'go' },
      { from: 'B', to: 'C', kind: 'inhibits', label: 'no' },
      { from: 'A', to: 'D', kind: 'leads' },
      { from: 'B', to: 'D', kind: 'leads' },
    ]);
    expect(graph.groups).to.deep.equal([{ id: 'S', label: 'Stage 2' }]);
  });

  it('names the line of a Mermaid flowchart it cannot read', () => {
    expect(() => parseMermaid('graph LR\n  A --> B\n  A ~~~> ')).to.throw(FigureInputError, /^Mermaid line 3: cannot read/);
  });
});

describe('figures: drawing', () => {
  it('sets every requested label exactly once on one line, escaped in the SVG, even when long', async () => {
    const labels = ['A very long label that would certainly be wrapped if it were an entity', 'x < y & "z"', 'Kinase A'];
    const drawing = await drawFigure(spec('Kinase A activates kinase B', { labels }));
    const texts = svgTexts(drawing.svg);
    for (const label of labels)
      expect(
        texts.filter((text) => text === label),
        label,
      ).to.have.length(1);
    expect(drawing.svg).to.include('x &lt; y &amp; &quot;z&quot;');
  });

  it('draws each kind and style differently', async () => {
    const svgs = new Set<string>();
    for (const kind of ['mechanism', 'workflow', 'graphical_abstract', 'schematic', 'poster_panel'] as const) {
      svgs.add((await drawFigure(spec('A activates B, which inhibits C', { kind, labels: ['Title'] }))).svg);
    }
    for (const style of ['nature', 'cell', 'minimal_line', 'flat_color', 'textbook'] as const) {
      svgs.add((await drawFigure(spec('A activates B, which inhibits C', { style }))).svg);
    }
    expect(svgs.size).to.equal(10);
  });
});

describe('figures: edit instructions', () => {
  const parent = spec('A binds B, which activates C; C inhibits D', { kind: 'mechanism' });

  it('applies one or two documented changes and leaves the parent unchanged', () => {
    const { spec: edited, changes } = applyInstruction(parent, 'rename B to Beta and use the cell style');
    expect(changes).to.deep.equal(['"B" renamed to "Beta"', 'style cell']);
    expect(edited.graph.nodes.map((n) => n.label)).to.deep.equal(['A', 'Beta', 'C', 'D']);
    expect(edited.style).to.equal('cell');
    expect(parent.graph.nodes.map((n) => n.label)).to.deep.equal(['A', 'B', 'C', 'D']);
    expect(parent.style).to.equal('nature');
  });

  it('understands every kind of change in the vocabulary', () => {
    const cases: Array<[string, (s: FigureSpec) => unknown, unknown]> = [
      ['add E after D', (s) => s.graph.edges.some((e) => e.from === 'd' && e.to === 'e'), true],
      ['remove D', (s) => s.graph.nodes.map((n) => n.label).join(), 'A,B,C'],
      ['E inhibits A', (s) => s.graph.edges.at(-1), { from: 'e', to: 'a', kind: 'inhibits' }],
      ['remove the arrow from C to D', (s) => s.graph.edges.length, 2],
      ['make it a workflow', (s) => s.kind, 'workflow'],
      ['make it square', (s) => s.aspectRatio, '1:1'],
      ['change the aspect ratio to 9:16', (s) => s.aspectRatio, '9:16'],
      ['add label "Figure 2"', (s) => s.labels, ['Figure 2']],
      ['highlight C', (s) => s.graph.nodes[2]!.highlight, true],
      ['colour C red', (s) => s.graph.nodes[2]!.color, '#D62728'],
    ];
    for (const [instruction, read, expected] of cases) expect(read(applyInstruction(parent, instruction).spec), instruction).to.deep.equal(expected);
    expect(EDIT_VOCABULARY).to.have.length(11);
  });

  it('refuses what it cannot understand, more than two changes, and entities the figure lacks', () => {
    expect(() => applyInstruction(parent, 'make it pop')).to.throw(FigureInputError, /^could not understand "make it pop"\. edit_figure understands/);
    expect(() => applyInstruction(parent, 'add X; add Y; add Z')).to.throw(
      FigureInputError,
      'has 3 changes; give at most 2 per call (chain several edit_figure calls for more)',
    );
    expect(() => applyInstruction(parent, 'remove Q')).to.throw(FigureInputError, 'the figure has no entity "Q"; its entities are: A, B, C, D');
  });
});

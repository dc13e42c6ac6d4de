/**
 * Regenerates the README's sample figures (docs/figures/*.png) with the built-in renderer, from
 * the same descriptions a caller would send to create_figure. `npm run figures:samples`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defaultAspectRatio, type FigureKind, type FigureSpec, type FigureStyle, type AspectRatio } from '../src/figures/model.ts';
import { BuiltinRenderer } from '../src/figures/renderer.ts';
import { parseDescription } from '../src/figures/describe.ts';

export interface Sample {
  file: string;
  description: string;
  kind: FigureKind;
  style: FigureStyle;
  aspectRatio?: AspectRatio;
  labels?: string[];
}

export const samples: Sample[] = [
  {
    file: 'mechanism-nfkb.png',
    kind: 'mechanism',
    style: 'nature',
    aspectRatio: '3:4',
    description:
      'TNF-α binds TNFR1, which recruits TRADD. TRADD recruits TRAF2, which activates the IKK complex. ' +
      'The IKK complex phosphorylates IκBα. IκBα inhibits NF-κB. NF-κB induces A20 and inflammatory genes. A20 inhibits TRAF2.',
    labels: ['NF-κB', 'Negative feedback'],
  },
  {
    file: 'workflow-rnaseq.png',
    kind: 'workflow',
    style: 'flat_color',
    description:
      'flowchart LR\n' +
      '  A[Tissue samples] --> B[RNA extraction]\n' +
      '  B --> C[Library preparation]\n' +
      '  C --> D[Sequencing]\n' +
      '  D --> E{Read QC}\n' +
      '  E -->|pass| F[Alignment]\n' +
      '  E -->|fail| B\n' +
      '  F --> G[Differential expression]',
  },
  {
    file: 'graphical-abstract-trial.png',
    kind: 'graphical_abstract',
    style: 'cell',
    description:
      'Adults with type 2 diabetes are randomised to drug X or placebo. Drug X leads to 24-week follow-up. ' +
      'Placebo leads to 24-week follow-up. 24-week follow-up leads to HbA1c reduction.',
    labels: ['Randomised controlled trial', 'n = 412'],
  },
];

export async function writeSamples(folder: URL): Promise<void> {
  mkdirSync(folder, { recursive: true });
  const renderer = new BuiltinRenderer();
  for (const sample of samples) {
    const spec: FigureSpec = {
      description: sample.description,
      kind: sample.kind,
      style: sample.style,
      aspectRatio: sample.aspectRatio ?? defaultAspectRatio(sample.kind),
      labels: sample.labels ?? [],
      graph: parseDescription(sample.description),
    };
    const image = await renderer.render(spec);
    writeFileSync(new URL(sample.file, folder), image.png);
    process.stdout.write(`${fileURLToPath(new URL(sample.file, folder))}: ${image.width}×${image.height}\n`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeSamples(new URL('../docs/figures/', import.meta.url));
}

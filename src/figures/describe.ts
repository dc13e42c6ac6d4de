/** A figure's description and labels as the figure tools receive them: parsed into a graph, and checked. */
import { tools } from '../../generated/tools.ts';
import { FigureInputError, type FigureGraph } from './model.ts';
import { isMermaid, parseMermaid } from './parse-mermaid.ts';
import { parseSentences } from './parse-text.ts';

export const MAX_LABELS = tools.create_figure.limits.labels;
export const MAX_LABEL_LENGTH = tools.create_figure.limits.label_length;

export function parseDescription(description: string): FigureGraph {
  return isMermaid(description) ? parseMermaid(description) : parseSentences(description);
}

export function checkLabels(labels: string[]): void {
  if (labels.length > MAX_LABELS) throw new FigureInputError('labels', `at most ${MAX_LABELS} labels, got ${labels.length}`);
  const long = labels.find((label) => label.length > MAX_LABEL_LENGTH);
  if (long !== undefined)
    throw new FigureInputError('labels', `each label is at most ${MAX_LABEL_LENGTH} characters; "${long.slice(0, 30)}…" is ${long.length}`);
}

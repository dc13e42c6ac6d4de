import type { CreateFigureArgs, CreateFigureExtra, ToolOutcome } from '../../generated/types.ts';
import { checkLabels, parseDescription } from '../figures/describe.ts';
import { FigureInputError, type FigureSpec } from '../figures/model.ts';
import type { ToolContext } from './context.ts';
import { failedDuringCall, figureOutcome, submitFigure, toApiInputError, type FigureData } from './figure-calls.ts';

/** create_figure: a new figure from a description (plain sentences or a Mermaid flowchart). */
export async function createFigure(args: CreateFigureArgs, context: ToolContext): Promise<ToolOutcome<FigureData, CreateFigureExtra>> {
  let spec: FigureSpec;
  try {
    const labels = args.labels ?? [];
    checkLabels(labels);
    const graph = parseDescription(args.description);
    if (graph.nodes.length === 0) throw new FigureInputError('description', 'names no entities or steps to draw');
    spec = { description: args.description, kind: args.kind, style: args.style, aspectRatio: args.aspect_ratio, labels, graph };
  } catch (error) {
    throw toApiInputError(error);
  }
  const figure = await submitFigure(context, 'create_figure', { spec });
  if (figure.status === 'failed') throw failedDuringCall(figure);
  return figureOutcome(figure, context.config);
}

import type { GetFigureArgs, GetFigureExtra, ToolOutcome } from '../../generated/types.ts';
import { figureOutcome, requireOwnFigure, type FigureData } from './figure-calls.ts';
import type { ToolContext } from './context.ts';

/** get_figure: the image when finished, otherwise that it is still rendering (poll again in about 30 s). Never charges. */
export async function getFigure(args: GetFigureArgs, context: ToolContext): Promise<ToolOutcome<FigureData, GetFigureExtra>> {
  const figure = await requireOwnFigure(context.db, context.accountId, args.figure_id);
  return figureOutcome(figure, context.config);
}

import type { EditFigureArgs, EditFigureExtra, ToolOutcome } from '../../generated/types.ts';
import { applyInstruction } from '../figures/edits.ts';
import { failedDuringCall, figureOutcome, requireOwnFigure, submitFigure, toApiInputError, type FigureData } from './figure-calls.ts';
import type { ToolContext } from './context.ts';

/** edit_figure: a new figure made from an earlier one by a plain-language instruction; the earlier one is kept. */
export async function editFigure(args: EditFigureArgs, context: ToolContext): Promise<ToolOutcome<FigureData, EditFigureExtra>> {
  const parent = await requireOwnFigure(context.db, context.accountId, args.figure_id);
  let edited: ReturnType<typeof applyInstruction>;
  try {
    edited = applyInstruction(parent.spec, args.instruction);
  } catch (error) {
    throw toApiInputError(error);
  }
  const figure = await submitFigure(context, 'edit_figure', { spec: edited.spec, parentId: parent.id, instruction: args.instruction });
  if (figure.status === 'failed') throw failedDuringCall(figure);
  const outcome = figureOutcome(figure, context.config, { summaryPrefix: `Edited ${parent.id} (${edited.changes.join('; ')}). ` });
  return { ...outcome, extra: { ...outcome.extra!, parent_figure_id: parent.id } };
}

/**
 * What the three figure tools share: queueing a figure with its credits held, waiting up to
 * FIGURE_SYNC_WAIT_MS for the image, and the answer of spec part 3
 * (finished with files, or pending with figure_id and a 30-second polling hint).
 */
import type { Knex } from 'knex';
import { tools } from '../../generated/tools.ts';
import type { GetFigureData, ToolOutcome } from '../../generated/types.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { fileUrl, MIME_TYPES } from '../figures/files.ts';
import { FigureInputError, type FigureSpec } from '../figures/model.ts';
import { findFigure, insertFigure, newFigureId, type FigureRow } from '../figures/store.ts';
import { waitForFigure } from '../figures/wait.ts';
import { builtinRecord } from '../builtin-record.ts';
import type { ToolContext } from './context.ts';

/** Seconds a caller should wait before asking get_figure again (spec part 8). */
export const POLL_AFTER_S = 30;

/** get_figure's record, the widest: any figure, edited or failed (create_figure and edit_figure answer neither a failed figure nor, for create, an edited one). */
export type FigureData = GetFigureData;

export function toApiInputError(error: unknown): unknown {
  return error instanceof FigureInputError ? new ApiError('invalid_input', `${error.field}: ${error.message}`) : error;
}

/** The same 400 for an unknown figure and another account's, so ids reveal nothing. */
export async function requireOwnFigure(db: Knex, accountId: string, figureId: string): Promise<FigureRow> {
  const figure = await findFigure(db, accountId, figureId);
  if (!figure) throw new ApiError('invalid_input', `figure_id: no figure "${figureId}" belongs to this account`);
  return figure;
}

/** Holds the price and queues the figure; 402 when the balance is below the price. */
export async function submitFigure(
  context: ToolContext,
  tool: 'create_figure' | 'edit_figure',
  input: { spec: FigureSpec; parentId?: string; instruction?: string },
): Promise<FigureRow> {
  const price = tools[tool].figurePriceCredits;
  const inserted = await insertFigure(context.db, {
    id: newFigureId(),
    accountId: context.accountId,
    callId: context.callId,
    queue: context.config.figureQueue,
    price,
    ...input,
  });
  if (!inserted.ok) {
    throw new ApiError('insufficient_credits', `a figure costs ${price} credits, charged when its image is finished; the account holds ${inserted.balance}`);
  }
  context.figures.wake();
  context.logger.info({ figure_id: inserted.figure.id, price }, 'figure queued');
  const { progress } = context;
  const onStatus = progress && ((status: FigureRow['status']) => progress(RENDER_STEPS[status], 3, `figure ${inserted.figure.id}: ${RENDER_STATES[status]}`));
  return waitForFigure(context.db, inserted.figure.id, context.config.figureSyncWaitMs, context.figures, onStatus);
}

/** A figure's render states as progress steps of three, and as words. */
const RENDER_STEPS: Record<FigureRow['status'], number> = { pending: 1, rendering: 2, finished: 3, failed: 3 };
const RENDER_STATES: Record<FigureRow['status'], string> = { pending: 'queued', rendering: 'rendering', finished: 'finished', failed: 'failed' };

function publicStatus(figure: FigureRow): 'pending' | 'finished' | 'failed' {
  return figure.status === 'rendering' ? 'pending' : figure.status;
}

export interface FigureExtra {
  figure_id: string;
  status: 'pending' | 'finished' | 'failed';
  credits_used: number;
  poll_after_s?: number;
  parent_figure_id?: string;
  kind?: FigureSpec['kind'];
  style?: FigureSpec['style'];
  aspect_ratio?: FigureSpec['aspectRatio'];
  message?: string;
}

/** The answer for a figure in its current state (spec part 3). */
export function figureOutcome(
  figure: FigureRow,
  config: Config,
  options: { withParent?: boolean; summaryPrefix?: string } = {},
): ToolOutcome<FigureData, FigureExtra> {
  const status = publicStatus(figure);
  const { spec } = figure;
  const data: FigureData = {
    figure_id: figure.id,
    status,
    kind: spec.kind,
    style: spec.style,
    aspect_ratio: spec.aspectRatio,
    description: spec.description,
    labels: spec.labels,
    created_at: figure.createdAt.toISOString(),
  };
  if (figure.parentId) data.parent_figure_id = figure.parentId;
  if (figure.instruction) data.instruction = figure.instruction;
  const extra: FigureExtra = { figure_id: figure.id, status, credits_used: figure.status === 'finished' ? figure.creditsCharged : 0 };
  if (options.withParent || figure.parentId) extra.parent_figure_id = figure.parentId ?? undefined;
  if (extra.parent_figure_id === undefined) delete extra.parent_figure_id;
  Object.assign(extra, { kind: spec.kind, style: spec.style, aspect_ratio: spec.aspectRatio });

  const record = {
    id: `${builtinRecord.source}:${figure.id}`,
    type: 'figure',
    title: title(spec.description),
    ...builtinRecord,
    retrievedAt: new Date().toISOString(),
    data,
  };
  const prefix = options.summaryPrefix ?? '';
  const shape = `a ${spec.aspectRatio} ${spec.kind.replace('_', ' ')} figure in the ${spec.style.replace('_', ' ')} style with ${count(spec.graph.nodes.length, 'entity', 'entities')} and ${count(spec.graph.edges.length, 'relationship', 'relationships')}`;

  if (figure.status === 'finished') {
    const png = `${figure.fileToken}.png`;
    const svg = `${figure.fileToken}.svg`;
    const imageUrl = fileUrl(config.publicBaseUrl, png);
    Object.assign(data, {
      image_url: imageUrl,
      mime_type: MIME_TYPES.png,
      width: figure.width!,
      height: figure.height!,
      finished_at: figure.finishedAt!.toISOString(),
      credits_charged: figure.creditsCharged,
    });
    return {
      summary: `${prefix}Figure ${figure.id} is finished: ${shape}; ${count(figure.creditsCharged, 'credit', 'credits')} charged.`,
      records: [{ ...record, url: imageUrl }],
      files: [
        { name: `${figure.id}.png`, url: imageUrl, mimeType: MIME_TYPES.png },
        { name: `${figure.id}.svg`, url: fileUrl(config.publicBaseUrl, svg), mimeType: MIME_TYPES.svg },
      ],
      extra,
    };
  }
  if (figure.status === 'failed') {
    data.error = figure.error ?? 'rendering failed';
    data.credits_charged = 0;
    extra.message = `${data.error}; nothing was charged`;
    return { summary: `${prefix}Figure ${figure.id} failed: ${data.error}; nothing was charged.`, records: [record], extra };
  }
  extra.poll_after_s = POLL_AFTER_S;
  return {
    summary: `${prefix}Figure ${figure.id} (${shape}) is still rendering; call get_figure with this figure_id again in about ${POLL_AFTER_S} seconds.`,
    records: [record],
    extra,
  };
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function title(description: string): string {
  const firstLine = description.split('\n').find((line) => line.trim() && !/^\s*(flowchart|graph)\b/i.test(line)) ?? description;
  const text = firstLine.trim().replace(/\s+/g, ' ');
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}

/** A figure that failed during the call's wait answers 502: the call could not complete and nothing is charged. */
export function failedDuringCall(figure: FigureRow): ApiError {
  return new ApiError('upstream_error', `figure ${figure.id} could not be rendered (${figure.error ?? 'rendering failed'}); nothing was charged`);
}

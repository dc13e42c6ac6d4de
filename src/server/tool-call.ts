/**
 * POST /api/v1/<tool>: the order of checks of the design — unknown tool 404, key 401, rate 429,
 * pack 403, body and schema 400, credits 402 (503 when they cannot be reached in time) — then the
 * handler, then 200 with the held credits captured; or 502/500 with them released. Every keyed
 * call is written to the call log (with the settlement, for a charged call).
 */
import { randomUUID } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Route } from '../../generated/routes.ts';
import { tools, type ToolMetadata } from '../../generated/tools.ts';
import type { ToolName } from '../../generated/types.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import { holdForCall, recordCallReliably, settleCall, type CallRecord, type LedgerGate } from '../ledger/index.ts';
import type { ToolContext } from '../tools/context.ts';
import type { FigureJobRunner } from '../figures/runner.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { applyDefaults, checkConstraints } from './arguments.ts';
import { authenticate } from './auth.ts';
import { toApiError } from './error-middleware.ts';
import type { InFlight } from './in-flight.ts';
import type { RateLimits } from './rate-limits.ts';

/** The documented maximum request body. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ToolCallDependencies {
  db: Knex;
  config: Config;
  logger: Logger;
  limits: RateLimits;
  upstream: UpstreamClient;
  figures: FigureJobRunner;
  routes: Array<Route<ToolContext>>;
  validateRequest: (request: Request, response: Response) => Promise<void>;
  /** Bounds this process's concurrent holds per account. */
  gate: LedgerGate;
  /** What a shutdown waits for (and releases when it cannot wait longer). */
  inFlight: InFlight;
}

export function findTool(name: string): ToolMetadata {
  if (!Object.hasOwn(tools, name)) throw new ApiError('unknown_tool', `no tool is named "${name}"; GET /api/v1 lists them`);
  return tools[name as ToolName];
}

const parseJson = express.json({ limit: MAX_BODY_BYTES, type: () => true, strict: false });

/** Reads the body as JSON. No body at all counts as `{}`; anything else must be a JSON object. */
async function readBody(request: Request, response: Response): Promise<void> {
  const hasBody = request.get('content-length') !== undefined ? Number(request.get('content-length')) > 0 : request.get('transfer-encoding') !== undefined;
  if (!hasBody) {
    request.body = {};
    return;
  }
  if (!request.is('application/json')) {
    throw new ApiError('invalid_input', `body: Content-Type must be application/json, got "${request.get('content-type') ?? 'none'}"`);
  }
  await new Promise<void>((resolve, reject) => parseJson(request, response, (error?: unknown) => (error ? reject(error) : resolve())));
  const body: unknown = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('invalid_input', `body: must be a JSON object of arguments, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`);
  }
}

export function toolCallHandler(deps: ToolCallDependencies): RequestHandler {
  const { db, config, logger, limits, upstream, figures, gate, inFlight } = deps;
  const handlers = new Map(deps.routes.map((route) => [route.tool as string, route.handler]));

  return (request, response) => inFlight.track(callTool(request, response));

  async function callTool(request: Request, response: Response): Promise<void> {
    const started = process.hrtime.bigint();
    const tool = findTool(String(request.params.tool));
    const caller = await authenticate(request, db, limits);
    const callId = `call_${randomUUID().replace(/-/g, '')}`;
    const held = { callId, accountId: caller.accountId, credits: tool.credits };
    let status = 'ok';
    let charged = 0;
    let holding = false;
    let recorded = false;
    const record = (): CallRecord => ({
      callId, accountId: caller.accountId, keyId: caller.keyId, tool: tool.name, status, credits: charged, durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e6),
    });
    try {
      response.set(await limits.consumeKey(caller.keyId));
      if (caller.disabledPacks.includes(tool.pack)) {
        throw new ApiError('pack_disabled', `the ${tool.pack} pack is switched off for this account; switch it on in the capability-packs settings`);
      }
      await readBody(request, response);
      await deps.validateRequest(request, response);
      const args = applyDefaults(tool, request.body as Record<string, unknown>);
      const problems = checkConstraints(tool, args);
      if (problems.length > 0) throw new ApiError('invalid_input', problems.join('; '));

      const debited = await holdForCall(db, held, { waitMs: config.chargeWaitMs, gate });
      if (!debited.ok) {
        throw new ApiError('insufficient_credits', `${tool.name} costs ${tool.credits} credit${tool.credits === 1 ? '' : 's'}; the account holds ${debited.balance}`);
      }
      holding = true;
      inFlight.holding(held);
      const context: ToolContext = { callId, accountId: caller.accountId, config, db, logger: logger.child({ call_id: callId, tool: tool.name }), upstream, figures };
      const outcome = await handlers.get(tool.name)!(args as never, context);
      // Captured with its call row before the answer: a 200 is charged and logged, or nothing is.
      charged = await settleCall(db, held, record(), true);
      recorded = true;
      response.status(200).json({ ...outcome, credits_used: charged, call_id: callId });
    } catch (error) {
      status = toApiError(error).code;
      if (holding && !recorded) {
        // Released with its call row before the error answer; if the database stays out of reach, the reconciler releases it.
        recorded = await settleCall(db, held, record(), false).then(
          () => true,
          (failure: unknown) => (logger.error({ err: failure, call_id: callId }, 'could not release the credits held by a failed call'), false),
        );
      }
      throw error;
    } finally {
      if (holding) inFlight.settled(callId);
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ call_id: callId, tool: tool.name, status, credits: charged, duration_ms: Math.round(durationMs * 10) / 10 }, 'tool call');
      // Written after the answer (a locked account must not delay it), retried; a shutdown waits for it.
      if (!recorded) {
        inFlight.track(recordCallReliably(db, record()).catch((error: unknown) => logger.error({ err: error, call_id: callId }, 'could not write the call log')));
      }
    }
  }
}

/**
 * POST /api/v1/<tool>: the order of checks of the design — unknown tool 404, key 401, rate 429,
 * pack 403, body and schema 400, credits 402 — then the handler, then 200; or 502/500 with the
 * debit refunded. Every keyed call is written to the call log.
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
import { debit, recordCall, refund } from '../ledger/index.ts';
import type { ToolContext } from '../tools/context.ts';
import type { FigureJobRunner } from '../figures/runner.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { applyDefaults, checkConstraints } from './arguments.ts';
import { authenticate } from './auth.ts';
import { answerFormat, notAcceptableMessage, sendCitations } from './citation-export.ts';
import { toApiError } from './error-middleware.ts';
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
  const { db, config, logger, limits, upstream, figures } = deps;
  const handlers = new Map(deps.routes.map((route) => [route.tool as string, route.handler]));

  return async (request, response) => {
    const started = process.hrtime.bigint();
    const tool = findTool(String(request.params.tool));
    const caller = await authenticate(request, db, limits);
    const callId = `call_${randomUUID().replace(/-/g, '')}`;
    let status = 'ok';
    let charged = 0;
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
      const format = answerFormat(tool.name, (types) => request.accepts(types));
      if (!format) throw new ApiError('not_acceptable', notAcceptableMessage(tool.name, request.get('accept')));

      const debited = await debit(db, { callId, accountId: caller.accountId, credits: tool.credits });
      if (!debited.ok) {
        throw new ApiError('insufficient_credits', `${tool.name} costs ${tool.credits} credit${tool.credits === 1 ? '' : 's'}; the account holds ${debited.balance}`);
      }
      charged = tool.credits;
      let outcome;
      try {
        const context: ToolContext = { callId, accountId: caller.accountId, config, db, logger: logger.child({ call_id: callId, tool: tool.name }), upstream, figures };
        outcome = await handlers.get(tool.name)!(args as never, context);
      } catch (error) {
        await refund(db, callId);
        charged = 0;
        throw error;
      }
      const result = { ...outcome, credits_used: charged, call_id: callId };
      if (format === 'json') response.status(200).json(result);
      else sendCitations(response, format, tool.name, result);
    } catch (error) {
      status = toApiError(error).code;
      throw error;
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ call_id: callId, tool: tool.name, status, credits: charged, duration_ms: Math.round(durationMs * 10) / 10 }, 'tool call');
      await recordCall(db, {
        callId, accountId: caller.accountId, keyId: caller.keyId, tool: tool.name, status, credits: charged, durationMs: Math.round(durationMs),
      }).catch((error: unknown) => logger.error({ err: error, call_id: callId }, 'could not write the call log'));
    }
  };
}

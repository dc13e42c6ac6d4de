/**
 * One tool call, whatever the connection (REST POST /api/v1/<tool> or MCP tools/call): the order
 * of checks of the design — rate 429, pack 403, arguments 400, credits 402 — then the handler; the
 * debit is refunded when the handler fails. Every call is written to the call log. The transport
 * has already found the tool and the caller's key, and reads the arguments its own way.
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Route } from '../../generated/routes.ts';
import type { ToolMetadata } from '../../generated/tools.ts';
import type { ToolOutcome } from '../../generated/types.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { FigureJobRunner } from '../figures/runner.ts';
import { debit, recordCall, refund, type AuthenticatedKey } from '../ledger/index.ts';
import type { ToolContext } from '../tools/context.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { applyDefaults, checkConstraints } from './arguments.ts';
import { toApiError } from './error-middleware.ts';
import type { RateLimits } from './rate-limits.ts';

export interface ToolCallServices {
  db: Knex;
  config: Config;
  logger: Logger;
  limits: RateLimits;
  upstream: UpstreamClient;
  figures: FigureJobRunner;
  routes: Array<Route<ToolContext>>;
}

export interface ToolCallRequest {
  tool: ToolMetadata;
  caller: AuthenticatedKey;
  /** The connection the call came over, for the log line. */
  transport: 'rest' | 'mcp';
  /** The arguments as sent, checked against the tool's input schema (throws ApiError invalid_input). */
  readArguments(): Promise<Record<string, unknown>>;
  /** Receives the key's rate-limit headers once the call is counted. */
  onRateLimitCounted?(headers: Record<string, string>): void;
}

/** The JSON of a successful call (spec part 2.2). */
export type ToolCallResult = ToolOutcome<unknown, unknown> & { credits_used: number; call_id: string };

export type ToolCallRunner = (request: ToolCallRequest) => Promise<ToolCallResult>;

export function createToolCallRunner(services: ToolCallServices): ToolCallRunner {
  const { db, config, logger, limits, upstream, figures } = services;
  const handlers = new Map(services.routes.map((route) => [route.tool as string, route.handler]));

  return async ({ tool, caller, transport, readArguments, onRateLimitCounted }) => {
    const started = process.hrtime.bigint();
    const callId = `call_${randomUUID().replace(/-/g, '')}`;
    let status = 'ok';
    let charged = 0;
    try {
      const rateLimitHeaders = await limits.consumeKey(caller.keyId);
      onRateLimitCounted?.(rateLimitHeaders);
      if (caller.disabledPacks.includes(tool.pack)) {
        throw new ApiError('pack_disabled', `the ${tool.pack} pack is switched off for this account; switch it on in the capability-packs settings`);
      }
      const args = applyDefaults(tool, await readArguments());
      const problems = checkConstraints(tool, args);
      if (problems.length > 0) throw new ApiError('invalid_input', problems.join('; '));

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
      return { ...outcome, credits_used: charged, call_id: callId };
    } catch (error) {
      status = toApiError(error).code;
      throw error;
    } finally {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info({ call_id: callId, tool: tool.name, transport, status, credits: charged, duration_ms: Math.round(durationMs * 10) / 10 }, 'tool call');
      await recordCall(db, {
        callId, accountId: caller.accountId, keyId: caller.keyId, tool: tool.name, status, credits: charged, durationMs: Math.round(durationMs),
      }).catch((error: unknown) => logger.error({ err: error, call_id: callId }, 'could not write the call log'));
    }
  };
}

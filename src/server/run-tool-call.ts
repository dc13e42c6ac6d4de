/**
 * One tool call, whatever the connection (REST POST /api/v1/<tool> or MCP tools/call): the order
 * of checks of the design — rate 429, pack 403, arguments 400, credits 402 (503 when they cannot
 * be reached in time) — then the handler. The price is held while the handler starts: nothing the
 * handler asks of an upstream leaves the process before the hold is admitted, and a refused call
 * answers 402 whatever the handler did. The hold is captured when the handler succeeds (in the
 * hold's own transaction when the handler was quick enough, as a cached answer is), released when
 * anything fails, together with the call's log row and before the answer goes out. Every call is
 * written to the call log; the row of a call that holds nothing when it ends (a free call, a
 * refused or failed one) after its answer, batched with other rows. The transport has already
 * found the tool and the caller's key, and reads the arguments its own way.
 */
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import type { Route } from '../../generated/routes.ts';
import type { ToolMetadata } from '../../generated/tools.ts';
import type { ToolOutcome } from '../../generated/types.ts';
import { untilCancelled } from '../cancellation.ts';
import type { Config } from '../config.ts';
import { ApiError } from '../errors.ts';
import type { FigureJobRunner } from '../figures/runner.ts';
import {
  holdAhead,
  newCallId,
  recordCallReliably,
  settleCall,
  type AuthenticatedKey,
  type CallBatches,
  type CallRecord,
  type LedgerGate,
} from '../ledger/index.ts';
import type { ProgressReporter, ToolContext } from '../tools/context.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { applyDefaults, checkConstraints } from './arguments.ts';
import { toApiError } from './error-middleware.ts';
import type { InFlight } from './in-flight.ts';
import type { RateLimits } from './rate-limits.ts';
import { metrics } from '../metrics.ts';

export interface ToolCallServices {
  db: Knex;
  config: Config;
  logger: Logger;
  limits: RateLimits;
  upstream: UpstreamClient;
  figures: FigureJobRunner;
  routes: Array<Route<ToolContext>>;
  /** Bounds this process's concurrent holds per account. */
  gate: LedgerGate;
  /** The group commit of holds, captures and call rows, per account. */
  batches: CallBatches;
  /** What a shutdown waits for (and releases when it cannot wait longer). */
  inFlight: InFlight;
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
  /** Receives the account's balance when the call's ledger writes read it, so the answer can say it without another read. */
  onBalance?(balance: number): void;
  /** Aborted when the caller cancels (an agent's cancellation): the call fails as `cancelled`, its hold released, nothing more asked upstream. */
  signal?: AbortSignal;
  /** Told how a long call goes (an agent that sent a progress token). */
  progress?: ProgressReporter;
}

/** The JSON of a successful call (spec part 2.2). */
export type ToolCallResult = ToolOutcome<unknown, unknown> & { credits_used: number; call_id: string };

export type ToolCallRunner = (request: ToolCallRequest) => Promise<ToolCallResult>;

export function createToolCallRunner(services: ToolCallServices): ToolCallRunner {
  const { db, config, logger, limits, upstream, figures, gate, batches, inFlight } = services;
  const handlers = new Map(services.routes.map((route) => [route.tool as string, route.handler]));

  return (request) => inFlight.track(runToolCall(request));

  async function runToolCall({
    tool,
    caller,
    transport,
    readArguments,
    onRateLimitCounted,
    onBalance,
    signal,
    progress,
  }: ToolCallRequest): Promise<ToolCallResult> {
    const calledAt = performance.now();
    const callId = newCallId();
    const held = { callId, accountId: caller.accountId, credits: tool.credits };
    let status = 'ok';
    let charged = 0;
    let holding = false;
    let recorded = false;
    const record = (): CallRecord => ({
      callId,
      accountId: caller.accountId,
      keyId: caller.keyId,
      tool: tool.name,
      status,
      credits: charged,
      durationMs: Math.round(performance.now() - calledAt),
    });
    try {
      const rateLimitHeaders = await limits.consumeKey(caller);
      onRateLimitCounted?.(rateLimitHeaders);
      if (caller.disabledPacks.includes(tool.pack)) {
        throw new ApiError('pack_disabled', `the ${tool.pack} pack is switched off for this account; switch it on in the capability-packs settings`);
      }
      const args = applyDefaults(tool, await readArguments());
      const problems = checkConstraints(tool, args);
      if (problems.length > 0) throw new ApiError('invalid_input', problems.join('; '));

      // A charged call's hold is written while its handler runs (nothing reaches upstream before the
      // hold is admitted); a quick handler's capture and call row then join the hold's transaction.
      const ahead = tool.credits > 0 ? holdAhead(db, held, { waitMs: config.chargeWaitMs, gate, batches }) : undefined;
      if (ahead) inFlight.holding(held);
      const refused = (balance: number): ApiError =>
        new ApiError('insufficient_credits', `${tool.name} costs ${tool.credits} credit${tool.credits === 1 ? '' : 's'}; the account holds ${balance}`);
      const admission = ahead?.outcome.then((result) => {
        if (!result.ok) throw refused(result.balance);
      });
      admission?.catch(() => undefined);
      let callLogger: Logger | undefined;
      const context: ToolContext = {
        callId,
        accountId: caller.accountId,
        config,
        db,
        upstream: admission || signal ? upstream.forCall(admission, signal) : upstream,
        figures,
        signal,
        progress,
        // Made when a handler first logs: most calls never do, and a child logger per call is not free.
        get logger() {
          return (callLogger ??= logger.child({ call_id: callId, tool: tool.name }));
        },
      };
      const ran = await untilCancelled(handlers.get(tool.name)!(args as never, context), signal).then(
        (outcome) => ({ outcome, capturedWithHold: ahead?.captureWithHold(record()) ?? false }),
        (failure: unknown) => ({ failure }),
      );
      if (!ahead) {
        if ('failure' in ran) throw ran.failure;
        // Nothing to capture: the answer only reads the balance, in a read shared with the account's other calls that began after this one.
        if (onBalance) await batches.balance(caller.accountId, calledAt).then(onBalance, () => undefined);
        return { ...ran.outcome, credits_used: 0, call_id: callId };
      }
      // The credits come first, whatever the handler did: a refused call answers 402.
      const debited = await ahead.outcome;
      if (!debited.ok) throw refused(debited.balance);
      holding = true;
      metrics.creditsDebited(tool.credits);
      if ('failure' in ran) throw ran.failure;
      if (debited.captured) {
        charged = tool.credits;
        if (debited.balance !== undefined) onBalance?.(debited.balance);
      } else {
        // Captured with its call row before the answer: a 200 is charged and logged, or nothing is.
        // After a failed batch the hold was taken one by one, and the capture goes that way too.
        charged = await settleCall(db, held, record(), true, { batches: ran.capturedWithHold ? undefined : batches, onBalance });
      }
      // Captured nothing: the reconciler had already given the credits back (a call longer than HOLD_TIMEOUT_MS).
      if (charged === 0) metrics.creditsReturned(tool.credits);
      recorded = true;
      return { ...ran.outcome, credits_used: charged, call_id: callId };
    } catch (error) {
      status = toApiError(error).code;
      if (holding && !recorded) {
        // Released with its call row before the error answer; if the database stays out of reach, the reconciler releases it.
        recorded = await settleCall(db, held, record(), false).then(
          () => (metrics.creditsReturned(tool.credits), true),
          (failure: unknown) => (logger.error({ err: failure, call_id: callId }, 'could not release the credits held by a failed call'), false),
        );
      }
      throw error;
    } finally {
      if (tool.credits > 0) inFlight.settled(callId);
      const durationMs = performance.now() - calledAt;
      metrics.toolCall(tool.name, status, durationMs / 1000);
      logger.info({ call_id: callId, tool: tool.name, transport, status, credits: charged, duration_ms: Math.round(durationMs * 10) / 10 }, 'tool call');
      // Written after the answer (a locked account must not delay it), batched, retried; a shutdown waits for it.
      if (!recorded) {
        inFlight.track(
          recordCallReliably(db, record(), { batches }).catch((error: unknown) =>
            logger.error({ err: error, call_id: callId }, 'could not write the call log'),
          ),
        );
      }
    }
  }
}

/**
 * One tool call, whatever the connection (REST POST /api/v1/<tool> or MCP tools/call): the order
 * of checks of the design — rate 429, pack 403, arguments 400, credits 402 (503 when they cannot
 * be reached in time) — then the handler. The call's charge is one CallCharge (ledger/charge.ts):
 * admitted (held) while the handler starts, so nothing the handler asks of an upstream leaves the
 * process before the hold is admitted; then `succeed` when the handler answered (captured with the
 * call row before the answer; a refused call answers 402 whatever the handler did) or `fail` when
 * anything failed or the caller cancelled (released with the call row). The charge decides what
 * the call answers; calls that hold nothing have their row written after the answer. The transport
 * has already found the tool and the caller's key, and reads the arguments its own way.
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
import { CallCharge, CallLedger, type AuthenticatedKey, type CallBatches, type CallRecord, type LeaseHolder, type LedgerGate } from '../ledger/index.ts';
import { newCallId } from '../database/index.ts';
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
  /** This process's lease, named by its calls' holds (ledger/leases.ts). */
  lease?: LeaseHolder;
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
  const { db, config, logger, limits, upstream, figures, gate, batches, inFlight, lease } = services;
  const handlers = new Map(services.routes.map((route) => [route.tool as string, route.handler]));
  const ledger = new CallLedger(db, batches, { gate, lease });

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
    const charge = new CallCharge(
      ledger,
      { callId, accountId: caller.accountId, credits: tool.credits },
      {
        waitMs: config.chargeWaitMs,
        refusal: (balance) =>
          new ApiError('insufficient_credits', `${tool.name} costs ${tool.credits} credit${tool.credits === 1 ? '' : 's'}; the account holds ${balance}`),
        tracker: inFlight,
        onWriteFailed: (error, what) =>
          logger.error({ err: error, call_id: callId, write: what }, 'a ledger write of a call failed; the reconciler settles what it left'),
      },
    );
    let status = 'ok';
    let charged = 0;
    const record = (answered: unknown = undefined): CallRecord => ({
      callId,
      accountId: caller.accountId,
      keyId: caller.keyId,
      tool: tool.name,
      status: answered === undefined ? 'ok' : toApiError(answered).code,
      credits: 0,
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

      // The hold is written while the handler runs: nothing reaches upstream before it is admitted.
      const admission = charge.admit();
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
      // Settled as soon as the handler answers, in the same turn: a quick call's capture joins its hold's transaction.
      const outcome = await untilCancelled(handlers.get(tool.name)!(args as never, context), signal);
      const settled = await charge.succeed(record(), { balanceSince: onBalance ? calledAt : undefined });
      charged = settled.credits;
      if (settled.balance !== undefined) onBalance?.(settled.balance);
      return { ...outcome, credits_used: charged, call_id: callId };
    } catch (error) {
      const answered = await charge.fail(error, record);
      status = toApiError(answered).code;
      throw answered;
    } finally {
      const durationMs = performance.now() - calledAt;
      metrics.toolCall(tool.name, status, durationMs / 1000);
      logger.info({ call_id: callId, tool: tool.name, transport, status, credits: charged, duration_ms: Math.round(durationMs * 10) / 10 }, 'tool call');
    }
  }
}

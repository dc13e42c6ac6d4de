/**
 * POST /api/v1/<tool>: unknown tool 404, key 401, with an Idempotency-Key its stored answer or 409/422
 * (idempotency.ts), then the shared call path (run-tool-call.ts: rate 429, pack 403, body and schema
 * 400, credits 402, the handler) and 200 with the held credits captured; or 502/500/503 with them
 * released. The HTTP parts live here: the path, the key headers, the JSON body, X-Credits-Remaining.
 */
import express, { type Request, type RequestHandler, type Response } from 'express';
import type { Knex } from 'knex';
import { tools, type ToolMetadata } from '../../generated/tools.ts';
import type { ToolName } from '../../generated/types.ts';
import { ApiError, clip } from '../errors.ts';
import { authenticate } from './auth.ts';
import { getBalance } from '../ledger/index.ts';
import { answerFormat, citationAnswer, notAcceptableMessage, type AnswerFormat } from './citation-export.ts';
import { answerOnce, idempotencyKeyOf, requestFingerprint, type StoredAnswer } from './idempotency.ts';
import type { KeyVerifier } from './key-cache.ts';
import type { RateLimits } from './rate-limits.ts';
import type { ToolCallRunner } from './run-tool-call.ts';

/** The documented maximum request body. */
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ToolCallDependencies {
  db: Knex;
  limits: RateLimits;
  keys: KeyVerifier;
  runToolCall: ToolCallRunner;
  validateRequest: (request: Request, response: Response) => Promise<void>;
}

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(tools, name);
}

export function findTool(name: string): ToolMetadata {
  if (!isToolName(name)) throw new ApiError('unknown_tool', `no tool is named "${name}"; GET /api/v1 lists them`);
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
    throw new ApiError('invalid_input', `body: Content-Type must be application/json, got "${clip(request.get('content-type') ?? 'none')}"`);
  }
  await new Promise<void>((resolve, reject) => parseJson(request, response, (error?: unknown) => (error ? reject(error) : resolve())));
  const body: unknown = request.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError(
      'invalid_input',
      `body: must be a JSON object of arguments, got ${Array.isArray(body) ? 'an array' : body === null ? 'null' : typeof body}`,
    );
  }
}

export function toolCallHandler(deps: ToolCallDependencies): RequestHandler {
  const { db, limits, keys, runToolCall, validateRequest } = deps;

  return async (request, response) => {
    const tool = findTool(String(request.params.tool));
    const caller = await authenticate(request, keys, limits);
    let bodyRead: Promise<void> | undefined;
    const readBodyOnce = (): Promise<void> => (bodyRead ??= readBody(request, response));
    let balance: number | undefined;
    const run = async (): Promise<StoredAnswer> => {
      let format: AnswerFormat = 'json';
      const result = await runToolCall({
        tool,
        caller,
        transport: 'rest',
        onRateLimitCounted: (headers) => response.set(headers),
        onBalance: (known) => (balance = known),
        readArguments: async () => {
          await readBodyOnce();
          await validateRequest(request, response);
          // Checked with the arguments, before any credit is held.
          format = answerFormat(tool.name, (types) => request.accepts(types)) ?? notAcceptable(tool.name, request.get('accept'));
          return request.body as Record<string, unknown>;
        },
      });
      if (format !== 'json') return citationAnswer(format, tool.name, result);
      return { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' }, body: JSON.stringify(result) };
    };
    let answer: StoredAnswer;
    try {
      const key = idempotencyKeyOf(request);
      if (key === undefined) answer = await run();
      else {
        await readBodyOnce();
        answer = await answerOnce(db, caller.accountId, key, requestFingerprint(tool.name, request.body), run);
      }
    } finally {
      await setCreditsRemaining(response, db, caller.accountId, balance);
    }
    // Sent without Express's ETag: an answer to a POST is never revalidated, and the ETag is a hash of the whole body.
    response
      .status(answer.status)
      .set(answer.headers)
      .set('Content-Length', String(Buffer.byteLength(answer.body)))
      .end(answer.body);
  };
}

/** `X-Credits-Remaining` on every keyed answer: the balance after the call (left out when the database cannot say). */
export async function setCreditsRemaining(response: Response, db: Knex, accountId: string, balance?: number): Promise<void> {
  const known = balance ?? (await getBalance(db, accountId).catch(() => undefined));
  if (known !== undefined) response.set('X-Credits-Remaining', String(known));
}

function notAcceptable(tool: ToolName, accept: string | undefined): never {
  throw new ApiError('not_acceptable', notAcceptableMessage(tool, accept));
}

/**
 * POST /mcp: the agent-protocol connection (MCP Streamable HTTP, stateless; the 2026-07-28
 * revision and, through the SDK's fallback, 2025-era clients). The same keys as REST, the same
 * tools from generated/mcp-tools.json, the same call path (run-tool-call.ts) and so the same
 * checks, credits and per-key rate limit. Discovery (initialize, server/discover, tools/list,
 * ping) is free and not counted; batches are bounded (mcp-batches.ts).
 *
 * A failed call is a tool result with `isError: true` and the REST error JSON as its text, without
 * structuredContent (which clients check against the tool's output schema). A call whose client
 * sent a progress token is told its progress once it runs past a second (mcp-progress.ts). A call
 * the client cancels (it closes the call's stream, or sends notifications/cancelled: see
 * mcp-cancellation.ts) stops, asks nothing more upstream, is released and logged as cancelled,
 * and gets no answer.
 */
import { hostHeaderValidation, originValidation } from '@modelcontextprotocol/express';
import { toNodeHandler } from '@modelcontextprotocol/node';
import {
  JSONRPC_VERSION,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  createMcpHandler,
  type AuthInfo,
  type CallToolResult,
  type ContentBlock,
  type McpRequestContext,
  type Tool,
} from '@modelcontextprotocol/server';
import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Knex } from 'knex';
import type { Logger } from 'pino';
import mcpTools from '../../generated/mcp-tools.json' with { type: 'json' };
import { tools } from '../../generated/tools.ts';
import type { ToolName } from '../../generated/types.ts';
import packageJson from '../../package.json' with { type: 'json' };
import { ApiError } from '../errors.ts';
import type { FileStore } from '../figures/files.ts';
import type { AuthenticatedKey } from '../ledger/index.ts';
import { authenticate } from './auth.ts';
import { errorBody, toApiError } from './error-middleware.ts';
import type { KeyVerifier } from './key-cache.ts';
import { batchError, serveBatch } from './mcp-batches.ts';
import { RunningCalls, shareCancellationsInRedis } from './mcp-cancellation.ts';
import { progressRelay } from './mcp-progress.ts';
import type { RateLimits } from './rate-limits.ts';
import { createArgumentValidator } from './request-validation.ts';
import type { ToolCallResult, ToolCallRunner } from './run-tool-call.ts';
import { MAX_BODY_BYTES } from './tool-call.ts';

/** Images up to this size also come back inline (base64) beside their link. */
export const INLINE_IMAGE_MAX_BYTES = 512 * 1024;

export interface McpDependencies {
  db: Knex;
  logger: Logger;
  limits: RateLimits;
  keys: KeyVerifier;
  publicBaseUrl: string;
  files: FileStore;
  runToolCall: ToolCallRunner;
  /** The call path for a client that sent a progress token: figure calls wait for the image (FIGURE_SYNC_WAIT_MS) and say how the render goes. */
  runToolCallWithProgress?: ToolCallRunner;
  /** Redis, where the processes tell each other the cancellations they receive (REDIS_URL). */
  redisUrl?: string;
}

/** Who an MCP request came from: its key, and the client's address (what names a running call with its request id). */
interface McpCaller {
  caller: AuthenticatedKey;
  clientAddress: string;
}

const definitions = mcpTools.tools as unknown as Tool[];

/** The tools of the packs switched on for the caller's account. */
export function visibleTools(caller: AuthenticatedKey): Tool[] {
  return definitions.filter((definition) => !caller.disabledPacks.includes(tools[definition.name as ToolName].pack));
}

/** A failed call as a result every client reads: the REST error JSON as text. No structuredContent, which SDK clients check against the tool's output schema. */
export function errorResult(error: ApiError): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(errorBody(error)) }] };
}

/** The name of a file URL of this server (`<token>.<ext>`); undefined for any other URL. */
function localFileName(publicBaseUrl: string, url: string): string | undefined {
  const prefix = `${publicBaseUrl}/files/`;
  return url.startsWith(prefix) ? url.slice(prefix.length) : undefined;
}

/** Each file of a result as a resource link; a small image also as image content. */
async function fileContent(result: ToolCallResult, files: FileStore, publicBaseUrl: string): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [];
  for (const file of result.files ?? []) {
    blocks.push({ type: 'resource_link', uri: file.url, name: file.name, mimeType: file.mimeType });
    const name = file.mimeType === 'image/png' ? localFileName(publicBaseUrl, file.url) : undefined;
    const stored = name ? await files.read(name) : undefined;
    if (stored && stored.content.length <= INLINE_IMAGE_MAX_BYTES) {
      blocks.push({ type: 'image', data: stored.content.toString('base64'), mimeType: file.mimeType });
    }
  }
  return blocks;
}

function callerOf(context: McpRequestContext): McpCaller {
  const extra = context.authInfo?.extra as Partial<McpCaller> | undefined;
  if (!extra?.caller) throw new Error('an MCP request reached the server without an authenticated key');
  return { caller: extra.caller, clientAddress: extra.clientAddress ?? 'unknown' };
}

/** One MCP server per request (stateless), bound to the key that sent it. */
function serverFactory(deps: McpDependencies, running: RunningCalls): (context: McpRequestContext) => Server {
  const validateArguments = createArgumentValidator();
  return (context) => {
    const { caller, clientAddress } = callerOf(context);
    const owner = `${caller.keyId} ${clientAddress}`;
    const server = new Server(
      { name: packageJson.name, version: packageJson.version },
      { capabilities: { tools: { listChanged: false } }, instructions: mcpTools.instructions },
    );
    server.setRequestHandler('tools/list', () => ({ tools: visibleTools(caller) }));
    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args } = request.params;
      if (!Object.hasOwn(tools, name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no tool is named "${name}"; tools/list lists them`);
      const tool = tools[name as ToolName];
      const progressToken = ctx.mcpReq._meta?.progressToken;
      const relay =
        progressToken === undefined
          ? undefined
          : progressRelay((notice) => {
              ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken, ...notice } }).catch(() => undefined);
            });
      // Closing this request's server ends its stream without an answer and aborts ctx.mcpReq.signal.
      const forget = running.add(owner, ctx.mcpReq.id, () => void server.close().catch(() => undefined));
      try {
        const run = relay ? (deps.runToolCallWithProgress ?? deps.runToolCall) : deps.runToolCall;
        const result = await run({
          tool,
          caller,
          transport: 'mcp',
          readArguments: async () => validateArguments(tool, args ?? {}),
          signal: ctx.mcpReq.signal,
          progress: relay?.report,
        });
        return {
          content: [{ type: 'text', text: JSON.stringify(result) }, ...(await fileContent(result, deps.files, deps.publicBaseUrl))],
          structuredContent: result,
        };
      } catch (error) {
        const apiError = toApiError(error);
        if (apiError.code === 'internal') deps.logger.error({ err: error, tool: name }, 'unexpected failure');
        // A cancelled call's result is never sent: the SDK drops the answer of a request whose signal was aborted.
        return errorResult(apiError);
      } finally {
        relay?.stop();
        forget();
      }
    });
    server.setNotificationHandler('notifications/cancelled', (notification) => {
      const { requestId } = notification.params;
      if (requestId !== undefined) running.cancel(owner, requestId);
    });
    return server;
  };
}

/**
 * The key check of REST in front of the MCP handler: a missing or bad key is 401 with a Bearer
 * challenge and a JSON-RPC error body, before any MCP method runs. The raw key goes no further.
 */
function requireKey(keys: KeyVerifier, limits: RateLimits): RequestHandler {
  return async (request, response, next) => {
    let caller: AuthenticatedKey;
    try {
      caller = await authenticate(request, keys, limits);
    } catch (error) {
      const apiError = toApiError(error);
      if (apiError.code === 'unauthorized') response.set('WWW-Authenticate', 'Bearer realm="research-tools-api"');
      response
        .status(apiError.status)
        .set(apiError.headers)
        .json({
          jsonrpc: JSONRPC_VERSION,
          id: null,
          error: { code: -32000, message: apiError.message, data: { error: { code: apiError.code, message: apiError.message } } },
        });
      return;
    }
    const auth: AuthInfo = { token: '', clientId: caller.accountId, scopes: [], extra: { caller, clientAddress: request.ip ?? 'unknown' } satisfies McpCaller };
    (request as Request & { auth?: AuthInfo }).auth = auth;
    next();
  };
}

/** Host names a request may address: this deployment's public one and the loopback names. */
export function allowedHostnames(publicBaseUrl: string): string[] {
  return [...new Set([new URL(publicBaseUrl).hostname, 'localhost', '127.0.0.1', '[::1]'])];
}

/**
 * The SDK's event streams say `Connection: keep-alive`, which would keep the socket open after a
 * client's `Connection: close`; without it, Node answers each request as its Connection header asks.
 */
function leaveConnectionToNode(response: Response): void {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => Response;
  response.writeHead = ((...args: unknown[]) => {
    const headers = args.at(-1);
    if (headers && typeof headers === 'object' && !Array.isArray(headers)) {
      for (const name of Object.keys(headers)) if (name.toLowerCase() === 'connection') delete (headers as Record<string, unknown>)[name];
    }
    return writeHead(...args);
  }) as Response['writeHead'];
}

const readText = express.text({ type: () => true, limit: MAX_BODY_BYTES });

/** The body of a JSON POST, read here (up to the REST limit) so that a batch can be told from a single message; undefined when it is not JSON, for the SDK to answer. */
async function readJsonBody(request: Request, response: Response): Promise<{ json?: unknown; tooLarge?: true }> {
  if (request.method !== 'POST' || !request.is('application/json')) return {};
  const failure = await new Promise<unknown>((resolve) => readText(request, response, resolve));
  if ((failure as { type?: string } | undefined)?.type === 'entity.too.large') return { tooLarge: true };
  try {
    return { json: JSON.parse(String(request.body)) as unknown };
  } catch {
    return {};
  }
}

export function mcpRouter(deps: McpDependencies): Router {
  const running = new RunningCalls();
  if (deps.redisUrl) shareCancellationsInRedis(running, deps.redisUrl, deps.logger);
  const handler = createMcpHandler(serverFactory(deps, running), {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error) => deps.logger.warn({ err: error }, 'MCP request failed'),
  });
  const serve = toNodeHandler(handler, {
    maxRequestBodySize: MAX_BODY_BYTES,
    onerror: (error) => deps.logger.error({ err: error }, 'MCP handler failed'),
  });
  const hostnames = allowedHostnames(deps.publicBaseUrl);
  const router = Router();
  // DNS-rebinding protection: a page on another site cannot address this server by its own name.
  router.all('/', hostHeaderValidation(hostnames), originValidation(hostnames), requireKey(deps.keys, deps.limits), async (request, response) => {
    leaveConnectionToNode(response);
    const body = await readJsonBody(request, response);
    if (body.tooLarge) return batchError(response, 413, `the body is larger than the limit of ${MAX_BODY_BYTES} bytes`);
    if (Array.isArray(body.json) && body.json.length > 0) {
      const auth = (request as Request & { auth?: AuthInfo }).auth;
      return serveBatch(body.json, response, (message, signal) =>
        handler.fetch(singleMessage(request, message, signal), { authInfo: auth, parsedBody: message }),
      );
    }
    await serve(request, response, body.json);
  });
  return router;
}

/** One message of a batch as a POST of its own, with the batch's headers. */
function singleMessage(request: Request, message: unknown, signal: AbortSignal): globalThis.Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || ['content-length', 'transfer-encoding', 'content-encoding'].includes(name)) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  return new globalThis.Request(`http://${request.get('host') ?? 'localhost'}${request.originalUrl}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(message),
    signal,
  });
}

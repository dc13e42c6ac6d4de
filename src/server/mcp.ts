/**
 * POST /mcp: the agent-protocol connection (MCP Streamable HTTP, stateless; the 2026-07-28
 * revision and, through the SDK's fallback, 2025-era clients). The same keys as REST, the same
 * tools from generated/mcp-tools.json, the same call path (run-tool-call.ts) and so the same
 * checks, credits and per-key rate limit. Discovery (initialize, server/discover, tools/list,
 * ping) is free and not counted.
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
import { Router, type Request, type RequestHandler } from 'express';
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
import { toApiError } from './error-middleware.ts';
import type { KeyVerifier } from './key-cache.ts';
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
}

const definitions = mcpTools.tools as unknown as Tool[];

/** The tools of the packs switched on for the caller's account. */
export function visibleTools(caller: AuthenticatedKey): Tool[] {
  return definitions.filter((definition) => !caller.disabledPacks.includes(tools[definition.name as ToolName].pack));
}

function errorResult(error: ApiError): CallToolResult {
  const body = { error: { code: error.code, message: error.message } };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }], structuredContent: body };
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

function callerOf(context: McpRequestContext): AuthenticatedKey {
  const caller = (context.authInfo?.extra as { caller?: AuthenticatedKey } | undefined)?.caller;
  if (!caller) throw new Error('an MCP request reached the server without an authenticated key');
  return caller;
}

/** One MCP server per request (stateless), bound to the key that sent it. */
function serverFactory(deps: McpDependencies): (context: McpRequestContext) => Server {
  const validateArguments = createArgumentValidator();
  return (context) => {
    const caller = callerOf(context);
    const server = new Server({ name: packageJson.name, version: packageJson.version }, { capabilities: { tools: { listChanged: false } } });
    server.setRequestHandler('tools/list', () => ({ tools: visibleTools(caller) }));
    server.setRequestHandler('tools/call', async (request) => {
      const { name, arguments: args } = request.params;
      if (!Object.hasOwn(tools, name)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no tool is named "${name}"; tools/list lists them`);
      const tool = tools[name as ToolName];
      try {
        const result = await deps.runToolCall({ tool, caller, transport: 'mcp', readArguments: async () => validateArguments(tool, args ?? {}) });
        return {
          content: [{ type: 'text', text: JSON.stringify(result) }, ...(await fileContent(result, deps.files, deps.publicBaseUrl))],
          structuredContent: result,
        };
      } catch (error) {
        const apiError = toApiError(error);
        if (apiError.code === 'internal') deps.logger.error({ err: error, tool: name }, 'unexpected failure');
        return errorResult(apiError);
      }
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
    const auth: AuthInfo = { token: '', clientId: caller.accountId, scopes: [], extra: { caller } };
    (request as Request & { auth?: AuthInfo }).auth = auth;
    next();
  };
}

/** Host names a request may address: this deployment's public one and the loopback names. */
export function allowedHostnames(publicBaseUrl: string): string[] {
  return [...new Set([new URL(publicBaseUrl).hostname, 'localhost', '127.0.0.1', '[::1]'])];
}

export function mcpRouter(deps: McpDependencies): Router {
  const handler = createMcpHandler(serverFactory(deps), {
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
    await serve(request, response);
  });
  return router;
}

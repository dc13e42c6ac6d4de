/**
 * The official MCP SDK clients, connected over real HTTP to a test server's /mcp with an API key:
 * the current one (2.x, @modelcontextprotocol/client) and the one most agent hosts still ship
 * (1.x, @modelcontextprotocol/sdk), behind one small interface so a test can run against each.
 */
import { expect } from 'chai';
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as StreamableHTTPClientTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { documentationAddress } from './server.ts';

/** The protocol revisions the server answers; `2026-07-28` is the current one. */
export type Revision = '2026-07-28' | '2025-11-25' | '2025-06-18';

/** Headers of an agent configured with the key; a fresh documentation-range client address keeps one test's failed-key count from another's. */
function keyHeaders(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}`, 'x-forwarded-for': documentationAddress() };
}

export async function connectMcp(baseUrl: string, key: string, revision: Revision = '2026-07-28'): Promise<Client> {
  const options = revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] };
  const client = new Client({ name: 'research-tools-test', version: '1.0.0' }, options);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers: keyHeaders(key) } }));
  return client;
}

/** A tools/call result as this server answers a success: the REST JSON as structuredContent. */
export interface ToolAnswer extends CallToolResult {
  structuredContent: Record<string, any>;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args })) as ToolAnswer;
}

/** The error of a failed call: its only content is a text holding the REST error body. */
export function errorOf(result: CallToolResult): { code: string; message: string } {
  expect(result.content).to.have.length(1);
  const [text] = result.content as Array<{ type: string; text: string }>;
  expect(text!.type).to.equal('text');
  return (JSON.parse(text!.text) as { error: { code: string; message: string } }).error;
}

/** A progress notification as a client hears it. */
export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface CallOptions {
  onprogress?: (progress: Progress) => void;
  signal?: AbortSignal;
}

/** What the tests ask of any SDK client. */
export interface AgentClient {
  name: string;
  callTool(name: string, args: Record<string, unknown>, options?: CallOptions): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The SDK clients the tests drive, each with the revision it speaks. */
export const SDK_CLIENTS = ['SDK 1.x', 'SDK 2.x at 2026-07-28', 'SDK 2.x at 2025-11-25'] as const;
export type SdkClientName = (typeof SDK_CLIENTS)[number];

export async function connectAgent(name: SdkClientName, baseUrl: string, key: string): Promise<AgentClient> {
  // Long calls in the tests keep their requests open longer than a default timeout might under load.
  const timeout = 120_000;
  if (name === 'SDK 1.x') {
    const client = new ClientV1({ name: 'research-tools-test-v1', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransportV1(new URL(`${baseUrl}/mcp`), { requestInit: { headers: keyHeaders(key) } }));
    // As an agent host does before the first call: the client then checks each result against the tool's output schema.
    await client.listTools();
    return {
      name,
      callTool: async (tool, args, options = {}) =>
        (await client.callTool({ name: tool, arguments: args }, undefined, { ...options, timeout })) as CallToolResult,
      close: () => client.close(),
    };
  }
  const client = await connectMcp(baseUrl, key, name === 'SDK 2.x at 2026-07-28' ? '2026-07-28' : '2025-11-25');
  await client.listTools();
  return {
    name,
    callTool: (tool, args, options = {}) => client.callTool({ name: tool, arguments: args }, { ...options, timeout }),
    close: () => client.close(),
  };
}

/** The official MCP SDK client, connected over real HTTP to a test server's /mcp with an API key. */
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import { documentationAddress } from './server.ts';

/** The protocol revisions the server answers; `2026-07-28` is the current one. */
export type Revision = '2026-07-28' | '2025-11-25' | '2025-06-18';

export async function connectMcp(baseUrl: string, key: string, revision: Revision = '2026-07-28'): Promise<Client> {
  const options = revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: revision } } } : { supportedProtocolVersions: [revision] };
  const client = new Client({ name: 'research-tools-test', version: '1.0.0' }, options);
  // A fresh documentation-range client address keeps one test's failed-key count from another's.
  const headers = { authorization: `Bearer ${key}`, 'x-forwarded-for': documentationAddress() };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit: { headers } }));
  return client;
}

/** A tools/call result as this server answers it: the REST JSON as structuredContent. */
export interface ToolAnswer extends CallToolResult {
  structuredContent: Record<string, any>;
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  return (await client.callTool({ name, arguments: args })) as ToolAnswer;
}

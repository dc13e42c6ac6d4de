/** The three GET addresses that need no key: the tool list, one tool's description, the OpenAPI document. */
import type { RequestHandler } from 'express';
import { tools } from '../../generated/tools.ts';
import { requireJsonAccepted } from './accept.ts';
import { findTool } from './tool-call.ts';

export function listToolsHandler(): RequestHandler {
  const body = {
    tools: Object.values(tools).map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      pack: tool.pack,
      credits: tool.credits,
      capability: tool.capability,
      path: tool.path,
    })),
  };
  return (_request, response) => {
    response.json(body);
  };
}

export function describeToolHandler(): RequestHandler {
  return (request, response) => {
    const tool = findTool(String(request.params.tool));
    requireJsonAccepted(request);
    response.json({ name: tool.name, title: tool.title, description: tool.description, pack: tool.pack, input_schema: tool.inputSchema });
  };
}

/** The generated document with its `servers` entry set to this deployment's public address. */
export function openApiHandler(openapi: Record<string, unknown>, publicBaseUrl: string): RequestHandler {
  const body = { ...openapi, servers: [{ url: publicBaseUrl }] };
  return (_request, response) => {
    response.json(body);
  };
}

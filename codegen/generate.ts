/** codegen as a pure function: a manifest in, the files of generated/ out (name → exact bytes). */
import type { Manifest } from './manifest/types.ts';
import { emitPythonClient } from './emit/client-python.ts';
import { emitTypeScriptClient } from './emit/client-typescript.ts';
import { emitErrors } from './emit/errors.ts';
import { buildMcpTools } from './emit/mcp.ts';
import { buildOpenApi } from './emit/openapi.ts';
import { emitTypeScript } from './emit/typescript.ts';

export function generate(manifest: Manifest): Map<string, string> {
  const files = new Map<string, string>();
  files.set('errors.ts', emitErrors());
  files.set('mcp-tools.json', `${JSON.stringify(buildMcpTools(manifest), null, 2)}\n`);
  files.set('openapi.json', `${JSON.stringify(buildOpenApi(manifest), null, 2)}\n`);
  for (const [name, text] of emitTypeScript(manifest)) files.set(name, text);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

/** The files of clients/ (the TypeScript and Python clients), by path under clients/. */
export function generateClients(manifest: Manifest): Map<string, string> {
  const files = new Map([...emitTypeScriptClient(manifest), ...emitPythonClient(manifest)]);
  return new Map([...files].sort(([a], [b]) => a.localeCompare(b)));
}

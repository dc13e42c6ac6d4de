/**
 * Emits the TypeScript part of generated/: argument, data and extra types per tool (types.ts), the
 * tool metadata (tools.ts) and the route table that binds each tool to its handler (routes.ts).
 */
import { IndentationText, NewLineKind, Project, QuoteKind, type SourceFile } from 'ts-morph';
import type { Manifest, SourceDefinition, ToolDefinition } from '../manifest/types.ts';
import { inputSchema } from './json-schema.ts';
import { BUILTIN_SOURCE, GENERATED_NOTICE, argsTypeName, callOperationId, dataTypeName, extraTypeName, toolPath } from './names.ts';
import { objectMembers } from './typescript-types.ts';

function newSourceFile(project: Project, name: string, statements: string[]): SourceFile {
  const file = project.createSourceFile(name, statements.join('\n\n'), { overwrite: true });
  file.formatText({ indentSize: 2, convertTabsToSpaces: true, ensureNewLineAtEndOfFile: true, semicolons: 'insert' as never });
  file.insertText(0, `// ${GENERATED_NOTICE}\n\n`);
  return file;
}

/** A TypeScript literal with single quotes and bare keys, one property per line, in the value's own key order. */
function literal(value: unknown, indent = ''): string {
  if (value === null) return 'null';
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((item) => typeof item !== 'object' || item === null)) return `[${value.map((item) => literal(item)).join(', ')}]`;
    return `[\n${value.map((item) => `${inner}${literal(item, inner)},\n`).join('')}${indent}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, child]) => child !== undefined);
    if (entries.length === 0) return '{}';
    const key = (name: string): string => (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : literal(name));
    return `{\n${entries.map(([name, child]) => `${inner}${key(name)}: ${literal(child, inner)},\n`).join('')}${indent}}`;
  }
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
  return String(value);
}

function sortedTools(manifest: Manifest): ToolDefinition[] {
  return [...manifest.tools].sort((a, b) => a.name.localeCompare(b.name));
}

function argsInterface(tool: ToolDefinition): string {
  // Handlers receive the arguments after defaults are applied, so defaulted ones are always present.
  const present = new Set(
    Object.entries(tool.input.properties)
      .filter(([name, property]) => tool.input.required?.includes(name) || 'default' in property || property.default_from)
      .map(([name]) => name),
  );
  return (
    `/** Arguments of ${tool.name}, as its handler receives them (defaults applied). */\n` +
    `export interface ${argsTypeName(tool.name)} {\n${objectMembers({ type: 'object', properties: tool.input.properties }, '  ', present)}}`
  );
}

function objectInterface(name: string, doc: string, schema: ToolDefinition['data']): string {
  return `/** ${doc} */\nexport interface ${name} {\n${objectMembers(schema, '  ', new Set(schema.required ?? []))}}`;
}

/** The RequestKinds type: per source whose budget declares request kinds, those kinds. */
function requestKindsType(manifest: Manifest): string {
  const members = [...manifest.sources]
    .filter((source) => source.budget?.kinds)
    .sort((a, b) => a.id.localeCompare(b.id))
    .map(
      (source) =>
        `  ${/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(source.id) ? source.id : literal(source.id)}: ${Object.keys(source.budget!.kinds!)
          .sort()
          .map((kind) => literal(kind))
          .join(' | ')};\n`,
    );
  const doc = '/** Per source whose budget declares request kinds, the kinds its connector tags requests with (tools.yaml `budget.kinds`). */';
  return members.length > 0 ? `${doc}\nexport interface RequestKinds {\n${members.join('')}}` : `${doc}\nexport type RequestKinds = Record<never, never>;`;
}

/** A source's budget as the upstream layer reads it (generated/tools.ts), or undefined. */
function budgetMetadata(budget: SourceDefinition['budget']): unknown {
  if (!budget) return undefined;
  return {
    documented: budget.documented,
    unit: budget.unit ?? 'requests',
    kinds: budget.kinds ? Object.fromEntries(Object.entries(budget.kinds).sort(([a], [b]) => a.localeCompare(b))) : undefined,
    windows: budget.windows.map((window) => ({ per: window.per, reset: window.reset, limit: window.limit, limitWithoutKey: window.limit_without_key })),
    spentSignal: budget.spent_signal
      ? { status: budget.spent_signal.status, bodyPattern: budget.spent_signal.body_pattern, window: budget.spent_signal.window }
      : undefined,
  };
}

function typesFile(project: Project, manifest: Manifest): SourceFile {
  const tools = sortedTools(manifest);
  const statements: string[] = [
    `/** Source id of records the service makes itself. */\nexport const BUILTIN_SOURCE = ${literal(BUILTIN_SOURCE)};`,
    `/** Every tool name. */\nexport type ToolName = ${tools.map((tool) => literal(tool.name)).join(' | ')};`,
    `/** Every pack id. */\nexport type PackId = ${manifest.packs.map((pack) => literal(pack.id)).join(' | ')};`,
    `/** Every upstream source id. */\nexport type SourceId = ${
      manifest.sources
        .map((source) => literal(source.id))
        .sort()
        .join(' | ') || 'never'
    };`,
    requestKindsType(manifest),
    `/** The request kinds a connector of source S may tag its requests with (never for a source without kinds). */
export type RequestKindOf<S extends SourceId> = S extends keyof RequestKinds ? RequestKinds[S] : never;`,
    `/** One record of a result (spec part 2.3). */
export interface ToolRecord<Data> {
  id: string;
  type: string;
  source: string;
  title?: string;
  url?: string;
  license: string;
  attribution: string;
  retrievedAt: string;
  data: Data;
}`,
    `/** What a handler returns; the server adds credits_used and call_id (spec part 2.2). */
export interface ToolOutcome<Data, Extra = never> {
  summary: string;
  records: Array<ToolRecord<Data>>;
  partial?: true;
  failedSources?: Array<{ source: string; error: string }>;
  files?: Array<{ name: string; url: string; mimeType: string }>;
  extra?: Extra;
}`,
  ];
  for (const tool of tools) {
    statements.push(argsInterface(tool));
    statements.push(objectInterface(dataTypeName(tool.name), `The \`data\` of one ${tool.name} record.`, tool.data));
    if (tool.extra) statements.push(objectInterface(extraTypeName(tool.name), `The \`extra\` of a ${tool.name} result.`, tool.extra));
  }
  return newSourceFile(project, 'types.ts', statements);
}

function toolsFile(project: Project, manifest: Manifest): SourceFile {
  const tools = sortedTools(manifest);
  const metadata = Object.fromEntries(
    tools.map((tool) => {
      const defaults = Object.fromEntries(
        Object.entries(tool.input.properties)
          .filter(([, property]) => 'default' in property)
          .map(([name, property]) => [name, property.default]),
      );
      const defaultsFrom = Object.fromEntries(
        Object.entries(tool.input.properties)
          .filter(([, property]) => property.default_from)
          .map(([name, property]) => [name, property.default_from]),
      );
      return [
        tool.name,
        {
          name: tool.name,
          title: tool.title,
          description: tool.description,
          pack: tool.pack,
          credits: tool.credits,
          figurePriceCredits: tool.figure_price_credits,
          limits: tool.limits ?? {},
          citationExport: tool.citation_export === true,
          capability: tool.capability,
          recordType: tool.record_type,
          path: toolPath(tool.name),
          defaults,
          defaultsFrom,
          constraints: tool.input.constraints ?? [],
          sources: tool.upstream ? [...new Set(tool.upstream.calls.map((call) => call.source))] : [],
          selectBy: tool.upstream?.select_by,
          calls: tool.upstream?.calls ?? [],
          inputSchema: inputSchema(tool),
        },
      ];
    }),
  );
  const sources = Object.fromEntries(
    [...manifest.sources]
      .sort((a, b) => a.id.localeCompare(b.id))
      .map((source) => [
        source.id,
        {
          id: source.id,
          title: source.title,
          baseUrl: source.base_url,
          docsUrl: source.docs_url,
          license: source.license,
          attribution: source.attribution,
          key: source.key,
          contactEmail: source.contact_email,
          timeoutMs: source.timeout_ms,
          rateLimit: { requestsPerSecond: source.rate_limit.requests_per_second, concurrency: source.rate_limit.concurrency },
          cacheTtlS: source.cache_ttl_s,
          maxBodyBytes: source.max_body_bytes,
          sameHostRedirects: source.same_host_redirects,
          budget: budgetMetadata(source.budget),
          note: source.note,
        },
      ]),
  );
  return newSourceFile(project, 'tools.ts', [
    `import type { PackId, SourceId, ToolName } from './types.ts';`,
    `/** The discipline packs, in the manifest's order. */\nexport const packs = ${literal(manifest.packs)} as const satisfies ReadonlyArray<{ id: PackId; title: string }>;`,
    `/** The capability groups of list_capabilities, in the manifest's order. */\nexport const capabilities = ${literal(manifest.capabilities)} as const;`,
    `/** Every upstream source: base URL, licence, attribution, key and politeness settings. */\nexport const sources = ${literal(sources)} as const satisfies Record<SourceId, unknown>;`,
    `/** Every tool's metadata, by name. */\nexport const tools = ${literal(metadata)} as const satisfies Record<ToolName, unknown>;`,
    `export type ToolMetadata = (typeof tools)[ToolName];`,
    `export type SourceMetadata = (typeof sources)[SourceId];`,
  ]);
}

function routesFile(project: Project, manifest: Manifest): SourceFile {
  const tools = sortedTools(manifest);
  const typeNames = tools.flatMap((tool) => [argsTypeName(tool.name), dataTypeName(tool.name), ...(tool.extra ? [extraTypeName(tool.name)] : [])]);
  const handlerMembers = tools
    .map((tool) => {
      const extra = tool.extra ? `, ${extraTypeName(tool.name)}` : '';
      return `  /** POST ${toolPath(tool.name)} */\n  ${tool.name}: ToolHandler<${argsTypeName(tool.name)}, ${dataTypeName(tool.name)}, Context${extra}>;`;
    })
    .join('\n');
  const routeEntries = tools
    .map(
      (tool) =>
        `    { tool: ${literal(tool.name)}, path: ${literal(toolPath(tool.name))}, operationId: ${literal(callOperationId(tool.name))}, handler: handlers.${tool.name} as RouteHandler<Context> },`,
    )
    .join('\n');
  return newSourceFile(project, 'routes.ts', [
    `import type {\n${['ToolName', 'ToolOutcome', ...typeNames].map((name) => `  ${name},`).join('\n')}\n} from './types.ts';`,
    `/** A hand-written tool implementation: receives validated arguments with defaults applied. */\nexport type ToolHandler<Args, Data, Context, Extra = never> = (args: Args, context: Context) => Promise<ToolOutcome<Data, Extra>>;`,
    `/** One handler per tool: leaving one out, or giving one the wrong types, is a compile error. */\nexport interface ToolHandlers<Context> {\n${handlerMembers}\n}`,
    `export type RouteHandler<Context> = (args: never, context: Context) => Promise<ToolOutcome<unknown, unknown>>;`,
    `export interface Route<Context> {\n  tool: ToolName;\n  path: string;\n  operationId: string;\n  handler: RouteHandler<Context>;\n}`,
    `/** Binds every tool's POST path to its handler. */\nexport function buildRouteTable<Context>(handlers: ToolHandlers<Context>): Array<Route<Context>> {\n  return [\n${routeEntries}\n  ];\n}`,
  ]);
}

/** The TypeScript files of generated/, by file name. */
export function emitTypeScript(manifest: Manifest): Map<string, string> {
  const project = new Project({
    useInMemoryFileSystem: true,
    manipulationSettings: {
      indentationText: IndentationText.TwoSpaces,
      quoteKind: QuoteKind.Single,
      newLineKind: NewLineKind.LineFeed,
    },
  });
  const files = [typesFile(project, manifest), toolsFile(project, manifest), routesFile(project, manifest)];
  return new Map(files.map((file) => [file.getBaseName(), file.getFullText()]));
}

/**
 * Emits clients/typescript/: an ES module package with one method per tool. src/runtime.ts is the
 * hand-written runtime (codegen/clients/typescript/runtime.ts) copied as it is; src/index.ts holds the
 * argument, data and result types and the ResearchTools class, written from the manifest; dist/ is
 * both compiled to JavaScript with declarations, so the package needs no build step. Every file is
 * formatted with the project's Prettier settings.
 */
import { readFileSync } from 'node:fs';
import prettier from '@prettier/sync';
import type { Options as PrettierOptions } from 'prettier';
import { Project, ts } from 'ts-morph';
import type { InputProperty, Manifest, SchemaNode, ToolDefinition } from '../manifest/types.ts';
import { CLIENT_VERSION, describeDefaultFrom, wrapText } from './client-text.ts';
import { GENERATED_NOTICE, argsTypeName, callOperationId, dataTypeName, extraTypeName, recordSchemaName, resultSchemaName, toolPath } from './names.ts';
import { describeCost } from './openapi.ts';
import { objectMembers, propertyKey, typeOf } from './typescript-types.ts';

const runtimeTemplate = new URL('../clients/typescript/runtime.ts', import.meta.url);
const prettierOptions = JSON.parse(readFileSync(new URL('../../.prettierrc.json', import.meta.url), 'utf8')) as PrettierOptions;

const banner = `// ${GENERATED_NOTICE}\n`;

/** A JSDoc block of paragraphs, each wrapped; one line when it is short. */
function jsDoc(paragraphs: string[], indent: string): string {
  const lines = paragraphs.flatMap((paragraph, index) => [...(index > 0 ? [''] : []), ...wrapText(paragraph.replace(/\*\//g, '* /'), 100)]);
  if (lines.length === 1 && lines[0]!.length <= 100) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`).join('\n')}\n${indent} */\n`;
}

const tsLiteral = (value: unknown): string => JSON.stringify(value).replace(/"/g, "'");

function argsInterface(tool: ToolDefinition): string {
  const required = new Set(tool.input.required ?? []);
  const members = Object.entries(tool.input.properties).map(([name, property]: [string, InputProperty]) => {
    const docs = [property.description ?? ''];
    if ('default' in property) docs.push(`@default ${tsLiteral(property.default)}`);
    if (property.default_from) docs.push(describeDefaultFrom(property.default_from, tsLiteral));
    return `${jsDoc(docs.filter(Boolean), '  ')}  ${propertyKey(name)}${required.has(name) ? '' : '?'}: ${typeOf(property, '  ')};\n`;
  });
  return `${jsDoc([`Arguments of ${tool.name}. Those left out take the server's default.`], '')}export interface ${argsTypeName(tool.name)} {\n${members.join('')}}`;
}

function objectInterface(name: string, doc: string, schema: SchemaNode): string {
  return `${jsDoc([doc], '')}export interface ${name} {\n${objectMembers(schema, '  ', new Set(schema.required ?? []))}}`;
}

const hasRequiredArguments = (tool: ToolDefinition): boolean => (tool.input.required ?? []).length > 0;
const isFigureTool = (tool: ToolDefinition): boolean => tool.figure_price_credits !== undefined;

function method(tool: ToolDefinition, finishedFigure: (result: string) => string): string {
  const name = callOperationId(tool.name);
  const args = argsTypeName(tool.name);
  const result = resultSchemaName(tool.name);
  const argsParameter = hasRequiredArguments(tool) ? `args: ${args}` : `args: ${args} = {}`;
  const doc = jsDoc([`${tool.title}. ${tool.description}`, `Cost: ${describeCost(tool)} \`POST ${toolPath(tool.name)}\``], '  ');
  if (tool.citation_export) {
    return (
      `${doc}  ${name}(args: ${args}, options: CitationOptions): Promise<string>;\n` +
      `  ${name}(${argsParameter.replace(' = {}', '?')}, options?: CallOptions): Promise<${result}>;\n` +
      `  ${name}(${argsParameter}, options?: CallOptions | CitationOptions): Promise<${result} | string> {\n` +
      `    return this.callTool(${tsLiteral(tool.name)}, args, options) as Promise<${result} | string>;\n  }`
    );
  }
  if (isFigureTool(tool)) {
    const finished = finishedFigure(result);
    return (
      `${doc}  ${name}(args: ${args}, options: FigureWaitOptions): Promise<${finished}>;\n` +
      `  ${name}(args: ${args}, options?: CallOptions): Promise<${result}>;\n` +
      `  ${name}(args: ${args}, options?: CallOptions | FigureWaitOptions): Promise<${result} | ${finished}> {\n` +
      `    return this.callFigureTool(${tsLiteral(tool.name)}, args, options) as Promise<${result} | ${finished}>;\n  }`
    );
  }
  return (
    `${doc}  ${name}(${argsParameter}, options?: CallOptions): Promise<${result}> {\n` +
    `    return this.callTool(${tsLiteral(tool.name)}, args, options) as Promise<${result}>;\n  }`
  );
}

function indexFile(manifest: Manifest): string {
  const tools = [...manifest.tools].sort((a, b) => a.name.localeCompare(b.name));
  const getFigure = tools.find((tool) => tool.name === 'get_figure');
  const finishedFigure = (result: string) => `FinishedFigure<${getFigure ? `${result} | ${resultSchemaName(getFigure.name)}` : result}>`;
  const parts: string[] = [
    banner,
    `/** The Research Tools API client: one method per tool of tools.yaml, over the runtime in runtime.ts. */`,
    `import { ResearchToolsClient, type CallOptions, type CitationOptions, type FigureWaitOptions, type FinishedFigure, type ToolRecord, type ToolResult } from './runtime.js';`,
    `export * from './runtime.js';`,
    `/** Every tool name. */\nexport type ToolName = ${tools.map((tool) => tsLiteral(tool.name)).join(' | ')};`,
  ];
  for (const tool of tools) {
    parts.push(argsInterface(tool));
    parts.push(objectInterface(dataTypeName(tool.name), `The \`data\` of one ${tool.name} record.`, tool.data));
    if (tool.extra) parts.push(objectInterface(extraTypeName(tool.name), `The \`extra\` of a ${tool.name} result.`, tool.extra));
    parts.push(`/** One record of ${tool.name}. */\nexport type ${recordSchemaName(tool.name)} = ToolRecord<${dataTypeName(tool.name)}>;`);
    const extra = tool.extra ? `, ${extraTypeName(tool.name)}` : '';
    parts.push(`/** The result of ${tool.name}. */\nexport type ${resultSchemaName(tool.name)} = ToolResult<${dataTypeName(tool.name)}${extra}>;`);
  }
  const table = (suffix: (tool: ToolDefinition) => string) => tools.map((tool) => `  ${tool.name}: ${suffix(tool)};`).join('\n');
  parts.push(`/** The arguments of each tool, by name. */\nexport interface ToolArguments {\n${table((tool) => argsTypeName(tool.name))}\n}`);
  parts.push(`/** The result of each tool, by name. */\nexport interface ToolResults {\n${table((tool) => resultSchemaName(tool.name))}\n}`);
  const methods = tools.map((tool) => method(tool, finishedFigure));
  parts.push(
    `/**
 * The client: \`new ResearchTools({ apiKey })\`, then one method per tool. The key comes from \`apiKey\` or
 * RESEARCH_TOOLS_API_KEY, the server from \`baseUrl\` or RESEARCH_TOOLS_BASE_URL. Each call sends an
 * Idempotency-Key that its retries reuse; failures throw ResearchToolsError; \`creditsRemaining\` holds the
 * balance after each call.
 */
export class ResearchTools extends ResearchToolsClient {
${methods.join('\n\n')}

  /** Calls any tool by name. */
  call<T extends ToolName>(tool: T, args: ToolArguments[T], options?: CallOptions): Promise<ToolResults[T]> {
    return this.callTool(tool, args, options) as Promise<ToolResults[T]>;
  }
}`,
  );
  return parts.join('\n\n');
}

const clientTsconfig = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    lib: ['ES2022', 'DOM'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    declaration: true,
    rootDir: 'src',
    outDir: 'dist',
  },
  include: ['src'],
};

/** The compiler of dist/, made once per process: the standard library's declarations are read once. */
let compiler: Project | undefined;

/** src/*.ts compiled as clientTsconfig says, in memory: the JavaScript and declarations of dist/. */
function compile(sources: Map<string, string>): Map<string, string> {
  compiler ??= new Project({
    useInMemoryFileSystem: true,
    compilerOptions: {
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      strict: true,
      noUncheckedIndexedAccess: true,
      declaration: true,
      skipLibCheck: true,
      rootDir: '/client/src',
      outDir: '/client/dist',
    },
  });
  compiler.getFileSystem().writeFileSync('/client/package.json', '{ "type": "module" }');
  for (const file of compiler.getSourceFiles('/client/src/**')) compiler.removeSourceFile(file);
  for (const [name, text] of sources) compiler.createSourceFile(`/client/src/${name}`, text);
  const problems = compiler.getPreEmitDiagnostics();
  if (problems.length > 0) {
    throw new Error(`codegen: the TypeScript client does not compile:\n${compiler.formatDiagnosticsWithColorAndContext(problems)}`);
  }
  const emitted = compiler.emitToMemory();
  return new Map(emitted.getFiles().map((file) => [file.filePath.replace('/client/dist/', ''), file.text]));
}

function readme(): string {
  return `<!-- ${GENERATED_NOTICE} -->

# research-tools-client

The TypeScript client of the Research Tools API, generated from the API's tool manifest: one typed method
per tool, retries of 429/503 and network failures with an automatic \`Idempotency-Key\`, errors as
\`ResearchToolsError\`, the balance after each call, figures waited for, citation export. \`fetch\` only, no
dependencies.

\`\`\`ts
import { ResearchTools } from 'research-tools-client';

const rt = new ResearchTools({ apiKey: process.env.RESEARCH_TOOLS_API_KEY, baseUrl: 'http://localhost:8080' });
const result = await rt.lookupIntegerSequence({ query: '1, 1, 2, 3, 5' });
console.log(result.summary, rt.creditsRemaining);
\`\`\`

Install it from the repository with \`npm install ./clients/typescript\`. The whole guide is
docs/clients.md in the repository.
`;
}

function packageJson(): string {
  return JSON.stringify({
    '//': GENERATED_NOTICE,
    name: 'research-tools-client',
    version: CLIENT_VERSION,
    description: 'Client for the Research Tools API: one typed method per tool, retries with idempotency keys, figures and citation export.',
    private: true,
    type: 'module',
    exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
    main: './dist/index.js',
    types: './dist/index.d.ts',
    files: ['dist', 'src'],
    sideEffects: false,
    engines: { node: '>=20.3' },
  });
}

function format(name: string, text: string): string {
  return prettier.format(text, { ...prettierOptions, filepath: name });
}

/** The files of clients/typescript/, by path under clients/. */
export function emitTypeScriptClient(manifest: Manifest): Map<string, string> {
  const sources = new Map([
    [
      'runtime.ts',
      format('runtime.ts', `${banner}// The hand-written part: codegen/clients/typescript/runtime.ts.\n\n${readFileSync(runtimeTemplate, 'utf8')}`),
    ],
    ['index.ts', format('index.ts', indexFile(manifest))],
  ]);
  const files = new Map<string, string>([
    ['package.json', format('package.json', packageJson())],
    ['tsconfig.json', format('tsconfig.json', JSON.stringify({ '//': GENERATED_NOTICE, ...clientTsconfig }))],
    ['README.md', format('README.md', readme())],
  ]);
  for (const [name, text] of sources) files.set(`src/${name}`, text);
  for (const [name, text] of compile(sources)) files.set(`dist/${name}`, format(name, text.startsWith(banner) ? text : `${banner}${text}`));
  return new Map([...files].map(([name, text]) => [`typescript/${name}`, text]));
}

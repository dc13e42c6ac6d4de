import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { Project, ts } from 'ts-morph';
import { parse, parseDocument } from 'yaml';
import { runCodegen } from '../../codegen/cli.ts';
import { clientCallerOptions } from '../clients/compiler-options.ts';
import { describeWithPython, runPython } from '../clients/python.ts';

/** The example tool of CONTRIBUTING.md's "Adding a tool", exactly as written there. */
function contributingExample(): unknown {
  const text = readFileSync('CONTRIBUTING.md', 'utf8');
  const block = /<!-- contributing:tool-example:start -->\n```yaml\n([\s\S]*?)```\n<!-- contributing:tool-example:end -->/.exec(text);
  if (!block) throw new Error('CONTRIBUTING.md has no tool example between its markers');
  const [tool] = parse(block[1]!) as unknown[];
  return tool;
}
const newTool = contributingExample();

function quietly<T>(run: () => T): T {
  const log = console.log;
  const error = console.error;
  console.log = () => {};
  console.error = () => {};
  try {
    return run();
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('a maintainer adds the tool of CONTRIBUTING.md to tools.yaml and runs codegen', () => {
  let folder: string;
  before(function () {
    // codegen compiles the TypeScript client: seconds of CPU, more on a busy machine
    this.timeout(120_000);
    folder = mkdtempSync(join(tmpdir(), 'codegen-maintainer-'));
    const document = parseDocument(readFileSync('tools.yaml', 'utf8'));
    document.addIn(['tools'], newTool);
    writeFileSync(join(folder, 'tools.yaml'), document.toString());
    expect(
      quietly(() => runCodegen(['--manifest', join(folder, 'tools.yaml'), '--out', join(folder, 'generated'), '--clients', join(folder, 'clients')])),
    ).to.equal(0);
  });
  after(() => rmSync(folder, { recursive: true, force: true }));

  it('gets an OpenAPI path with POST and GET for the new tool, with its arguments and default', () => {
    const openapi = JSON.parse(readFileSync(join(folder, 'generated/openapi.json'), 'utf8'));
    expect(Object.keys(openapi.paths['/api/v1/lookup_star_catalogue'])).to.deep.equal(['get', 'post']);
    expect(openapi.paths['/api/v1/lookup_star_catalogue'].post.operationId).to.equal('lookupStarCatalogue');
    expect(openapi.components.schemas.LookupStarCatalogueArgs).to.deep.equal({
      description: 'Arguments of lookup_star_catalogue.',
      type: 'object',
      additionalProperties: false,
      properties: {
        number: { type: 'integer', description: 'Catalogue number.', minimum: 1 },
        limit: { type: 'integer', description: 'Entries to return.', minimum: 1, maximum: 100, default: 10 },
      },
      required: ['number'],
    });
  });

  it('gets a typed route: a handler table without the new tool, or with a mistyped one, does not compile', () => {
    const routes = readFileSync(join(folder, 'generated/routes.ts'), 'utf8');
    expect(routes).to.contain('lookup_star_catalogue: ToolHandler<LookupStarCatalogueArgs, LookupStarCatalogueData, Context>;');
    const project = new Project({
      compilerOptions: {
        strict: true,
        noEmit: true,
        allowImportingTsExtensions: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        types: [],
        skipLibCheck: true,
      },
    });
    mkdirSync(join(folder, 'use'), { recursive: true });
    writeFileSync(join(folder, 'package.json'), '{"type":"module"}');
    copyFileSync(join(folder, 'package.json'), join(folder, 'use/package.json'));
    const source = `import type { ToolHandlers } from '../generated/routes.ts';
import type { LookupStarCatalogueArgs } from '../generated/types.ts';
declare const others: Omit<ToolHandlers<null>, 'lookup_star_catalogue'>;
export const missing: ToolHandlers<null> = others;
export const wrong: ToolHandlers<null> = { ...others, lookup_star_catalogue: async (args: { number: string }) => ({ summary: args.number, records: [] }) };
export const right: ToolHandlers<null> = { ...others, lookup_star_catalogue: async (args: LookupStarCatalogueArgs) => ({ summary: String(args.number + args.limit), records: [] }) };
`;
    const file = project.createSourceFile(join(folder, 'use/handlers.ts'), source);
    project.addSourceFilesAtPaths(join(folder, 'generated/*.ts'));
    const messages = project.getPreEmitDiagnostics().map((diagnostic) => ({
      line: diagnostic.getLineNumber(),
      file: diagnostic.getSourceFile()?.getBaseName(),
      text: ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, '\n'),
    }));
    expect(messages.map((message) => `${message.file}:${message.line}`)).to.deep.equal(['handlers.ts:4', 'handlers.ts:5']);
    expect(messages[0]!.text).to.contain("Property 'lookup_star_catalogue' is missing");
    expect(messages[1]!.text).to.contain("Type 'number' is not assignable to type 'string'");
    expect(file.getBaseName()).to.equal('handlers.ts');
  });

  it('gets a typed method in the TypeScript client: a call with a wrong argument type does not compile', () => {
    const client = readFileSync(join(folder, 'clients/typescript/src/index.ts'), 'utf8');
    expect(client).to.contain('lookupStarCatalogue(args: LookupStarCatalogueArgs, options?: CallOptions): Promise<LookupStarCatalogueResult> {');
    const project = new Project({
      compilerOptions: clientCallerOptions,
    });
    mkdirSync(join(folder, 'use'), { recursive: true });
    writeFileSync(join(folder, 'use/package.json'), '{"type":"module"}');
    project.createSourceFile(
      join(folder, 'use/client.ts'),
      `import { ResearchTools } from '../clients/typescript/dist/index.js';
declare const rt: ResearchTools;
export const magnitude: Promise<number> = rt.lookupStarCatalogue({ number: 5, limit: 3 }).then((result) => result.records[0]!.data.magnitude);
export const wrong = rt.lookupStarCatalogue({ number: '5' });
`,
    );
    const messages = project.getPreEmitDiagnostics().map((diagnostic) => ({
      line: diagnostic.getLineNumber(),
      text: ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, '\n'),
    }));
    expect(messages).to.deep.equal([{ line: 4, text: "Type 'string' is not assignable to type 'number'." }]);
  });

  it('gets a method with its arguments in the Python client', () => {
    const client = readFileSync(join(folder, 'clients/python/research_tools/tools.py'), 'utf8');
    expect(client).to.contain(
      [
        '    def lookup_star_catalogue(',
        '        self,',
        '        number: int,',
        '        *,',
        '        limit: Optional[int] = None,',
        '        idempotency_key: Optional[str] = None,',
        '    ) -> LookupStarCatalogueResult:',
      ].join('\n'),
    );
    expect(client).to.contain('            limit: Entries to return. Default: 10.\n');
  });

  describeWithPython('with python3', () => {
    it('the Python client imports with the new method', async () => {
      const out = await runPython(
        `
        import inspect
        report(signature=str(inspect.signature(Client.lookup_star_catalogue)), data=sorted(LookupStarCatalogueData.__required_keys__))
        `,
        {},
        join(folder, 'clients/python'),
      );
      expect(out).to.deep.equal({
        signature: "(self, number: 'int', *, limit: 'Optional[int]' = None, idempotency_key: 'Optional[str]' = None) -> 'LookupStarCatalogueResult'",
        data: ['magnitude'],
      });
    });
  });
});

import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Project, ts } from 'ts-morph';
import { clientCallerOptions } from './compiler-options.ts';

/**
 * Uses of the generated TypeScript client as a caller writes them: right ones, and wrong ones each
 * marked `@ts-expect-error` with the error TypeScript must give.
 */
const uses = `import { ResearchTools, type ToolResults } from '../../clients/typescript/dist/index.js';

declare const rt: ResearchTools;

export async function uses(): Promise<void> {
  const found = await rt.lookupIntegerSequence({ query: '1, 1, 2, 3, 5' }, { idempotencyKey: 'my-key' });
  const aNumber: string = found.records[0]!.data.a_number;
  const terms: string[] = found.records[0]!.data.terms;
  const bibtex: string = await rt.searchPapers({ query: 'ecology' }, { citationFormat: 'bibtex' });
  const figure = await rt.createFigure({ description: 'A activates B', style: 'cell' }, { wait: true });
  const png: Uint8Array = figure.png;
  const pending = await rt.createFigure({ description: 'A activates B' });
  const status: 'pending' | 'finished' | 'failed' | undefined = pending.extra?.status;
  const any: ToolResults['get_paper'] = await rt.call('get_paper', { id: '10.1000/x' });
  // @ts-expect-error (a number for a string) Type 'number' is not assignable to type 'string'.
  await rt.lookupIntegerSequence({ query: 5 });
  // @ts-expect-error (a string for an integer) Type 'string' is not assignable to type 'number'.
  await rt.lookupIntegerSequence({ query: '1, 2', limit: '5' });
  // @ts-expect-error (an argument the tool does not have) Object literal may only specify known properties, and 'colour' does not exist in type 'LookupIntegerSequenceArgs'.
  await rt.lookupIntegerSequence({ query: '1, 2', colour: 'red' });
  // @ts-expect-error (a required argument left out) Property 'query' is missing in type '{}' but required in type 'LookupIntegerSequenceArgs'.
  await rt.lookupIntegerSequence({});
  // @ts-expect-error (a value outside the enum) Type '"pie_chart"' is not assignable to type '"mechanism" | "workflow" | "graphical_abstract" | "schematic" | "poster_panel" | undefined'.
  await rt.createFigure({ description: 'A activates B', kind: 'pie_chart' });
  // @ts-expect-error (a record field read as the wrong type) Type 'string' is not assignable to type 'number'.
  const wrong: number = found.records[0]!.data.a_number;
  // @ts-expect-error (citations from a tool without them) Object literal may only specify known properties, and 'citationFormat' does not exist in type 'CallOptions'.
  await rt.lookupIntegerSequence({ query: '1, 2' }, { citationFormat: 'bibtex' });
  // @ts-expect-error (another tool's arguments through call) Object literal may only specify known properties, and 'query' does not exist in type 'GetPaperArgs'.
  await rt.call('get_paper', { query: 'x' });
  void [aNumber, terms, bibtex, png, status, any, wrong];
}
`;

const expectation = /\/\/ @ts-expect-error \((.+?)\) (.+)$/;

function diagnostics(text: string): Array<{ line: number; message: string }> {
  const project = new Project({
    skipAddingFilesFromTsConfig: true,
    compilerOptions: clientCallerOptions,
  });
  // Beside this test, so that the client's path resolves as a caller's would (the file is never written).
  project.createSourceFile(fileURLToPath(new URL('./uses-of-the-client.ts', import.meta.url)), text);
  return project.getPreEmitDiagnostics().map((diagnostic) => ({
    line: diagnostic.getLineNumber() ?? 0,
    message: ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, '\n').split('\n').at(-1)!.trim(),
  }));
}

describe('the TypeScript client’s types', () => {
  it('accept the right uses, and every wrong use marked @ts-expect-error is a compile error', () => {
    expect(diagnostics(uses)).to.deep.equal([]);
  });

  it('give exactly the expected error on each wrong use once its @ts-expect-error is taken away', () => {
    const lines = uses.split('\n');
    const expected: Array<{ line: number; message: string }> = [];
    const bare = lines.filter((line) => {
      const marked = expectation.exec(line);
      if (marked) expected.push({ line: 0, message: marked[2]! });
      return !marked;
    });
    // Each expected error is on the line that followed its marker, now one line further up per marker above it.
    let markers = 0;
    lines.forEach((line, index) => {
      if (expectation.test(line)) {
        expected[markers]!.line = index + 1 - markers;
        markers += 1;
      }
    });
    expect(expected).to.have.length(8);
    expect(diagnostics(bare.join('\n'))).to.deep.equal(expected);
  });
});

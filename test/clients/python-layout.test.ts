import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { emitPythonClient } from '../../codegen/emit/client-python.ts';
import { loadManifest } from '../../codegen/manifest/load.ts';
import { describeWithPython, runPython } from './python.ts';

/** The Python files codegen writes for the project's manifest and for the clients' fixture (keywords and hyphens as field names). */
function pythonFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const [label, manifest] of [
    ['tools.yaml', 'tools.yaml'],
    ['fixture', 'test/codegen/fixtures/clients/tools.yaml'],
  ]) {
    for (const [name, text] of emitPythonClient(loadManifest(manifest!))) if (name.endsWith('.py')) files.set(`${label}: ${name}`, text);
  }
  return files;
}

/** PEP 8's limits a tool such as pycodestyle checks: each broken rule as `file:line rule`. */
function layoutProblems(name: string, text: string): string[] {
  const problems: string[] = [];
  let inDocstring = false;
  text.split('\n').forEach((line, index) => {
    const where = `${name}:${index + 1}`;
    const quotes = line.split('"""').length - 1;
    const text = inDocstring || quotes > 0 || /^\s*#/.test(line);
    if (line.length > 79) problems.push(`${where} longer than 79 characters`);
    if (text && line.length > 72) problems.push(`${where} docstring or comment longer than 72 characters`);
    if (/\s$/.test(line)) problems.push(`${where} trailing whitespace`);
    if (/\t/.test(line)) problems.push(`${where} tab`);
    if (quotes % 2 === 1) inDocstring = !inDocstring;
  });
  if (!text.endsWith('\n') || text.endsWith('\n\n')) problems.push(`${name} does not end with exactly one line break`);
  // Two blank lines before every top-level class and function (or the decorator above it).
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (!/^(class |def |@)/.test(line) || lines[index - 1]?.startsWith('@')) return;
    if (lines[index - 1] !== '' || lines[index - 2] !== '' || lines[index - 3] === '') problems.push(`${name}:${index + 1} not after exactly two blank lines`);
  });
  return problems;
}

describe('the generated Python client’s layout', () => {
  it('keeps to PEP 8: lines of at most 79 characters, docstrings and comments of at most 72, no trailing whitespace, two blank lines between top-level definitions', () => {
    const files = pythonFiles();
    expect([...files.keys()]).to.have.length(6);
    expect([...files].flatMap(([name, text]) => layoutProblems(name, text))).to.deep.equal([]);
  });

  describeWithPython('with python3', () => {
    it('parses as Python 3.9 (the oldest version the package supports)', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'python-client-'));
      try {
        [...pythonFiles().values()].forEach((text, index) => writeFileSync(join(folder, `${index}.py`), text));
        const out = await runPython(
          `
          import ast, os
          problems = []
          for name in sorted(os.listdir(os.environ["SOURCES"])):
              with open(os.path.join(os.environ["SOURCES"], name), encoding="utf-8") as file:
                  try:
                      ast.parse(file.read(), filename=name, feature_version=(3, 9))
                  except SyntaxError as error:
                      problems.append(f"{name}:{error.lineno}: {error.msg}")
          report(problems=problems, files=len(os.listdir(os.environ["SOURCES"])))
          `,
          { SOURCES: folder },
        );
        expect(out).to.deep.equal({ problems: [], files: 6 });
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });
  });
});

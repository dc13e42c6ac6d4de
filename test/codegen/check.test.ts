import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { runCodegen } from '../../codegen/cli.ts';

function run(argv: string[]): { code: number; out: string; err: string } {
  const out: string[] = [];
  const err: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (text: string) => out.push(text);
  console.error = (text: string) => err.push(text);
  try {
    return { code: runCodegen(argv), out: out.join('\n'), err: err.join('\n') };
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe('npm run codegen -- --check', function () {
  // each run compiles the TypeScript client: seconds of CPU, more on a busy machine
  this.timeout(120_000);

  it('passes when generated/ matches tools.yaml', () => {
    expect(run(['--check'])).to.deep.equal({ code: 0, out: 'codegen --check: 21 generated files are up to date.', err: '' });
  });

  it('fails and names every stale file when a default in tools.yaml is edited', () => {
    const folder = mkdtempSync(join(tmpdir(), 'codegen-check-'));
    try {
      const manifest = readFileSync('tools.yaml', 'utf8');
      const edited = manifest.replace(/(- name: search_papers[\s\S]*?limit:[\s\S]*?default: )10/, '$112');
      expect(edited).to.not.equal(manifest);
      writeFileSync(join(folder, 'tools.yaml'), edited);
      const result = run(['--check', '--manifest', join(folder, 'tools.yaml')]);
      expect(result.code).to.equal(1);
      const stale = result.err
        .split('\n')
        .filter((line) => line.startsWith('  '))
        .map((line) => line.trim().replace(process.cwd(), '.'));
      // The clients are stale too: the default is in their documentation of the argument.
      expect(stale).to.deep.equal([
        './clients/python/research_tools/tools.py (differs)',
        './clients/typescript/dist/index.d.ts (differs)',
        './clients/typescript/src/index.ts (differs)',
        './generated/mcp-tools.json (differs)',
        './generated/openapi.json (differs)',
        './generated/tools.ts (differs)',
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('fails when a generated file is missing or an extra one is present', () => {
    const folder = mkdtempSync(join(tmpdir(), 'codegen-check-'));
    try {
      writeFileSync(join(folder, 'stray.ts'), '');
      const result = run(['--check', '--out', folder]);
      expect(result.code).to.equal(1);
      expect(result.err).to.contain(`${join(folder, 'openapi.json')} (missing)`);
      expect(result.err).to.contain(`${join(folder, 'stray.ts')} (not generated from the manifest)`);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('fails when a client file was edited by hand or a stray file sits among them, and ignores what building a client leaves', () => {
    const folder = mkdtempSync(join(tmpdir(), 'codegen-check-clients-'));
    try {
      cpSync('clients', folder, { recursive: true });
      appendFileSync(join(folder, 'python/research_tools/tools.py'), '# a hand edit\n');
      writeFileSync(join(folder, 'typescript/src/extra.ts'), 'export {};\n');
      for (const leftover of ['python/research_tools/__pycache__/tools.cpython-311.pyc', 'python/build/lib/x.py', 'typescript/node_modules/x/index.js']) {
        mkdirSync(join(folder, leftover, '..'), { recursive: true });
        writeFileSync(join(folder, leftover), '');
      }
      const result = run(['--check', '--clients', folder]);
      expect(result.code).to.equal(1);
      expect(result.err.split('\n').filter((line) => line.startsWith('  '))).to.deep.equal([
        `  ${join(folder, 'python/research_tools/tools.py')} (differs)`,
        `  ${join(folder, 'typescript/src/extra.ts')} (not generated from the manifest)`,
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

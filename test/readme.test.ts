import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { DOCUMENT_TABLES, withCurrentTables } from '../scripts/readme-tables.ts';

describe('README and docs/', () => {
  for (const file of Object.keys(DOCUMENT_TABLES)) {
    it(`${file} has its current tables (written from the code by npm run docs:tables)`, () => {
      const text = readFileSync(file, 'utf8');
      expect(withCurrentTables(text, file) === text, `${file}: tables are stale: run \`npm run docs:tables\``).to.equal(true);
    });
  }

  it('the README stays short (at most 15 KB); the rest lives in docs/ and CONTRIBUTING.md', () => {
    expect(statSync('README.md').size).to.be.at.most(15 * 1024);
  });

  it('every relative link of README.md, CONTRIBUTING.md and docs/ points at a file that exists', () => {
    const files = [
      'README.md',
      'CONTRIBUTING.md',
      ...Object.keys(DOCUMENT_TABLES),
      'docs/operations.md',
      'docs/benchmarks.md',
      'docs/clients.md',
      ...readdirSync('docs/tools').map((name) => `docs/tools/${name}`),
    ];
    const broken: string[] = [];
    for (const file of files) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(/\]\(([^)\s#]+)(?:#[^)\s]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(join(dirname(file), target!))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).to.deep.equal([]);
  });
});

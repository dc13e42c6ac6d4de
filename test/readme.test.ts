import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { withCurrentTables } from '../scripts/readme-tables.ts';

describe('README', () => {
  it('has the current tool table (with each tool\'s availability) and configuration table', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(withCurrentTables(readme) === readme, 'README tables are stale: run `npm run docs:tables`').to.equal(true);
  });
});

import { fileURLToPath } from 'node:url';
import { createConfig, lint } from '@redocly/openapi-core';
import { expect } from 'chai';

describe('generated/openapi.json under the Redocly linter (recommended rules)', () => {
  it('has zero errors', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lint({ ref: fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)), config });
    const errors = problems.filter((problem) => problem.severity === 'error');
    const warnings = problems.filter((problem) => problem.severity === 'warn');
    if (warnings.length > 0) console.log(`      (${warnings.length} linter warnings: ${[...new Set(warnings.map((w) => w.ruleId))].join(', ')})`);
    expect(errors.map((error) => `${error.ruleId}: ${error.message} at ${error.location[0]?.pointer}`)).to.deep.equal([]);
  });
});

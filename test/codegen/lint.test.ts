import { fileURLToPath } from 'node:url';
import { createConfig, lint } from '@redocly/openapi-core';
import { expect } from 'chai';

describe('generated/openapi.json under the Redocly linter (recommended rules)', () => {
  it('has zero errors and zero warnings', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lint({ ref: fileURLToPath(new URL('../../generated/openapi.json', import.meta.url)), config });
    expect(problems.map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`)).to.deep.equal([]);
  });
});

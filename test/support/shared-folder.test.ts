import { expect } from 'chai';
import { skipOrFailWithoutShared } from './shared-folder.ts';

describe('suites that need the shared folder', () => {
  const ci = process.env.CI;
  afterEach(() => {
    if (ci === undefined) delete process.env.CI;
    else process.env.CI = ci;
  });

  it('fail in CI when it is missing, naming what is missing', () => {
    process.env.CI = 'true';
    let skipped = false;
    const context = { skip: () => (skipped = true) } as unknown as Mocha.Context;
    expect(() => skipOrFailWithoutShared(context, 'the shared upstream recordings for gaia')).to.throw(
      'the shared upstream recordings for gaia is missing, and CI expects it: the shared folder must sit beside the project (../shared)',
    );
    expect(skipped).to.equal(false);
  });

  it('skip elsewhere', () => {
    delete process.env.CI;
    let skipped = false;
    const context = { skip: () => (skipped = true) } as unknown as Mocha.Context;
    skipOrFailWithoutShared(context, 'the shared upstream recordings for gaia');
    expect(skipped).to.equal(true);
  });
});

import { expect } from 'chai';
import { loadCases, runCase, type Outcome } from './conformance.ts';

/**
 * The cases where we deliberately judge differently from oasdiff (the README explains each one).
 */
const DELIBERATE: Record<string, string> = {
  'endpoint-security-added': 'a public operation that starts to require credentials is breaking for us (api-security-added-to-public-endpoint)',
  'global-security-added': 'a top-level requirement added to operations that had none makes them non-public: breaking for us',
  'list-of-types-widened-with-enum-removed': 'dropping an enum entirely lets every value through, so we report no enum-value-removed',
};

describe('openapi:diff against the oasdiff conformance cases', function () {
  const outcomes: Outcome[] = loadCases().map(runCase);

  it('agrees on the breaking verdict of at least 95% of the cases, and prints the agreement', () => {
    const agree = outcomes.filter((o) => o.verdictAgrees).length;
    const expected = outcomes.reduce((total, o) => total + o.familiesExpected, 0);
    const found = outcomes.reduce((total, o) => total + o.familiesFound, 0);
    const exact = outcomes.reduce((total, o) => total + o.exactIds, 0);
    const percent = (n: number, of: number) => `${((100 * n) / of).toFixed(1)}%`;
    console.log(
      `      oasdiff conformance: verdict agrees on ${agree}/${outcomes.length} cases (${percent(agree, outcomes.length)}); ` +
        `expected rule family found for ${found}/${expected} findings (${percent(found, expected)}), exact rule id for ${exact}/${expected} (${percent(exact, expected)})`,
    );
    for (const o of outcomes.filter((x) => !x.verdictAgrees)) {
      console.log(
        `      disagrees: ${o.id} (oasdiff ${o.expectedBreaking ? 'breaking' : 'not breaking'}, ours ${o.ourBreaking ? 'breaking' : 'not breaking'}): ${DELIBERATE[o.id] ?? 'not deliberate'}`,
      );
    }
    expect(agree / outcomes.length).to.be.at.least(0.95);
  });

  it('disagrees on the verdict only where the policy deliberately differs', () => {
    expect(
      outcomes
        .filter((o) => !o.verdictAgrees)
        .map((o) => o.id)
        .sort(),
    ).to.deep.equal(Object.keys(DELIBERATE).sort());
  });
});

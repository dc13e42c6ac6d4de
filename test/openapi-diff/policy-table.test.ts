import { expect } from 'chai';
import { diffSpecs } from '../../codegen/openapi-diff/diff.ts';
import { specFromObject } from '../../codegen/openapi-diff/load.ts';
import { RULES } from '../../codegen/openapi-diff/rules.ts';
import { pairs, place, schemaPairs, type Expected, type Location } from './pairs.ts';

const now = new Date('2026-06-01T00:00:00Z');

function findings(base: Record<string, unknown>, revision: Record<string, unknown>): Expected[] {
  return diffSpecs(specFromObject(base, 'base'), specFromObject(revision, 'revision'), { now }).map((change): Expected => [change.id, change.level]);
}

const sort = (list: Expected[]) => [...list].sort((a, b) => a.join(' ').localeCompare(b.join(' ')));

describe('openapi:diff policy table, pair by pair', () => {
  const covered = new Set<string>([
    ...pairs.flatMap((pair) => pair.expect.map(([id]) => id)),
    ...schemaPairs.flatMap((pair) => (Object.values(pair.expect).flat() as Expected[]).map(([id]) => id)),
  ]);

  describe('schema edits, placed in request bodies, request properties, parameters and responses', () => {
    for (const pair of schemaPairs) {
      it(pair.title, () => {
        for (const [location, expected] of Object.entries(pair.expect) as [Location, Expected[]][]) {
          const got = findings(place[location](pair.base), place[location](pair.revision));
          expect(sort(got), `at ${location}`).to.deep.equal(sort(expected));
        }
      });
    }
  });

  describe('operations, parameters, bodies, responses, headers, properties and security', () => {
    for (const pair of pairs) {
      it(pair.title, () => {
        expect(sort(findings(pair.base, pair.revision))).to.deep.equal(sort(pair.expect));
      });
    }
  });

  it('has at least 60 pairs and every rule id of the policy table is expected by one of them', () => {
    const placed = schemaPairs.reduce((total, pair) => total + Object.keys(pair.expect).length, 0);
    expect(schemaPairs.length + pairs.length).to.be.at.least(60);
    expect(placed + pairs.length).to.be.at.least(RULES.length);
    const missing = RULES.map((rule) => rule.id).filter((id) => !covered.has(id));
    expect(missing).to.deep.equal([]);
  });

  it('states the level of every expected id exactly as the policy table does', () => {
    const levels = new Map(RULES.map((rule) => [rule.id, rule.level]));
    const all: Expected[] = [...pairs.flatMap((pair) => pair.expect), ...schemaPairs.flatMap((pair) => Object.values(pair.expect).flat() as Expected[])];
    const wrong = all.filter(([id, level]) => levels.get(id) !== level);
    expect(wrong).to.deep.equal([]);
  });
});

/**
 * Runs the oasdiff conformance cases (test/conformance/openapi-diff/, whose README says where they come from)
 * and scores them: the breaking verdict, and whether each expected finding's rule family was found.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { diffSpecs, type Change } from '../../codegen/openapi-diff/diff.ts';
import { loadSpec } from '../../codegen/openapi-diff/load.ts';
import { levelRank, type Level } from '../../codegen/openapi-diff/rules.ts';

export const conformanceFolder = fileURLToPath(new URL('../conformance/openapi-diff/', import.meta.url));

export interface Case {
  id: string;
  base: string;
  revision: string;
  expect: { rule: string; level: Level; operation?: string }[];
  breaking: boolean;
  checks: 'all' | 'single';
  minLevel: Level;
  exhaustive: boolean;
}

export interface Outcome {
  id: string;
  expectedBreaking: boolean;
  ourBreaking: boolean;
  verdictAgrees: boolean;
  /** Expected findings whose rule family we reported (at any level). */
  familiesFound: number;
  familiesExpected: number;
  exactIds: number;
  changes: Change[];
}

/**
 * The family of a rule: the id without its location (request-body, -property, -parameter, ...)
 * and with the variants of one check folded together.
 */
export function family(id: string): string {
  return id
    .replace(/^(request|response)-(body|property|parameter-property|parameter|header-property|header|mediatype)-/, '')
    .replace(/^(request|response)-(required|optional)-(write-only-)?/, '')
    .replace(/^(new-(required|optional)-request-)(.*)$/, 'new-$3')
    .replace(/-with-default$/, '')
    .replace(/^api-(global-)?security-(added|removed|scope-added|scope-removed)(-to-public-endpoint)?$/, 'security-$2')
    .replace(/^type-(changed|generalized|specialized|compatible)$/, 'type')
    .replace(/^list-of-types-(widened|narrowed)$/, 'type');
}

export function loadCases(): Case[] {
  return JSON.parse(readFileSync(`${conformanceFolder}cases.json`, 'utf8')) as Case[];
}

/** A date fixed for the sunset rules (the cases use 9999-08-10 for future and 2022 for past dates). */
const NOW = new Date('2026-01-01T00:00:00Z');

export function runCase(c: Case): Outcome {
  const base = loadSpec(c.base, conformanceFolder);
  const revision = loadSpec(c.revision, conformanceFolder);
  const changes = diffSpecs(base, revision, { now: NOW });
  const families = new Set(c.expect.map((item) => family(item.rule)));
  const considered = changes.filter(
    (change) => levelRank(change.level) >= levelRank(c.minLevel) && (c.checks === 'all' || families.size === 0 || families.has(family(change.id))),
  );
  const ourBreaking = considered.some((change) => change.level === 'ERR');
  const found = c.expect.filter((item) => changes.some((change) => family(change.id) === family(item.rule))).length;
  const exact = c.expect.filter((item) => changes.some((change) => change.id === item.rule)).length;
  return {
    id: c.id,
    expectedBreaking: c.breaking,
    ourBreaking,
    verdictAgrees: ourBreaking === c.breaking,
    familiesFound: found,
    familiesExpected: c.expect.length,
    exactIds: exact,
    changes,
  };
}

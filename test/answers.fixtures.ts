/**
 * Loaded by .mocharc.json: the run's folder of collected tool answers (test/support/answers.ts),
 * made before the run and handed to every test process through TEST_ANSWERS_DIR; each process saves
 * what it saw after each test file; after the whole run, when test/tools/data-fields.test.ts asked
 * for it, the check of declared data fields runs over all of it (a failure fails the run).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFilledPaths, saveFilledPaths } from './support/answers.ts';
import { CHECK_REQUESTED, dataFieldsProblem } from './support/data-fields.ts';

export function mochaGlobalSetup(): void {
  process.env.TEST_ANSWERS_DIR = mkdtempSync(path.join(os.tmpdir(), 'research-tools-answers-'));
}

export const mochaHooks = {
  afterAll(): void {
    if (process.env.TEST_ANSWERS_DIR) saveFilledPaths(process.env.TEST_ANSWERS_DIR);
  },
};

export function mochaGlobalTeardown(): void {
  const folder = process.env.TEST_ANSWERS_DIR;
  if (!folder) return;
  try {
    if (!existsSync(path.join(folder, CHECK_REQUESTED))) return;
    const problem = dataFieldsProblem(loadFilledPaths(folder));
    if (problem) throw new Error(`every field declared in an available tool's data schema is filled by at least one test answer: NO\n${problem}`);
    console.log("every field declared in an available tool's data schema was filled by at least one test answer");
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/**
 * Loaded by .mocharc.json: the run's folder of what the tests collected (the tool answers of
 * test/support/answers.ts, the recordings read of test/support/recordings-read.ts), made before the
 * run and handed to every test process through TEST_ANSWERS_DIR; each process saves what it saw
 * after each test file; after the whole run, the checks asked for (by test/tools/data-fields.test.ts:
 * the declared data fields; by test/connectors/recording-status.test.ts: the recordings read) run
 * over all of it (a failure fails the run).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadFilledPaths, saveFilledPaths } from './support/answers.ts';
import { CHECK_REQUESTED, dataFieldsProblem } from './support/data-fields.ts';
import { recordingsCheckRequested, recordingsReadProblem, saveRecordingsRead } from './support/recordings-read.ts';

export function mochaGlobalSetup(): void {
  process.env.TEST_ANSWERS_DIR = mkdtempSync(path.join(os.tmpdir(), 'research-tools-answers-'));
}

export const mochaHooks = {
  afterAll(): void {
    if (!process.env.TEST_ANSWERS_DIR) return;
    saveFilledPaths(process.env.TEST_ANSWERS_DIR);
    saveRecordingsRead(process.env.TEST_ANSWERS_DIR);
  },
};

export function mochaGlobalTeardown(): void {
  const folder = process.env.TEST_ANSWERS_DIR;
  if (!folder) return;
  try {
    const problems: string[] = [];
    if (existsSync(path.join(folder, CHECK_REQUESTED))) {
      const problem = dataFieldsProblem(loadFilledPaths(folder));
      if (problem) problems.push(`every field declared in an available tool's data schema is filled by at least one test answer: NO\n${problem}`);
      else console.log("every field declared in an available tool's data schema was filled by at least one test answer");
    }
    if (recordingsCheckRequested(folder)) {
      const problem = recordingsReadProblem(folder);
      if (problem) problems.push(problem);
      else console.log('every recording marked tested was read by a test of the run');
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

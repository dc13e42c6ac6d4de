/**
 * The check that every real recording the status table of test/connectors/recording-status.test.ts
 * marks as tested is read by a test of the run: each test process notes the recordings it read
 * through recording() (test/connectors/recordings.ts) and saves them into the run's folder
 * (TEST_ANSWERS_DIR) after each test file; recording-status.test.ts writes the list the table
 * expects; after the whole run, test/answers.fixtures.ts compares the two (a failure fails the run).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { recordingsRead } from '../connectors/recordings.ts';

/** Written by recording-status.test.ts into the run's folder: the recordings (`source/file`) a test must read. */
export const RECORDINGS_CHECK_REQUESTED = 'recordings-check-requested.json';

export function requestRecordingsCheck(folder: string, expected: string[]): void {
  writeFileSync(path.join(folder, RECORDINGS_CHECK_REQUESTED), JSON.stringify(expected));
}

/** Writes what this process read so far into `folder` (one file per process, replaced each time). */
export function saveRecordingsRead(folder: string): void {
  writeFileSync(path.join(folder, `recordings-read-${process.pid}.json`), JSON.stringify([...recordingsRead]));
}

/** The recordings `expected` names that no test read, or undefined when every one was read. */
export function unreadRecordings(expected: readonly string[], read: ReadonlySet<string>): string[] | undefined {
  const unread = expected.filter((recording) => !read.has(recording));
  return unread.length > 0 ? unread : undefined;
}

export function recordingsCheckRequested(folder: string): boolean {
  return existsSync(path.join(folder, RECORDINGS_CHECK_REQUESTED));
}

/** Undefined when every recording the check expects was read in some process of the run; otherwise what is wrong. */
export function recordingsReadProblem(folder: string): string | undefined {
  const requested = path.join(folder, RECORDINGS_CHECK_REQUESTED);
  const read = new Set<string>();
  for (const file of readdirSync(folder).filter((name) => /^recordings-read-\d+\.json$/.test(name))) {
    for (const recording of JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as string[]) read.add(recording);
  }
  const unread = unreadRecordings(JSON.parse(readFileSync(requested, 'utf8')) as string[], read);
  if (!unread) return undefined;
  const shown = unread.slice(0, 20).join(', ') + (unread.length > 20 ? `, and ${unread.length - 20} more` : '');
  return `${unread.length} recordings marked tested in test/connectors/recording-status.test.ts were read by no test of this run (run the whole suite): ${shown}`;
}

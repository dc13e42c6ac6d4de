/**
 * Real upstream answers (test/recordings/<source>/, each folder's README says where every file came
 * from and which request produced it) and the project's own hand-made fixtures (test/fixtures/<source>/).
 */
import { readFileSync } from 'node:fs';

const recorded = (source: string) => new URL(`../recordings/${source}/`, import.meta.url);
const own = (source: string) => new URL(`../fixtures/${source}/`, import.meta.url);

/** The folder of the real recordings of `source`. */
export function recordingsFolder(source: string): URL {
  return recorded(source);
}

/** `source/file` of every recording this test process has read, for the check that each recording marked tested is read by a test (test/support/recordings-read.ts). */
export const recordingsRead = new Set<string>();

export function recording(source: string, file: string): string {
  const text = readFileSync(new URL(file, recorded(source)), 'utf8');
  recordingsRead.add(`${source}/${file}`);
  return text;
}

export function fixture(source: string, file: string): string {
  return readFileSync(new URL(file, own(source)), 'utf8');
}

/** `describe` for the tests of `source` on its real recordings. */
export function describeRecordings(source: string, body: () => void): void {
  describe(`${source} on its real recordings`, body);
}

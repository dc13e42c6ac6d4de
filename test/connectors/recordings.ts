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

export function recording(source: string, file: string): string {
  return readFileSync(new URL(file, recorded(source)), 'utf8');
}

export function fixture(source: string, file: string): string {
  return readFileSync(new URL(file, own(source)), 'utf8');
}

/** `describe` for the tests of `source` on its real recordings. */
export function describeRecordings(source: string, body: () => void): void {
  describe(`${source} on its real recordings`, body);
}

/**
 * The shared upstream recordings (made by other projects, kept outside this project) and the
 * project's own fixtures. Suites that need the recordings skip, saying so, when the folder is absent (in CI they fail).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { skipOrFailWithoutShared } from '../support/shared-folder.ts';

const shared = (source: string) => new URL(`../../../shared/fixtures/upstream/${source}/`, import.meta.url);
const own = (source: string) => new URL(`../fixtures/${source}/`, import.meta.url);

export function recording(source: string, file: string): string {
  return readFileSync(new URL(file, shared(source)), 'utf8');
}

export function fixture(source: string, file: string): string {
  return readFileSync(new URL(file, own(source)), 'utf8');
}

/** `describe` for tests on the shared recordings of `source`; skipped with a plain message when they are absent. */
export function describeRecordings(source: string, body: () => void): void {
  const folder = fileURLToPath(shared(source));
  describe(`${source} on the shared upstream recordings`, function () {
    if (!existsSync(folder)) {
      before(function () {
        skipOrFailWithoutShared(this, `the shared upstream recordings for ${source} (${source} folder of ../shared/fixtures/upstream)`);
      });
    }
    body();
  });
}

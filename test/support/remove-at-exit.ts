/**
 * Files and folders a test process made for itself, removed when it exits: one exit listener for
 * all of them (one listener each passed Node's limit of ten and printed a leak warning).
 */
import { rmSync } from 'node:fs';

const paths = new Set<string>();

export function removeAtExit(path: string): void {
  if (paths.size === 0) process.once('exit', () => paths.forEach((each) => rmSync(each, { recursive: true, force: true })));
  paths.add(path);
}

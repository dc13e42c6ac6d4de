/**
 * The shared folder beside the project (../shared: upstream recordings, conformance cases) is
 * optional on a developer's machine, where suites that need it skip, saying so; in CI it is
 * expected, and its absence fails the run instead of silently skipping.
 */
export function skipOrFailWithoutShared(context: Mocha.Context, what: string): void {
  if (process.env.CI) throw new Error(`${what} is missing, and CI expects it: the shared folder must sit beside the project (../shared)`);
  console.log(`Skipped: ${what} is not in this checkout.`);
  context.skip();
}

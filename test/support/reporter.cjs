// Mocha's spec reporter plus one plain closing line, `N passed, N failed[, N skipped]`, that any CI
// can read the same way whatever the test runner.
const Mocha = require('mocha');

class SpecWithClosingLine extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once(Mocha.Runner.constants.EVENT_RUN_END, () => {
      const { passes, failures, pending } = runner.stats;
      process.stdout.write(`\n${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}\n`);
    });
  }
}

module.exports = SpecWithClosingLine;

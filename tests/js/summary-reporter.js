// Jest reporter: prints "jest: N passed, N failed, N skipped" as the very last line and, when
// JEST_SUMMARY_FILE is set, writes the same counts as JSON for scripts/run-tests.mjs.
import { writeFileSync } from 'node:fs';

export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const s = {
      passed: results.numPassedTests,
      failed: results.numFailedTests,
      skipped: results.numPendingTests + results.numTodoTests,
      suiteErrors: results.numRuntimeErrorTestSuites,
    };
    if (process.env.JEST_SUMMARY_FILE) writeFileSync(process.env.JEST_SUMMARY_FILE, JSON.stringify(s));
    process.once('exit', () => {
      console.log(`jest: ${s.passed} passed, ${s.failed + s.suiteErrors} failed, ${s.skipped} skipped`);
    });
  }
}

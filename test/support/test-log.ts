/**
 * Lines a test writes for a person (seeds, figures, timings) without pages of output on every
 * run: they are held back, and printed when a test of the file fails (the file's own lines, then
 * the failed test's), or at once with TOLLGATE_TEST_LOG=1. Nothing is dropped that a failure or
 * the variable would show. Call at the top level of a test file: it registers hooks.
 */
import { afterAll, beforeEach } from 'vitest';

/** TOLLGATE_TEST_LOG=1: every line at once, as it is logged. */
export const TEST_LOG = process.env.TOLLGATE_TEST_LOG === '1';

export function testLog(): (line: string) => void {
  /** Lines logged outside any test: at load, in beforeAll/afterAll hooks. */
  const fileLines: string[] = [];
  /** The running test's lines (undefined between tests). */
  let testLines: string[] | undefined;
  /** A test of this file failed: from then on, lines logged outside a test print at once. */
  let failed = false;
  const print = (lines: string[]) => {
    for (const line of lines.splice(0)) console.log(line);
  };
  if (!TEST_LOG) {
    beforeEach(({ onTestFailed, onTestFinished }) => {
      const lines: string[] = [];
      testLines = lines;
      onTestFailed(() => {
        failed = true;
        print(fileLines);
        print(lines);
      });
      onTestFinished(() => {
        if (testLines === lines) testLines = undefined;
      });
    });
    // Lines an afterAll of the file logs after this one ran are printed as they come (once failed).
    afterAll(() => {
      if (failed) print(fileLines);
    });
  }
  return (line) => {
    if (TEST_LOG) console.log(line);
    else if (testLines) testLines.push(line);
    else if (failed) console.log(line);
    else fileLines.push(line);
  };
}

/**
 * How a script's `main` ends the process: its exit code becomes the process's, and an error it
 * did not expect is printed (as `describe` words it) with exit code 1.
 */
export function runMain(
  main: (argv: readonly string[]) => Promise<number>,
  describe: (error: unknown) => unknown = (error) => error,
): void {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(describe(error));
      process.exitCode = 1;
    },
  );
}

/** Runs a tracking bench's `main`: a failure is printed with its stack and the exit code set to 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}

/**
 * The exit codes of every command-line tool here (chaos, chaos:scenario, loadgen, npm start),
 * one table: 0 the tool did what was asked; 1 it ran and failed (a dependency did not answer,
 * the run missed its target, an unexpected fault); 2 bad input, nothing was touched;
 * 130 interrupted (SIGINT / SIGTERM), everything it started was stopped.
 */
export const EXIT = Object.freeze({ ok: 0, failed: 1, usage: 2, interrupted: 130 });

export type CliErrorCode = 'USAGE' | 'DEPENDENCY_UNAVAILABLE' | 'NOT_FOUND' | 'REFUSED' | 'MISSING_BINARY';

const EXIT_OF: Record<CliErrorCode, number> = {
  USAGE: EXIT.usage,
  DEPENDENCY_UNAVAILABLE: EXIT.failed,
  NOT_FOUND: EXIT.failed,
  REFUSED: EXIT.failed,
  MISSING_BINARY: EXIT.failed,
};

/** The one error a CLI throws on purpose: reported as one line on stderr, never a stack trace. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: CliErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }

  get exitCode(): number {
    return EXIT_OF[this.code];
  }
}

export function isCliError(error: unknown): error is CliError {
  return error instanceof CliError;
}

export const usageError = (message: string) => new CliError('USAGE', message);

/** The exit code for whatever a CLI caught: a CliError's own, otherwise 1. */
export function exitCodeOf(error: unknown): number {
  return isCliError(error) ? error.exitCode : EXIT.failed;
}

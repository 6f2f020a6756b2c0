/** Bad command-line input: reported on stderr with exit code 2, never a stack trace. */
export class UsageError extends Error {
  readonly code = 'USAGE' as const;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function isUsageError(error: unknown): error is UsageError {
  return error instanceof UsageError;
}

/** The exit codes `runCli` returns. */
export const EXIT = Object.freeze({ ok: 0, internal: 1, usage: 2 });

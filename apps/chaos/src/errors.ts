/** Exit codes of the chaos CLI and the scenario. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

export type ChaosErrorCode = 'USAGE' | 'DEPENDENCY_UNAVAILABLE' | 'NOT_FOUND' | 'REFUSED';

/**
 * The one error the chaos tools throw on purpose. `USAGE` (bad command, channel or number)
 * exits 2 before anything was touched; the others exit 1.
 */
export class ChaosError extends Error {
  override readonly name = 'ChaosError';
  constructor(readonly code: ChaosErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
  }

  get exitCode(): number {
    return this.code === 'USAGE' ? EXIT.usage : EXIT.failed;
  }
}

export function isChaosError(error: unknown): error is ChaosError {
  return error instanceof ChaosError;
}

export const usageError = (message: string) => new ChaosError('USAGE', message);

import type { AttemptOutcome } from './status';

/**
 * Maps a provider's HTTP answer to an attempt outcome. 429 and 5xx say "not now": transient.
 * Other 4xx say "never for this address" (invalid address, consent withdrawn): permanent, and
 * they say nothing about the channel's health.
 */
export function classifyProviderStatus(status: number): AttemptOutcome {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 429 || status >= 500) return 'transient';
  // 408: the provider timed out on its side; 409: a call with the same key is still in progress.
  // Either way it may deliver: reconcile, never cascade.
  if (status === 408 || status === 409) return 'unknown';
  return 'permanent';
}

/**
 * Network failures: a refused or reset connection before any byte was sent cannot have
 * delivered anything (transient); a timeout after the request went out might have (unknown).
 */
export function classifyNetworkError(error: { code?: string; name?: string }, requestSent: boolean): AttemptOutcome {
  if (!requestSent) return 'transient';
  const code = error.code ?? '';
  if (code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'transient';
  return 'unknown';
}

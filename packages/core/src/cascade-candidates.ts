import type { Channel } from './channels';
import { nextCascadeStep, type CascadeAttempt } from './cascade';
import type { SkipReason } from './status';

/**
 * The channels the cascade would send to next, in order: the one it picks now, then the one it
 * would pick were that one closed, and so on. Whoever can see closures the caller cannot (the
 * Lua scripts read suppressions and opt-outs in the record's slot) takes the first open one, so
 * a closed channel never gets a lane job of its own. Empty when the next move is not a send.
 */
export function cascadeCandidates(
  plan: readonly Channel[],
  attempts: readonly CascadeAttempt[],
  budget: number,
  unavailable: (channel: Channel) => SkipReason | undefined,
): Channel[] {
  const closed = new Set<Channel>();
  const candidates: Channel[] = [];
  for (let i = 0; i < plan.length; i += 1) {
    const step = nextCascadeStep(plan, attempts, budget, (c) => (closed.has(c) ? 'suppressed' : unavailable(c)));
    if (step.kind !== 'send') break;
    candidates.push(step.channel);
    closed.add(step.channel);
  }
  return candidates;
}

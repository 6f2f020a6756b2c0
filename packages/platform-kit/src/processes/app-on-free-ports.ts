import { freePorts } from '../services/free-port';
import { ADDRESS_IN_USE, PortTakenError, retryOnPortTaken } from '../services/port-retry';
import { httpOk } from '../services/wait-for';
import { startApp } from './app-entries';
import type { ManagedProcess } from './managed-process';
import type { ProcessGroup } from './process-group';

export interface AppOnFreePortsSpec {
  name: string;
  entry: string;
  /** How many ports it listens on; each attempt gets that many distinct free ones. */
  ports: number;
  /** Its whole environment on `ports`. */
  env: (ports: readonly number[]) => Record<string, string | undefined>;
  /** What answers 2xx on `ports` once it is ready (its /readyz or /healthz). */
  readyUrl: (ports: readonly number[]) => string;
  compiled?: boolean;
  /** A module node loads before the entry (`--require`). */
  preload?: string;
  inheritOutput?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Where each attempt's ports come from; default `count` distinct free ports. */
  choosePorts?: (count: number, attempt: number) => Promise<number[]>;
}

/**
 * Starts an app on free ports and waits until it is ready. The apps take their ports from env
 * and bind them at start-up, a moment after they were found free: when the app exits with
 * EADDRINUSE before it was ready, the attempt is forgotten by the group and the app started
 * again on fresh ports (a bounded number of times). Any other failure is thrown at once.
 */
export function startAppOnFreePorts(group: ProcessGroup, spec: AppOnFreePortsSpec): Promise<{ process: ManagedProcess; ports: number[] }> {
  return retryOnPortTaken(spec.name, async (attempt) => {
    const ports = await (spec.choosePorts ?? freePorts)(spec.ports, attempt);
    const proc = startApp(group, {
      name: spec.name,
      entry: spec.entry,
      env: spec.env(ports),
      ...(spec.compiled ? { compiled: true } : {}),
      ...(spec.preload ? { preload: spec.preload } : {}),
      ...(spec.inheritOutput ? { inheritOutput: true } : {}),
    });
    try {
      await proc.waitReady(`${spec.name} ready`, () => httpOk(spec.readyUrl(ports)), {
        timeoutMs: spec.timeoutMs ?? 60_000,
        ...(spec.signal ? { signal: spec.signal } : {}),
      });
    } catch (error) {
      if (proc.running || !ADDRESS_IN_USE.test(proc.output())) throw error;
      group.forget(proc);
      throw new PortTakenError(`${spec.name} could not bind one of ${ports.join(', ')}`);
    }
    return { process: proc, ports };
  });
}

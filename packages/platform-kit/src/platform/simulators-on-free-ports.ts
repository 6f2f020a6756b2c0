import { startAppOnFreePorts } from '../processes/app-on-free-ports';
import type { ManagedProcess } from '../processes/managed-process';
import type { ProcessGroup } from '../processes/process-group';
import { SIMULATOR_PORT_COUNT, simulatorPortsEnv, simulatorPortsOf, type SimulatorPorts } from './simulator-ports';

export interface SimulatorsOnFreePortsOptions {
  name?: string;
  entry: string;
  /** Everything but the ports (inherited env, NODE_ENV, latency and error rates). */
  env: Record<string, string | undefined>;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * One simulators process on free loopback ports, ready: started again on fresh ports when one
 * was taken before it bound it. Callers that must name the ports elsewhere (a PROVIDERS_FILE)
 * do so with the ports returned here, after the bind, never with ports chosen beforehand.
 */
export async function startSimulatorsOnFreePorts(
  group: ProcessGroup,
  o: SimulatorsOnFreePortsOptions,
): Promise<{ process: ManagedProcess; ports: SimulatorPorts }> {
  const started = await startAppOnFreePorts(group, {
    name: o.name ?? 'simulators',
    entry: o.entry,
    ports: SIMULATOR_PORT_COUNT,
    env: (p) => ({ ...o.env, ...simulatorPortsEnv(simulatorPortsOf(p)) }),
    readyUrl: (p) => `http://127.0.0.1:${simulatorPortsOf(p).control}/healthz`,
    ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    ...(o.signal ? { signal: o.signal } : {}),
  });
  return { process: started.process, ports: simulatorPortsOf(started.ports) };
}

/** The simulators' control port, as the tests drive it: change a channel's behaviour, read the ledger. */
export interface SimulatorControl {
  /** POST a control request (`/control/channels/push` with `{ mode: 'down' }`, …). */
  control: (path: string, body?: unknown) => Promise<Response>;
  /** What the simulated providers delivered and how often each was called. */
  ledger: () => Promise<{ deliveries: number; calls: Record<string, number> }>;
}

export function simulatorControl(controlUrl: () => string): SimulatorControl {
  return {
    control: (path, body) =>
      fetch(`${controlUrl()}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }),
    ledger: async () => (await (await fetch(`${controlUrl()}/ledger`)).json()) as { deliveries: number; calls: Record<string, number> },
  };
}

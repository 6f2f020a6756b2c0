/** The simulators' ports: control plane, the three providers and the tracking stores. */
export interface SimulatorPorts {
  control: number;
  push: number;
  sms: number;
  email: number;
  stores: number;
}

/** How many ports one simulators process listens on. */
export const SIMULATOR_PORT_COUNT = 5;

/** `SIMULATOR_PORT_COUNT` ports, in SimulatorPorts order. */
export function simulatorPortsOf(ports: readonly number[]): SimulatorPorts {
  const [control, push, sms, email, stores] = ports;
  if (stores === undefined || email === undefined || sms === undefined || push === undefined || control === undefined)
    throw new Error(`the simulators take ${SIMULATOR_PORT_COUNT} ports, not ${ports.length}`);
  return { control, push, sms, email, stores };
}

/** Every listener on a port the system picks (the simulators report theirs once up). */
export const ANY_FREE_SIMULATOR_PORTS: SimulatorPorts = Object.freeze({ control: 0, push: 0, sms: 0, email: 0, stores: 0 });

/** The env that puts a simulators process on `ports`, on loopback. */
export function simulatorPortsEnv(ports: SimulatorPorts): Record<string, string> {
  return {
    SIM_HOST: '127.0.0.1',
    SIM_CONTROL_PORT: String(ports.control),
    SIM_PUSH_PORT: String(ports.push),
    SIM_SMS_PORT: String(ports.sms),
    SIM_EMAIL_PORT: String(ports.email),
    TRACKING_STORES_PORT: String(ports.stores),
  };
}

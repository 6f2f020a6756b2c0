import { freePort } from '../services/free-port';

/** The simulators' ports: control plane, the three providers and the tracking stores. */
export interface SimulatorPorts {
  control: number;
  push: number;
  sms: number;
  email: number;
  stores: number;
}

/** Free loopback ports for one simulators process. */
export async function freeSimulatorPorts(): Promise<SimulatorPorts> {
  const [control, push, sms, email, stores] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  return { control, push, sms, email, stores };
}

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

import type { Channel, LedgerSummary } from '@notify/core';
import { CliError } from '@notify/platform-kit';

/** A channel as the simulators' control API reports it. */
export interface ChannelStatus {
  mode: 'up' | 'down' | 'slow';
  latencyMs: number;
  slowMs: number;
  transientRate: number;
  permanentRate: number;
  listening: boolean;
  port: number;
}

export type BehaviourPatch = Partial<Pick<ChannelStatus, 'mode' | 'latencyMs' | 'slowMs' | 'transientRate' | 'permanentRate'>>;

export interface ControlClient {
  readonly baseUrl: string;
  channels(): Promise<Record<Channel, ChannelStatus>>;
  apply(channel: Channel, patch: BehaviourPatch): Promise<ChannelStatus>;
  restore(channel: Channel): Promise<ChannelStatus>;
  restoreAll(): Promise<Record<Channel, ChannelStatus>>;
  ledger(): Promise<LedgerSummary>;
}

/** The simulators' control API over HTTP (apps/simulators/src/control-app.ts), every call bounded in time. */
export function createControlClient(baseUrl: string, timeoutMs: number): ControlClient {
  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), timeoutMs);
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        signal: abort.signal,
        ...(body !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      const why = abort.signal.aborted ? `no answer within ${timeoutMs} ms` : describe(error);
      throw new CliError('DEPENDENCY_UNAVAILABLE', `simulators' control API at ${baseUrl} unreachable (${method} ${path}: ${why})`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
    const text = await response.text();
    if (!response.ok) {
      throw new CliError('REFUSED', `simulators' control API answered ${response.status} to ${method} ${path}: ${text.slice(0, 300)}`);
    }
    return JSON.parse(text) as T;
  }
  return {
    baseUrl,
    channels: () => call('GET', '/control/channels'),
    apply: (channel, patch) => call('POST', `/control/channels/${channel}`, patch),
    restore: (channel) => call('POST', `/control/channels/${channel}/restore`, {}),
    restoreAll: () => call('POST', '/control/restore', {}),
    ledger: () => call('GET', '/ledger'),
  };
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

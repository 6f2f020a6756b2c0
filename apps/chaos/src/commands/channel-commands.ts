import type { Channel } from '@notify/core';
import type { BehaviourPatch, ChannelStatus, ControlClient } from '../control-client';
import { EXIT, isCliError } from '@notify/platform-kit';
import type { ChaosIo } from '../io';

/** One line per channel: what it does now. */
export function describeChannel(channel: string, s: ChannelStatus): string {
  const mode = s.mode === 'down' ? 'DOWN (connection refused)' : s.mode === 'slow' ? `SLOW (+${s.slowMs} ms per call)` : 'up';
  return `${channel.padEnd(6)} ${mode.padEnd(26)} port ${s.port} ${s.listening ? 'open' : 'closed'}  latency ${s.latencyMs} ms  transient ${s.transientRate}  permanent ${s.permanentRate}`;
}

/**
 * Applies one fault. If the call fails, the simulators may still have applied it (the answer
 * was lost, not the request), so the channel is put back before reporting: a failed command
 * never leaves a channel broken.
 */
export async function applyFault(control: ControlClient, channel: Channel, patch: BehaviourPatch, io: ChaosIo): Promise<number> {
  try {
    const status = await control.apply(channel, patch);
    io.out(describeChannel(channel, status));
    return EXIT.ok;
  } catch (error) {
    io.err(`chaos: ${isCliError(error) ? error.message : String(error)}`);
    try {
      await control.restore(channel);
      io.err(`chaos: ${channel} was put back to its configured behaviour`);
    } catch {
      io.err(`chaos: could not put ${channel} back either; run 'npm run chaos -- restore ${channel}' once the simulators answer`);
    }
    return EXIT.failed;
  }
}

export const killChannel = (control: ControlClient, channel: Channel, io: ChaosIo) => applyFault(control, channel, { mode: 'down' }, io);

/** Transient errors only (BI5's kind): the port stays open, a share of calls answers 503. */
export const breakChannel = (control: ControlClient, channel: Channel, rate: number, io: ChaosIo) =>
  applyFault(control, channel, { mode: 'up', transientRate: rate }, io);

export const slowChannel = (control: ControlClient, channel: Channel, ms: number, io: ChaosIo) =>
  applyFault(control, channel, { mode: 'slow', slowMs: ms }, io);

/** One channel back to its configured behaviour (`restore all`: restore-all.ts). */
export async function restoreChannel(control: ControlClient, channel: Channel, io: ChaosIo): Promise<number> {
  io.out(describeChannel(channel, await control.restore(channel)));
  return EXIT.ok;
}

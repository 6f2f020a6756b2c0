import type { ControlClient } from '../control-client';
import { EXIT, isCliError } from '@notify/platform-kit';
import type { ChaosIo } from '../io';
import { describeChannel } from './channel-commands';
import { restoreTariff } from './tracking-store';

/**
 * `restore all`: every channel (one call) and the tariff store, each attempted whatever the
 * other did, so it works after any failed or half-applied command. Exit 1 if a part did not answer.
 */
export async function restoreAll(control: ControlClient, storesUrl: string, io: ChaosIo): Promise<number> {
  let code: number = EXIT.ok;
  try {
    const all = await control.restoreAll();
    for (const [channel, status] of Object.entries(all)) io.out(describeChannel(channel, status));
  } catch (error) {
    io.err(`chaos: ${isCliError(error) || error instanceof Error ? error.message : String(error)}`);
    code = EXIT.failed;
  }
  try {
    io.out(`tariff store: ${(await restoreTariff(storesUrl)).tariffMode}`);
  } catch (error) {
    io.err(`chaos: ${error instanceof Error ? error.message : String(error)}`);
    code = EXIT.failed;
  }
  return code;
}

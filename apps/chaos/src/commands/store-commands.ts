import type { Store } from '../args';
import { CliError, EXIT } from '@notify/platform-kit';
import type { ChaosIo } from '../io';
import { restoreTariff, slowTariff } from './tracking-store';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** AY10 on the tariff store. If the call fails half way, the store is put back before exiting 1. */
export async function slowStore(storesUrl: string, _store: Store, io: ChaosIo): Promise<number> {
  try {
    const state = await slowTariff(storesUrl);
    io.out(`tariff store: ${state.tariffMode.toUpperCase()} (AY10: tens of times its 6 ms median)`);
    return EXIT.ok;
  } catch (error) {
    io.err(`chaos: ${message(error)}`);
    try {
      await restoreTariff(storesUrl);
      io.err('chaos: the tariff store was put back to healthy');
    } catch {
      io.err("chaos: could not put the tariff store back either; run 'npm run chaos -- restore tariff' once it answers");
    }
    return EXIT.failed;
  }
}

export async function restoreStore(storesUrl: string, _store: Store, io: ChaosIo): Promise<number> {
  try {
    const state = await restoreTariff(storesUrl);
    io.out(`tariff store: ${state.tariffMode}`);
    return EXIT.ok;
  } catch (error) {
    throw new CliError('DEPENDENCY_UNAVAILABLE', message(error), { cause: error });
  }
}

/** The tariff store's mode (GET /control/stats), for `status`. */
export async function readTariffMode(storesUrl: string, timeoutMs: number): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  try {
    const res = await fetch(`${storesUrl}/control/stats`, { signal: abort.signal });
    const body = (await res.json()) as { tariffMode?: unknown };
    if (!res.ok || typeof body.tariffMode !== 'string') throw new Error(`answered ${res.status}`);
    return body.tariffMode;
  } catch (error) {
    const why = abort.signal.aborted ? `no answer within ${timeoutMs} ms` : message(error);
    throw new CliError('DEPENDENCY_UNAVAILABLE', `tracking stores at ${storesUrl} unreachable (GET /control/stats: ${why})`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

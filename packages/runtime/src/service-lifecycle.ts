import type { Logger } from 'pino';

export interface RunningService {
  logger: Logger;
  /** How long a graceful stop may take before the process exits anyway. */
  graceMs: number;
  close(): Promise<void>;
}

/**
 * The entry point of every service process: start it (a start failure, a bad config included,
 * prints one readable line and exits 1), then on SIGTERM/SIGINT stop taking work, let
 * in-flight work finish, close everything and exit 0, or exit 1 when the grace period runs out.
 */
export function runService(app: string, start: () => Promise<RunningService>): void {
  start().then(
    (service) => {
      const stop = async (signal: string) => {
        service.logger.info({ signal }, `${app} draining`);
        const hardStop = setTimeout(() => {
          service.logger.error(`${app} graceful stop took longer than ${service.graceMs} ms; exiting`);
          process.exit(1);
        }, service.graceMs);
        hardStop.unref();
        try {
          await service.close();
          service.logger.info(`${app} stopped`);
          process.exit(0);
        } catch (error) {
          service.logger.error({ err: error }, `${app} stop failed`);
          process.exit(1);
        }
      };
      process.once('SIGTERM', () => void stop('SIGTERM'));
      process.once('SIGINT', () => void stop('SIGINT'));
    },
    (error: unknown) => {
      process.stderr.write(`${app} failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}

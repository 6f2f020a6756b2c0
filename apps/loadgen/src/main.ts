import { EXIT, exitCodeOf, formatReport, isCliError, runLoad } from '@notify/platform-kit';
import { loadConfig, USAGE } from './config';

/** `npm run loadgen -- ...`: parses the flags, offers the load, prints the report. Exit codes: EXIT (platform-kit). */
async function main(signal: AbortSignal): Promise<number> {
  const config = loadConfig(process.argv.slice(2));
  const report = await runLoad({
    apiUrl: config.api,
    apiKey: config.key,
    rate: config.rate,
    seconds: config.seconds,
    urgentShare: config['urgent-share'],
    mode: config.mode,
    tickMs: config['tick-ms'],
    workerMetricsUrls: config['worker-metrics'].split(','),
    simControlUrl: config['sim-control'] === 'none' ? undefined : config['sim-control'],
    drainSeconds: config['drain-seconds'],
    seed: config.seed,
    signal,
  });
  process.stdout.write(config.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
  if (signal.aborted) return EXIT.interrupted;
  return report.unfinished > 0 ? EXIT.failed : EXIT.ok;
}

const abort = new AbortController();
process.once('SIGINT', () => abort.abort());
process.once('SIGTERM', () => abort.abort());
main(abort.signal).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (isCliError(error) && error.code === 'USAGE') process.stderr.write(`loadgen: ${error.message}\n${USAGE}\n`);
    else process.stderr.write(`loadgen: failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(exitCodeOf(error));
  },
);

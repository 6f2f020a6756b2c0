import { loadConfig, USAGE } from './config';
import { runLoad } from './run-load';
import { formatReport } from './run-report';

async function main(): Promise<number> {
  let config;
  try {
    config = loadConfig(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`loadgen: ${(error as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const report = await runLoad({
    apiUrl: config.api, apiKey: config.key, rate: config.rate, seconds: config.seconds, urgentShare: config['urgent-share'],
    mode: config.mode, tickMs: config['tick-ms'], workerMetricsUrls: config['worker-metrics'].split(','),
    simControlUrl: config['sim-control'] === 'none' ? undefined : config['sim-control'], drainSeconds: config['drain-seconds'], seed: config.seed,
  });
  process.stdout.write(config.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
  return report.unfinished > 0 ? 1 : 0;
}

main().then((code) => process.exit(code), (error: unknown) => {
  process.stderr.write(`loadgen failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});

import { buildBudgetReport, DEFAULT_BUDGET_INPUTS, type BudgetInputs } from './budget-report';
import { formatBudget } from './budget-format';
import { REGIMES } from './chain-profile';
import { CHANNELS } from './channels';
import { effectiveRates, maxMultiplier } from './channel-rates';
import { choiceFlag, integerFlag, numberFlag, parseFlags, type ParsedFlags } from './cli-args';
import { buildDispatchReport, DEFAULT_DISPATCH_INPUTS, type DispatchInputs } from './dispatch-report';
import { formatDispatch } from './dispatch-format';
import { BI_ASSUMPTIONS, isAssumptionsError, withAssumptions } from './notification-assumptions';
import { formatScale, type ScaleReport } from './scale-format';
import { runScale } from './scale-model';
import { SPLIT_POLICIES } from './split-budget';
import { EXIT, isUsageError, UsageError } from './usage-error';

/** Where the CLI writes; injected so tests capture output without spawning a process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
}

export const USAGE = `usage: npm run model -- <command> [options]

commands:
  dispatch              the seed's dispatch model (single / parallel / cascade) and the platform's policies
    --seed N            LCG seed, integer 0..4294967295 (default 20260730)
    --notifications N   notifications per run, integer >= 1 (default 104167)
    --multiplier X      error-rate multiplier >= 0; every error probability must stay <= 1 (default 1)
    --down CHANNEL      channel of the "fully down" table: ${CHANNELS.join(', ')} (default push)
    --per-recipient N   notifications per recipient in the suppression day, integer >= 1 (default 6)
  scale                 the scale model from the BI assumption table
    --assumptions JSON  partial BI table overriding the published one (validated)
  budget                the tracking-query timeout-budget chain
    --policy P          ${SPLIT_POLICIES.join(', ')} (default: all)
    --regime R          ${REGIMES.join(', ')} (default: both)
    --requests N        requests per run, integer >= 1 (default 48)
    --percentile Q      tail percentile for tail-aware, 0 < Q <= 1 (default 0.99)
  help                  this text

every command: --json prints the report as JSON (shape in packages/models/README.md)
exit codes: 0 ok, 2 bad input (message on stderr), 1 internal error
`;

const MAX_SEED = 4_294_967_295;
const value = (flags: ParsedFlags, name: string): string | undefined => {
  const v = flags.get(name);
  return typeof v === 'string' ? v : undefined;
};

function dispatchInputs(flags: ParsedFlags): DispatchInputs {
  const d = DEFAULT_DISPATCH_INPUTS;
  const raw = (name: string) => value(flags, name);
  const seed = raw('seed');
  const notifications = raw('notifications');
  const multiplierRaw = raw('multiplier');
  const down = raw('down');
  const perRecipient = raw('per-recipient');
  const multiplier = multiplierRaw === undefined ? d.multiplier : numberFlag('multiplier', multiplierRaw);
  try {
    effectiveRates(BI_ASSUMPTIONS, multiplier);
  } catch (error) {
    // Rounded down so the printed limit is itself accepted.
    const limit = Math.floor(maxMultiplier(BI_ASSUMPTIONS) * 1e4) / 1e4;
    throw new UsageError(`--multiplier: ${(error as Error).message}; the largest allowed is ${limit}`);
  }
  return {
    seed: seed === undefined ? d.seed : integerFlag('seed', seed, 0, MAX_SEED),
    notifications: notifications === undefined ? d.notifications : integerFlag('notifications', notifications, 1),
    multiplier,
    down: down === undefined ? d.down : choiceFlag('channel', down, CHANNELS),
    perRecipient: perRecipient === undefined ? d.perRecipient : integerFlag('per-recipient', perRecipient, 1),
  };
}

function budgetInputs(flags: ParsedFlags): BudgetInputs {
  const d = DEFAULT_BUDGET_INPUTS;
  const policy = value(flags, 'policy');
  const regime = value(flags, 'regime');
  const requests = value(flags, 'requests');
  const percentileRaw = value(flags, 'percentile');
  let tailPercentile = d.tailPercentile;
  if (percentileRaw !== undefined) {
    tailPercentile = numberFlag('percentile', percentileRaw);
    if (!(tailPercentile > 0 && tailPercentile <= 1)) {
      throw new UsageError(`--percentile must be in (0, 1], got '${percentileRaw}'`);
    }
  }
  return {
    policies: policy === undefined ? d.policies : [choiceFlag('policy', policy, SPLIT_POLICIES)],
    regimes: regime === undefined ? d.regimes : [choiceFlag('regime', regime, REGIMES)],
    requests: requests === undefined ? d.requests : integerFlag('requests', requests, 1),
    tailPercentile,
  };
}

function scaleReport(flags: ParsedFlags): ScaleReport {
  const raw = value(flags, 'assumptions');
  let overrides: unknown = {};
  if (raw !== undefined) {
    try {
      overrides = JSON.parse(raw);
    } catch (error) {
      throw new UsageError(`--assumptions is not valid JSON: ${(error as Error).message}`);
    }
  }
  const assumptions = withAssumptions(overrides);
  return { command: 'scale', assumptions, result: runScale(assumptions) };
}

/** Runs one command and returns its output, or throws a UsageError. */
function execute(argv: readonly string[]): { json: unknown; lines: () => string[]; asJson: boolean } {
  const [command, ...rest] = argv;
  switch (command) {
    case 'dispatch': {
      const flags = parseFlags(rest, {
        seed: 'value',
        notifications: 'value',
        multiplier: 'value',
        down: 'value',
        'per-recipient': 'value',
        json: 'boolean',
      });
      const report = buildDispatchReport(dispatchInputs(flags));
      return { json: report, lines: () => formatDispatch(report), asJson: flags.has('json') };
    }
    case 'budget': {
      const flags = parseFlags(rest, { policy: 'value', regime: 'value', requests: 'value', percentile: 'value', json: 'boolean' });
      const report = buildBudgetReport(budgetInputs(flags));
      return { json: report, lines: () => formatBudget(report), asJson: flags.has('json') };
    }
    case 'scale': {
      const flags = parseFlags(rest, { assumptions: 'value', json: 'boolean' });
      const report = scaleReport(flags);
      return { json: report, lines: () => formatScale(report), asJson: flags.has('json') };
    }
    case undefined:
      throw new UsageError('missing command (dispatch, scale, budget or help)');
    default:
      throw new UsageError(`unknown command '${command}' (expected dispatch, scale, budget or help)`);
  }
}

/**
 * The whole CLI as a function of its arguments (without `node` and the script path):
 * writes the report to `io.stdout` and returns the exit code. Bad input is one line on
 * `io.stderr` and exit 2.
 */
export function runCli(argv: readonly string[], io: CliIo): number {
  if (argv[0] === 'help' || argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(USAGE);
    return EXIT.ok;
  }
  try {
    const out = execute(argv);
    io.stdout.write(out.asJson ? `${JSON.stringify(out.json, null, 2)}\n` : `${out.lines().join('\n')}\n`);
    return EXIT.ok;
  } catch (error) {
    if (isUsageError(error) || isAssumptionsError(error)) {
      io.stderr.write(`model: ${error.message}\nrun 'npm run model -- help' for usage\n`);
      return EXIT.usage;
    }
    io.stderr.write(`model: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    return EXIT.internal;
  }
}

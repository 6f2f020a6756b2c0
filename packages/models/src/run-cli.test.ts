import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runDispatch } from './dispatch-model';
import { runCli, USAGE, type CliIo } from './run-cli';

function run(...argv: string[]): { code: number; out: string; err: string } {
  let out = '';
  let err = '';
  const io: CliIo = {
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  };
  const code = runCli(argv, io);
  return { code, out, err };
}

/** Every key name used anywhere in a JSON value (array elements included). */
function keyNames(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((v) => keyNames(v, into));
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      into.add(k);
      keyNames(v, into);
    }
  }
  return into;
}

const SMALL = ['--notifications', '600', '--seed', '7'];

describe('runCli: the seed tables', () => {
  it('dispatch prints the seed rows', () => {
    const { code, out, err } = run('dispatch');
    expect(code).toBe(0);
    expect(err).toBe('');
    expect(out).toMatch(/^cascade\s+0\.9999\s+112357\s+1\.079\s+0\s+2\.35$/m);
    expect(out).toMatch(/^cascade\s+0\.9991\s+166806\s/m);
  });

  it('budget prints every seed table', () => {
    const { code, out } = run('budget');
    expect(code).toBe(0);
    for (const line of [
      /^greedy\s+180\.0\s+180\.0$/m,
      /^weighted\s+60\.0\s+120\.0$/m,
      /^equal\s+46\s+2\s+0\s+0\s+2\s+40\s+190\s+45\.8\s+19\.1\s+20$/m,
      /^greedy\s+6\s+42\s+0\s+36\s+42\s+200\s+200\s+197\.8\s+82\.4\s+5540$/m,
      /^weighted\s+0\s+48\s+0\s+48\s+0\s+93\s+180\s+96\.4\s+40\.2\s+11120$/m,
      /^equal\s+52\.5\s+84\.2\s+136\.7\s+52\.5$/m,
      /20555\.60 B\/s = 20\.07 KiB\/s/,
      /^weighted\s+: 2\/48 more dropped than greedy = 4\.17 % -> 17\.36 requests\/s/m,
      /^\s+12\s+2\s+24\s+85\.1 %$/m,
    ]) {
      expect(out).toMatch(line);
    }
  });

  it('budget --policy/--regime select rows', () => {
    const { code, out } = run('budget', '--policy', 'tail-aware', '--regime', 'healthy');
    expect(code).toBe(0);
    expect(out).toMatch(/^\+ tail-aware\s+48\s+0\s/m);
    expect(out).not.toMatch(/^greedy\s+\d/m);
    expect(out).not.toMatch(/tariff slow/);
  });

  it('scale prints the seed lines and takes validated overrides', () => {
    expect(run('scale').out).toMatch(/single channel fails; gap 3\.01 points/);
    const four = run('scale', '--assumptions', '{"attemptBudget":4}');
    expect(four.code).toBe(0);
    expect(four.out).toMatch(/\(4 - 1\) x 30 s = 90 s/);
  });
});

describe('runCli --json', () => {
  it('dispatch JSON carries the raw numbers of the same runs', () => {
    const { code, out } = run('dispatch', ...SMALL, '--multiplier', '2', '--down', 'sms', '--json');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(Object.keys(report)).toEqual(['command', 'inputs', 'layouts', 'multipliers', 'channelDown', 'derived', 'breaker', 'noWait', 'suppression']);
    expect(report.inputs).toEqual({ seed: 7, notifications: 600, multiplier: 2, down: 'sms', perRecipient: 6, attemptBudget: 3, waitSeconds: 30 });
    const cascade = runDispatch({ layout: 'cascade', seed: 7, notifications: 600, multiplier: 2 });
    expect(report.layouts[2]).toEqual({ id: 'cascade', origin: 'seed', ...cascade });
    expect(report.channelDown.rows[2].externalCalls).toBe(
      runDispatch({ layout: 'cascade', seed: 7, notifications: 600, multiplier: 2, down: 'sms' }).externalCalls,
    );
  });

  it('is byte-for-byte stable between runs', () => {
    expect(run('dispatch', ...SMALL, '--json').out).toBe(run('dispatch', ...SMALL, '--json').out);
    expect(run('budget', '--json').out).toBe(run('budget', '--json').out);
  });

  it('documents every key it emits in the README', () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const emitted = new Set<string>();
    for (const argv of [['dispatch', ...SMALL], ['budget'], ['scale']]) {
      const { out } = run(...argv, '--json');
      keyNames(JSON.parse(out), emitted);
    }
    const undocumented = [...emitted].filter((k) => !readme.includes(`"${k}"`));
    expect(undocumented).toEqual([]);
  });
});

describe('runCli: bad input is exit 2 with a message on stderr', () => {
  it.each<[string[], RegExp]>([
    [[], /missing command/],
    [['frobnicate'], /unknown command 'frobnicate'/],
    [['budget', '--policy', 'lazy'], /unknown policy 'lazy'.*greedy, equal, weighted, tail-aware/],
    [['budget', '--regime', 'stormy'], /unknown regime 'stormy'/],
    [['dispatch', '--notifications', '-5'], /--notifications must be an integer >= 1, got '-5'/],
    [['dispatch', '--notifications', '1.5'], /--notifications must be an integer/],
    [['dispatch', '--notifications', '0'], /--notifications must be an integer/],
    [['dispatch', '--notifications', '1e3'], /--notifications must be an integer/],
    [['budget', '--requests', '-1'], /--requests must be an integer/],
    [['dispatch', '--per-recipient', '0'], /--per-recipient must be an integer/],
    [['dispatch', '--seed', '4294967296'], /--seed must be an integer 0\.\.4294967295/],
    [['dispatch', '--multiplier', '17'], /--multiplier: .*push .*> 1/],
    [['dispatch', '--multiplier', '-1'], /--multiplier: .*>= 0/],
    [['dispatch', '--multiplier', 'abc'], /--multiplier must be a number/],
    [['dispatch', '--down', 'pager'], /unknown channel 'pager' \(expected one of: push, sms, email\)/],
    [['dispatch', '--verbose'], /unknown flag '--verbose'/],
    [['budget', '--down', 'push'], /unknown flag '--down'/],
    [['dispatch', '--seed'], /missing value for '--seed'/],
    [['dispatch', '--seed', '--json'], /missing value for '--seed'/],
    [['dispatch', '--seed='], /missing value for '--seed'/],
    [['dispatch', '--json=yes'], /'--json' takes no value/],
    [['dispatch', '--seed', '1', '--seed', '2'], /given twice/],
    [['dispatch', 'extra'], /unexpected argument 'extra'/],
    [['budget', '--percentile', '1.5'], /--percentile must be in \(0, 1\]/],
    [['scale', '--assumptions', '{bad'], /--assumptions is not valid JSON/],
    [['scale', '--assumptions', '{"attemptBudget":0}'], /invalid assumptions: attemptBudget/],
    [['scale', '--assumptions', '{"channelShare":{"push":1,"sms":1,"email":1}}'], /shares must sum to 1/],
  ])('%j', (argv, message) => {
    const { code, out, err } = run(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(message);
    expect(err).toMatch(/npm run model -- help/);
  });

  it('help is exit 0 on stdout', () => {
    for (const argv of [['help'], ['--help'], ['budget', '-h']]) {
      expect(run(...argv)).toEqual({ code: 0, out: USAGE, err: '' });
    }
  });

  it('accepts --flag=value', () => {
    expect(run('budget', '--policy=equal', '--regime=healthy', '--requests=17').code).toBe(0);
  });
});

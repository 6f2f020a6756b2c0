import { isCliError } from '@notify/platform-kit';
import { parseScenarioArgs, scaledAppEnv } from './scenario-args';

const usage = (argv: string[]) => {
  try {
    parseScenarioArgs(argv);
  } catch (error) {
    if (isCliError(error) && error.exitCode === 2) return error.message;
    throw error;
  }
  throw new Error('expected a usage error');
};

describe('parseScenarioArgs', () => {
  it('defaults to a scaled-down minute with both breaker modes', () => {
    expect(parseScenarioArgs(['push-down'])).toMatchObject({
      notifications: 1200,
      ratePerSecond: 100,
      breaker: ['on', 'off'],
      workers: 2,
      timeScale: 0.1,
      json: false,
      entries: { worker: 'apps/worker/src/main.ts', api: 'apps/api/src/main.ts' },
      pushProviders: 1,
    });
  });

  it('reads every option', () => {
    expect(
      parseScenarioArgs([
        'push-down',
        '--notifications',
        '300',
        '--rate',
        '50',
        '--breaker',
        'off',
        '--workers',
        '3',
        '--time-scale',
        '0.2',
        '--json',
        '--worker-entry',
        'w.ts',
      ]),
    ).toMatchObject({
      notifications: 300,
      ratePerSecond: 50,
      breaker: ['off'],
      workers: 3,
      timeScale: 0.2,
      json: true,
      entries: { worker: 'w.ts' },
    });
    expect(parseScenarioArgs(['push-down', '--push-providers', '2'])).toMatchObject({ pushProviders: 2 });
    expect(parseScenarioArgs(['help'])).toBe('help');
  });

  it.each([
    [[], /missing scenario name/],
    [['pull-down'], /unknown scenario 'pull-down'/],
    [['push-down', 'now'], /unexpected argument 'now'/],
    [['push-down', '--notifications', '50'], /between 100 and 20000/],
    [['push-down', '--notifications', 'many'], /whole number/],
    [['push-down', '--rate', '0'], /between 10 and 500/],
    [['push-down', '--breaker', 'maybe'], /on, off or both/],
    [['push-down', '--workers', '9'], /between 1 and 4/],
    [['push-down', '--time-scale', '2'], /\[0.01, 1\]/],
    [['push-down', '--bogus'], /Unknown option/],
    [['push-down', '--push-providers', '3'], /1 or 2/],
  ])('%j is a usage error', (argv, message) => {
    expect(usage(argv)).toMatch(message);
  });
});

it('scales every delay and breaker period, but never the probe lease below a call', () => {
  expect(scaledAppEnv({ timeScale: 0.1 }, 'on')).toMatchObject({
    CASCADE_TRANSIENT_DELAY_MS: '3000',
    CASCADE_RECONCILE_DELAY_MS: '500',
    BREAKER_ENABLED: 'true',
    BREAKER_WINDOW_MS: '1000',
    BREAKER_OPEN_MS: '500',
    BREAKER_PROBE_LEASE_MS: '2500',
    BREAKER_CACHE_MS: '25',
  });
  expect(scaledAppEnv({ timeScale: 1 }, 'off')).toMatchObject({ BREAKER_ENABLED: 'false', BREAKER_WINDOW_MS: '10000', BREAKER_PROBE_LEASE_MS: '10000' });
});

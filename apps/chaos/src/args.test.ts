import { parseChaosArgs } from './args';
import { isCliError } from '@notify/platform-kit';

function usage(argv: string[]): string {
  try {
    parseChaosArgs(argv);
  } catch (error) {
    if (isCliError(error) && error.code === 'USAGE') return error.message;
    throw error;
  }
  throw new Error(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseChaosArgs', () => {
  it('reads every command', () => {
    expect(parseChaosArgs(['kill-channel', 'push']).command).toEqual({ kind: 'kill-channel', channel: 'push' });
    expect(parseChaosArgs(['break-channel', 'sms', '--rate', '0.3']).command).toEqual({ kind: 'break-channel', channel: 'sms', rate: 0.3 });
    expect(parseChaosArgs(['break-channel', 'sms', '--rate=1']).command).toEqual({ kind: 'break-channel', channel: 'sms', rate: 1 });
    expect(parseChaosArgs(['slow-channel', 'email', '--ms', '1500']).command).toEqual({ kind: 'slow-channel', channel: 'email', ms: 1500 });
    expect(parseChaosArgs(['restore', 'all']).command).toEqual({ kind: 'restore', target: 'all' });
    expect(parseChaosArgs(['restore', 'push']).command).toEqual({ kind: 'restore', target: 'push' });
    expect(parseChaosArgs(['restore', 'tariff']).command).toEqual({ kind: 'restore', target: 'tariff' });
    expect(parseChaosArgs(['slow-store', 'tariff']).command).toEqual({ kind: 'slow-store', store: 'tariff' });
    expect(parseChaosArgs(['kill-worker']).command).toEqual({ kind: 'kill-worker', role: 'all' });
    expect(parseChaosArgs(['kill-worker', '--role', 'sms']).command).toEqual({ kind: 'kill-worker', role: 'sms' });
    expect(parseChaosArgs(['redis-pause', '--ms', '2000']).command).toEqual({ kind: 'redis-pause', ms: 2000 });
    expect(parseChaosArgs(['status', '--json']).command).toEqual({ kind: 'status', json: true });
    expect(parseChaosArgs(['help']).command).toEqual({ kind: 'help' });
    expect(parseChaosArgs(['--help']).command).toEqual({ kind: 'help' });
  });

  it('takes the URLs as flags on any command', () => {
    expect(
      parseChaosArgs(['status', '--control-url', 'http://127.0.0.1:9', '--stores-url', 'http://127.0.0.1:8', '--redis-url', 'redis://127.0.0.1:1']).overrides,
    ).toEqual({ SIM_CONTROL_URL: 'http://127.0.0.1:9', TRACKING_STORES_BASE_URL: 'http://127.0.0.1:8', REDIS_URL: 'redis://127.0.0.1:1' });
  });

  it.each([
    [[], /missing command/],
    [['explode', 'push'], /unknown command 'explode'/],
    [['kill-channel'], /needs a channel/],
    [['kill-channel', 'fax'], /unknown channel 'fax'; expected one of push\|sms\|email/],
    [['kill-channel', 'all'], /unknown channel 'all'/],
    [['kill-channel', 'push', 'sms'], /unexpected argument 'sms'/],
    [['kill-channel', 'push', '--rate', '0.5'], /kill-channel takes no --rate/],
    [['break-channel', 'push'], /missing --rate/],
    [['break-channel', 'push', '--rate', '0'], /must be in \(0, 1\]/],
    [['break-channel', 'push', '--rate', '1.5'], /must be in \(0, 1\]/],
    [['break-channel', 'push', '--rate', 'lots'], /must be a number/],
    [['break-channel', 'push', '--rate', '-0.5'], /ambiguous|must be a number/],
    [['break-channel', 'push', '--rate'], /argument missing|--rate/],
    [['slow-channel', 'sms'], /missing --ms/],
    [['slow-channel', 'sms', '--ms', '1e3'], /whole number of milliseconds/],
    [['slow-channel', 'sms', '--ms', '2.5'], /whole number of milliseconds/],
    [['slow-channel', 'sms', '--ms', '0'], /between 1 and 600000/],
    [['slow-channel', 'sms', '--ms', '600001'], /between 1 and 600000/],
    [['restore'], /needs a channel/],
    [['restore', 'everything'], /unknown channel 'everything'; expected one of push\|sms\|email\|tariff\|all/],
    [['slow-store'], /slow-store needs a store: slow-store <tariff>/],
    [['slow-store', 'measurement'], /got 'measurement'/],
    [['slow-store', 'tariff', '--ms', '5'], /slow-store takes no --ms/],
    [['kill-worker', '--role', 'router'], /unknown role 'router'/],
    [['kill-worker', 'push'], /unexpected argument 'push'/],
    [['redis-pause'], /missing --ms/],
    [['redis-pause', '--ms', '60001'], /between 1 and 60000/],
    [['status', '--verbose'], /Unknown option '--verbose'/],
  ])('%j is a usage error', (argv, message) => {
    expect(usage(argv)).toMatch(message);
  });
});

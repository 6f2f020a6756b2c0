import { runChaos } from './run-chaos';

function io(env: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out,
    err,
    io: {
      out: (t: string) => {
        out.push(t);
      },
      err: (t: string) => {
        err.push(t);
      },
      env,
    },
  };
}

// A port nothing listens on: any I/O attempt would fail with exit 1, not 2.
const NOWHERE = { SIM_CONTROL_URL: 'http://127.0.0.1:9', REDIS_URL: 'redis://127.0.0.1:9' };

describe('runChaos bad input', () => {
  it.each([
    [['kill-channel', 'fax']],
    [['bogus']],
    [[]],
    [['break-channel', 'push', '--rate', '2']],
    [['slow-channel', 'push', '--ms', 'soon']],
    [['redis-pause', '--ms', '-1']],
    [['kill-worker', '--role', 'fax']],
  ])('%j: message on stderr, exit 2, nothing on stdout', async (argv) => {
    const t = io(NOWHERE);
    expect(await runChaos(argv, t.io)).toBe(2);
    expect(t.out).toEqual([]);
    expect(t.err[0]).toMatch(/^chaos: /);
    expect(t.err.join('\n')).toMatch(/help/);
  });

  it('rejects a bad URL in the env with the variable named (exit 2)', async () => {
    const t = io({ SIM_CONTROL_URL: 'ftp://nowhere' });
    expect(await runChaos(['status'], t.io)).toBe(2);
    expect(t.err[0]).toMatch(/SIM_CONTROL_URL/);
  });

  it('a flag overrides the env, and is checked the same way', async () => {
    const t = io({ REDIS_URL: 'redis://127.0.0.1:9' });
    expect(await runChaos(['status', '--redis-url', 'http://not-redis'], t.io)).toBe(2);
    expect(t.err[0]).toMatch(/REDIS_URL/);
  });

  it('help prints the usage on stdout, exit 0', async () => {
    const t = io();
    expect(await runChaos(['help'], t.io)).toBe(0);
    expect(t.out.join('\n')).toMatch(/kill-channel <push\|sms\|email>/);
  });

  it('an unreachable simulator is exit 1, and a half-applied fault is put back (attempted)', async () => {
    const t = io({ ...NOWHERE, CHAOS_HTTP_TIMEOUT_MS: '500' });
    expect(await runChaos(['kill-channel', 'push'], t.io)).toBe(1);
    expect(t.err.join('\n')).toMatch(/unreachable/);
    expect(t.err.join('\n')).toMatch(/restore push/);
  });
});

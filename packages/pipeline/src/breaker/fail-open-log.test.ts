import pino from 'pino';
import { Writable } from 'node:stream';
import { createFailOpenLog } from './fail-open-log';

function capture() {
  const lines: { level: number; msg: string; unlogged?: number }[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

it('logs the first failure, then one line per interval, then the recovery', async () => {
  const { logger, lines } = capture();
  let now = 0;
  const log = createFailOpenLog(logger, 1_000, () => now);
  log.failed('acquire', new Error('down'));
  for (let i = 0; i < 50; i += 1) log.failed('acquire', new Error('down'));
  now = 1_500;
  log.failed('read', new Error('down'));
  expect(log.failing).toBe(true);
  log.succeeded();
  log.succeeded();
  await new Promise((resolve) => setImmediate(resolve));
  expect(lines.map((l) => l.level)).toEqual([40, 40, 30]);
  expect(lines[1]?.unlogged).toBe(50);
  expect(lines[0]?.msg).toMatch(/failing OPEN/);
  expect(log.failing).toBe(false);
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProcessGroup } from '@notify/platform-kit';
import { childrenDir, RUN_DIR_ENV } from './run-dir';

it("a test file's process groups note their children in the run's ledger, where the run's teardown finds them", async () => {
  const runDir = process.env[RUN_DIR_ENV];
  expect(runDir).toBeTruthy();
  const dir = childrenDir(runDir!);
  const group = new ProcessGroup();
  const child = group.start({ name: 'sleeper', command: 'sleep', args: ['30'], env: { PATH: process.env.PATH } });
  const noted = () => readFileSync(join(dir, `${process.pid}.pids`), 'utf8');
  expect(noted()).toMatch(new RegExp(`^\\+ ${child.process.pid} \\d+$`, 'm'));
  await group.stopAll(500);
  expect(noted()).toMatch(new RegExp(`^- ${child.process.pid}$`, 'm'));
});

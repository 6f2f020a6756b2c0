import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { waitFor } from '../services/wait-for';
import { processAlive as alive } from './process-alive';
import { ProcessGroup } from './process-group';

const pidIn = async (output: () => string) => Number(await waitFor('a pid printed', () => /^(\d+)$/m.exec(output())?.[1], 10_000));

it('stop(): SIGTERM, then after the grace period SIGKILL to the whole process group (children of the child too)', async () => {
  const group = new ProcessGroup();
  // A child that ignores SIGTERM and has a child of its own.
  const proc = group.start({ name: 'stubborn', command: 'sh', args: ['-c', 'trap "" TERM; sleep 30 & echo $!; wait'], env: { PATH: process.env.PATH } });
  const grandchild = await pidIn(() => proc.output());
  await group.stopAll(300);
  expect(proc.running).toBe(false);
  expect((await proc.exited).signal).toBe('SIGKILL');
  await waitFor('the grandchild to be gone', () => !alive(grandchild), 5_000);
});

it('waitReady gives up at once when the process exits, with its output', async () => {
  const group = new ProcessGroup();
  const proc = group.start({ name: 'quitter', command: 'sh', args: ['-c', 'echo about to fail; exit 3'], env: { PATH: process.env.PATH } });
  const started = Date.now();
  await expect(proc.waitReady('quitter ready', async () => false, { timeoutMs: 60_000 })).rejects.toThrow(
    /quitter exited before it was ready[\s\S]*about to fail/,
  );
  expect(Date.now() - started).toBeLessThan(30_000);
  expect(group.unexpectedExit).toMatch(/quitter exited \(3\)/);
  await group.stopAll();
});

it('a process that exits without stopping its group leaves no child behind (the exit hook)', async () => {
  // A node process starts `sleep` in a group, prints its pid and exits at once, as a crashed test runner would.
  const kit = join(__dirname, 'process-group.ts');
  const script =
    `const { ProcessGroup } = require(${JSON.stringify(kit)}); const g = new ProcessGroup();` +
    ` const p = g.start({ name: 's', command: 'sleep', args: ['30'], env: { PATH: process.env.PATH } }); console.log(p.process.pid); process.exit(0);`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
    encoding: 'utf8',
    cwd: join(__dirname, '..', '..', '..', '..'),
    timeout: 60_000,
  });
  const orphan = Number(out.trim());
  expect(orphan).toBeGreaterThan(0);
  await waitFor('the sleep to be gone', () => !alive(orphan), 5_000);
});

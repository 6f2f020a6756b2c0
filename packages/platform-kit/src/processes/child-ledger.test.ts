import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from '../services/wait-for';
import { killLeftovers } from './child-ledger';
import { processAlive as alive } from './process-alive';

it('killLeftovers: a runner SIGKILLed with a child running leaves it to the ledger, which kills it and spares the one that exited', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'notify-ledger-test-'));
  try {
    const kit = join(__dirname, 'process-group.ts');
    const ledger = join(__dirname, 'child-ledger.ts');
    // A runner notes its children, starts one that exits and one that runs on, then dies by SIGKILL (no exit hook runs).
    const script =
      `const { ProcessGroup } = require(${JSON.stringify(kit)}); require(${JSON.stringify(ledger)}).recordChildrenIn(${JSON.stringify(dir)});` +
      ` const g = new ProcessGroup(); const done = g.start({ name: 'd', command: 'true', args: [], env: { PATH: process.env.PATH } });` +
      ` done.exited.then(() => { const p = g.start({ name: 's', command: 'sleep', args: ['30'], env: { PATH: process.env.PATH } });` +
      ` console.log(done.process.pid + ' ' + p.process.pid); process.kill(process.pid, 'SIGKILL'); });`;
    let out = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { encoding: 'utf8', cwd: join(__dirname, '..', '..', '..', '..'), timeout: 60_000 });
    } catch (error) {
      out = String((error as { stdout?: string }).stdout);
    }
    const [exited, orphan] = out.trim().split(' ').map(Number) as [number, number];
    expect(alive(orphan)).toBe(true);
    expect(killLeftovers(dir)).toEqual([orphan]);
    expect(exited).toBeGreaterThan(0);
    await waitFor('the orphan to be gone', () => !alive(orphan), 5_000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

import { ProcessGroup } from './process-group';

it('forget(): an exited child leaves the count and unexpectedExit as if never started; a running one is refused', async () => {
  const group = new ProcessGroup();
  const quitter = group.start({ name: 'quitter', command: 'sh', args: ['-c', 'exit 1'], env: { PATH: process.env.PATH } });
  const sleeper = group.start({ name: 'sleeper', command: 'sleep', args: ['30'], env: { PATH: process.env.PATH } });
  await quitter.exited;
  expect(group.unexpectedExit).toMatch(/quitter exited \(1\)/);
  expect(() => group.forget(sleeper)).toThrow(/still runs/);
  group.forget(quitter);
  expect(group.unexpectedExit).toBeUndefined();
  expect(group.count).toBe(1);
  await group.stopAll(500);
  expect(sleeper.running).toBe(false);
});

import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TEST_API_KEY, startTestPlatform, type TestPlatform } from '../harness/platform';

/**
 * The first example of packages/client/README.md, taken from the README itself (no second copy):
 * type-checked strictly as an integrator's ES module, then run against the real api with
 * NOTIFY_URL and NOTIFY_API_KEY. It must print the notification's id and its final status.
 */
const ROOT = join(__dirname, '..', '..');
const OUT = join(ROOT, 'test-output', 'client-readme');
const run = promisify(execFile);

function firstExample(): string {
  const readme = readFileSync(join(ROOT, 'packages/client/README.md'), 'utf8');
  const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!code) throw new Error('packages/client/README.md has no ```ts example');
  return code;
}

let platform: TestPlatform;
beforeAll(async () => {
  platform = await startTestPlatform();
});
afterAll(async () => {
  await platform?.stop();
});

it("compiles and runs the README's first example: it prints the id and the final status", async () => {
  mkdirSync(OUT, { recursive: true });
  const file = join(OUT, 'first-example.mts');
  writeFileSync(file, firstExample());
  // The repository's strict settings, this file only; @notify/client resolves to its sources through `paths`.
  writeFileSync(
    join(OUT, 'tsconfig.json'),
    JSON.stringify({ extends: '../../tsconfig.json', compilerOptions: { types: ['node'] }, include: ['first-example.mts'] }),
  );
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(OUT, 'tsconfig.json')], { cwd: ROOT });

  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', NOTIFY_URL: platform.api.url, NOTIFY_API_KEY: TEST_API_KEY };
  const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env, timeout: 60_000 });
  expect(stdout.trim()).toMatch(/^[0-9a-f]{32} delivered$/);
});

import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import request from 'supertest';
import { docsRouter } from '../../apps/api/src/openapi';

/**
 * @notify/client's types are generated from the OpenAPI document (`npm run client:types`): the
 * committed file must be what the document the api serves produces now, so a route or a field
 * changed in the api without regenerating fails here.
 */
const ROOT = join(__dirname, '..', '..');
const COMMITTED = join(ROOT, 'packages/client/src/generated/api.ts');

/** The generator's output for `document`, in a node process of its own (openapi-typescript loads ES modules). */
const generate = (document: unknown) =>
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/write-client-types.ts', '--print'], { cwd: ROOT, input: JSON.stringify(document) }).toString();

let served: { paths: Record<string, unknown> };
beforeAll(async () => {
  served = (await request(express().use(docsRouter())).get('/openapi.json').expect(200)).body as typeof served;
});

it('the committed client types are what the served OpenAPI document produces', () => {
  const expected = generate(served).split('\n');
  const committed = readFileSync(COMMITTED, 'utf8').split('\n');
  // The first line that differs, so the failure says where (`npm run client:types` fixes it).
  const at = expected.findIndex((line, i) => line !== committed[i]);
  const firstDifference = at === -1 && committed.length === expected.length ? null : { line: at + 1, expected: expected[at], committed: committed[at] };
  expect(firstDifference).toBeNull();
});

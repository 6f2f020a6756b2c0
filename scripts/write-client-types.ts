/**
 * `npm run client:types`: writes packages/client/src/generated/api.ts from the api's OpenAPI
 * document. With `--print`, prints the types for the document read from standard input instead
 * (test/ops/client-types.test.ts: openapi-typescript loads ES modules, which jest cannot require).
 */
import { writeFileSync } from 'node:fs';
import { text } from 'node:stream/consumers';
import { CLIENT_TYPES_FILE, renderClientTypes } from './client-types';

async function main(): Promise<void> {
  if (process.argv.includes('--print')) {
    process.stdout.write(await renderClientTypes(JSON.parse(await text(process.stdin)) as Record<string, unknown>));
    return;
  }
  writeFileSync(CLIENT_TYPES_FILE, await renderClientTypes());
  process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
}

void main();

/** `npm run client:types`: writes packages/client/src/generated/api.ts from the api's OpenAPI document. */
import { writeFileSync } from 'node:fs';
import { CLIENT_TYPES_FILE, renderClientTypes } from './client-types';

void renderClientTypes().then((text) => {
  writeFileSync(CLIENT_TYPES_FILE, text);
  process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
});

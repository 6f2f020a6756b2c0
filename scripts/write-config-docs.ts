/** `npm run docs:config`: writes docs/configuration.md and the README's must-set table from the schemas. */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { renderConfigurationDocs, renderReadme } from './config-docs';

const root = resolve(__dirname, '..');
writeFileSync(resolve(root, 'docs/configuration.md'), renderConfigurationDocs());
const readme = resolve(root, 'README.md');
writeFileSync(readme, renderReadme(readFileSync(readme, 'utf8')));
process.stdout.write('wrote docs/configuration.md and the README production table\n');

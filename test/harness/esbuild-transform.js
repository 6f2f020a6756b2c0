// @ts-check
/**
 * Jest's TypeScript transform: esbuild strips the types file by file (the type check is
 * `tsc --noEmit`, once, in `npm test`). It is what ts-jest's isolated mode does, at a fraction
 * of the cost per file, which the suite pays again in every worker and on every clean clone.
 */
const { createHash } = require('node:crypto');
const { transformSync, version } = require('esbuild');

/** @type {import('@jest/transform').SyncTransformer} */
module.exports = {
  canInstrument: false,
  getCacheKey(source, path) {
    return createHash('sha1').update(version).update('\0').update(path).update('\0').update(source).digest('hex');
  },
  process(source, path) {
    const { code, map } = transformSync(source, {
      loader: 'ts',
      format: 'cjs',
      target: 'node20',
      sourcefile: path,
      sourcemap: 'external',
      // Class fields as TypeScript's ES2022 target emits them (define semantics).
      tsconfigRaw: { compilerOptions: { useDefineForClassFields: true } },
    });
    return { code, map };
  },
};

// @ts-check
/**
 * Jest's order of test files, for its workers to finish together: longest first. Jest knows a
 * file's duration from its previous run (its cache); on a clean clone it falls back to file
 * size, which puts a short file with long tables before a cluster failover. A file that
 * declares a long timeout (`}, 300_000);`) is one that waits on real processes for long, so
 * files without a recorded duration are ordered by the longest timeout they declare, then size.
 */
const { readFileSync } = require('node:fs');
const TestSequencer = require('@jest/test-sequencer').default;

/** The longest timeout a file passes to it/beforeAll/afterAll (`}, 240_000);`), 0 when none. */
function declaredTimeout(path) {
  let longest = 0;
  for (const match of readFileSync(path, 'utf8').matchAll(/\}, (\d[\d_]*)\);/g)) longest = Math.max(longest, Number(match[1].replace(/_/g, '')));
  return longest;
}

class SlowFirstSequencer extends TestSequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const unknown = sorted.filter((test) => test.duration == null && !this.hasFailed(test));
    if (unknown.length === 0) return sorted;
    const weight = new Map(unknown.map((test) => [test, declaredTimeout(test.path)]));
    const byWeight = [...unknown].sort((a, b) => (weight.get(b) ?? 0) - (weight.get(a) ?? 0));
    // The files jest has no duration for keep their place as a block, reordered inside it.
    let next = 0;
    return sorted.map((test) => (weight.has(test) ? byWeight[next++] : test));
  }
}

module.exports = SlowFirstSequencer;

import { createLcg } from './lcg';

/** x' = (a x + c) mod 2^32 in exact BigInt arithmetic: an independent statement of the LCG. */
function* bigLcg(seed: bigint): Generator<number> {
  let x = seed % 2n ** 32n;
  for (;;) {
    x = (1103515245n * x + 12345n) % 2n ** 32n;
    yield Number(x) / 2 ** 32;
  }
}

describe('createLcg', () => {
  it('matches the exact integer recurrence for the seed run and for extreme seeds', () => {
    for (const seed of [20260730, 0, 1, 4294967295]) {
      const rnd = createLcg(seed);
      const reference = bigLcg(BigInt(seed));
      for (let i = 0; i < 1000; i += 1) expect(rnd()).toBe(reference.next().value);
    }
  });

  it('returns numbers in [0, 1) and takes the seed modulo 2^32 like the original', () => {
    const a = createLcg(2 ** 32 + 5);
    const b = createLcg(5);
    for (let i = 0; i < 100; i += 1) {
      const x = a();
      expect(x).toBe(b());
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThan(1);
    }
  });
});

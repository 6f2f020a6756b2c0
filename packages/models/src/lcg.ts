/**
 * The seed's random source: a 32-bit linear congruential generator with the classic
 * a = 1103515245, c = 12345, m = 2^32 constants. It is kept bit-for-bit because every
 * published number of the dispatch model is a function of this exact stream.
 */
export type Random = () => number;

export const LCG_MULTIPLIER = 1_103_515_245;
export const LCG_INCREMENT = 12_345;
const TWO_POW_32 = 4_294_967_296;

/** Returns a generator of numbers in [0, 1); the seed is taken modulo 2^32 like the original. */
export function createLcg(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    // Math.imul keeps the product in 32 bits (a plain multiply would lose low bits past 2^53).
    state = (Math.imul(state, LCG_MULTIPLIER) + LCG_INCREMENT) >>> 0;
    return state / TWO_POW_32;
  };
}

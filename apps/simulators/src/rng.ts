export { seededRandom } from '@notify/core';

/**
 * A stable number in [0, 1) for a string (FNV-1a): permanent errors are a property of the
 * address, so the same address always fails on that channel, run after run.
 */
export function stableUnit(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  return (hash >>> 0) / 4_294_967_296;
}

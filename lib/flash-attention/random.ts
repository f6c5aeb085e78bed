/**
 * A small seeded generator (mulberry32) so tests, the page and the bench draw
 * the same tensors on every run.
 * @param seed any integer
 * @returns a function returning uniform floats in [0, 1)
 * @example mulberry32(1)() // 0.6270739405881613
 * @see https://gist.github.com/tommyettinger/46a874533244883189143505d203312c (mulberry32)
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A Float32Array of `length` uniform values in [−amplitude, amplitude).
 * @param length number of elements, integer >= 0
 * @param seed seed of {@link mulberry32}
 * @param amplitude half-width of the range, default 1
 * @returns the tensor
 * @throws RangeError `length must be an integer >= 0, got -1`
 * @example randomTensor(2, 1).length // 2
 * @see {@link mulberry32}
 */
export function randomTensor(length: number, seed: number, amplitude = 1): Float32Array {
  if (!Number.isInteger(length) || length < 0) throw new RangeError(`length must be an integer >= 0, got ${length}`);
  const r = mulberry32(seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i++) out[i] = (2 * r() - 1) * amplitude;
  return out;
}

import { mulberry32 } from "../random.js";

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

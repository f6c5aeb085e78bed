/**
 * The reduction step of a collective: a received chunk is added into the local one.
 * Signature shared by the CPU path ({@link addChunk}) and the gpu.js kernel (reduceKernel.ts).
 * @see the sources of {@link addChunk}: Figueroa 1995, "When is double rounding innocuous?", SIGNUM Newsletter 30(3)
 */
export type ReduceFn = (local: Float32Array, received: Float32Array) => Float32Array;

/**
 * Elementwise float32 sum of a local and a received chunk: out[i] = fl32(local[i] + received[i]).
 * Storing a double sum of two float32 values into a Float32Array rounds once
 * to nearest-even, which equals the IEEE binary32 addition (binary64 has at
 * least 2·24+2 significand bits, so the double rounding is innocuous).
 *
 * @param local (n) the local chunk
 * @param received (n) the chunk that arrived
 * @returns (n) a new Float32Array with the sums; the inputs are not changed
 * @throws RangeError `received has length 2, expected 3 (the local chunk's length)`
 * @example addChunk(Float32Array.of(1, 2), Float32Array.of(0.5, -2)) // Float32Array [1.5, 0]
 * @see Figueroa 1995, "When is double rounding innocuous?", SIGNUM Newsletter 30(3)
 */
export function addChunk(local: Float32Array, received: Float32Array): Float32Array {
  if (received.length !== local.length) {
    throw new RangeError(`received has length ${received.length}, expected ${local.length} (the local chunk's length)`);
  }
  const out = new Float32Array(local.length);
  for (let i = 0; i < local.length; i++) out[i] = local[i] + received[i];
  return out;
}

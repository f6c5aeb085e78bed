/**
 * fast-check generators of attention problems (shape, inputs, masks) shared by
 * the tests and graders of this chapter.
 */
import * as fc from "fast-check";
import { randomTensor } from "./randomTensor.js";
import { mulberry32 } from "../random.js";
import type { AttentionOptions, AttentionShape } from "./shape.js";

/**
 * A random attention problem: shape, tensors and options.
 * @see Dao et al. 2022, FlashAttention, Algorithm 0 (the problem: Q, K, V and an optional mask); PyTorch scaled_dot_product_attention docs
 */
export interface AttentionCase {
  shape: AttentionShape;
  q: Float32Array;
  k: Float32Array;
  v: Float32Array;
  opts: AttentionOptions;
}

/**
 * Builds a problem from a shape and a seed: Q, K uniform in [−amplitude, amplitude),
 * V in [−1, 1), and a mask whose entries are kept with probability keepProb.
 * @param shape B, H, Nq, Nk, d
 * @param seed seed of the tensors and mask
 * @param opts causal, maskKeepProb (no mask if absent), amplitude of Q and K (default 1)
 * @returns the problem
 * @example makeCase({B: 1, H: 1, Nq: 2, Nk: 3, d: 4}, 1, {}).q.length // 8
 * @see referenceAttention
 * @throws {TypeError} `seed must be a finite integer, got 0.5` (from mulberry32)
 */
export function makeCase(shape: AttentionShape, seed: number, opts: { causal?: AttentionOptions["causal"]; maskKeepProb?: number; amplitude?: number }): AttentionCase {
  const { B, H, Nq, Nk, d } = shape;
  const amp = opts.amplitude ?? 1;
  const q = randomTensor(B * H * Nq * d, seed, amp);
  const k = randomTensor(B * H * Nk * d, seed + 1, amp);
  const v = randomTensor(B * H * Nk * d, seed + 2, 1);
  const o: AttentionOptions = {};
  if (opts.causal) o.causal = opts.causal;
  if (opts.maskKeepProb !== undefined) {
    const r = mulberry32(seed + 3);
    o.mask = Uint8Array.from({ length: Nq * Nk }, () => (r() < opts.maskKeepProb! ? 1 : 0));
  }
  return { shape, q, k, v, opts: o };
}

/**
 * Random attention problems with 1 ≤ B, H ≤ 2, 1 ≤ Nq, Nk ≤ maxN, 1 ≤ d ≤ maxD,
 * either causal alignment or none, and sometimes a random mask (with fully
 * masked rows likely when keepProb is small).
 * @param maxN largest sequence length
 * @param maxD largest head dimension
 * @returns the arbitrary
 * @example fc.sample(attentionCaseArb(8, 4), 1)[0].shape.Nq <= 8 // true
 * @see makeCase
 */
export function attentionCaseArb(maxN: number, maxD: number): fc.Arbitrary<AttentionCase> {
  return fc.record({
    B: fc.integer({ min: 1, max: 2 }), H: fc.integer({ min: 1, max: 2 }),
    Nq: fc.integer({ min: 1, max: maxN }), Nk: fc.integer({ min: 1, max: maxN }), d: fc.integer({ min: 1, max: maxD }),
    seed: fc.integer({ min: 0, max: 1e6 }),
    causal: fc.constantFrom(undefined, "bottom-right" as const, "top-left" as const),
    maskKeepProb: fc.option(fc.constantFrom(0.1, 0.5, 0.9), { nil: undefined }),
    amplitude: fc.constantFrom(1, 3),
  }).map(({ seed, causal, maskKeepProb, amplitude, ...shape }) => makeCase(shape, seed, { causal, maskKeepProb, amplitude }));
}

import { notImplemented } from "../harness/index.js";

/** One transformer layer's setting (Korthikanti et al. 2022 notation). */
export interface LayerSetting {
  /** s */
  seqLen: number;
  /** b */
  microBatch: number;
  /** h */
  hiddenSize: number;
  /** a */
  numHeads: number;
  /** t (>= 1, must divide numHeads) */
  tensorParallel: number;
  sequenceParallel: boolean;
  recompute: "none" | "selective" | "full";
}

/**
 * Exercise 2.3 — activation bytes of one transformer layer (16-bit activations).
 *
 * What: the bytes one GPU keeps for one GPT layer's backward pass, with
 * 16-bit activations and 1-byte dropout masks, after Korthikanti et al. 2022
 * (§4.1 and Table 2 of §5), for the setting {@link LayerSetting}: tensor
 * parallelism t, Megatron sequence parallelism, and recomputation none,
 * selective or full. The chapter's "Activations" section derives each term
 * and gives the table; use its notation (s, b, h, a, t).
 *
 * Convention: the exact count is a rational number whose only denominator is
 * t; return its ceiling, computed exactly (integers kept below 2^53, or BigInt),
 * so the result cannot depend on the order of the terms: a floating-point
 * sum rounded along the way can land one byte off.
 *
 * Errors (RangeError, the message names the field): `tensorParallel (7) must
 * divide numHeads (96)`; `seqLen must be an integer >= 1, got 0` (the same for
 * microBatch, hiddenSize, numHeads, tensorParallel: non-integers, 0, negatives, NaN, Infinity).
 *
 * Example: GPT-3 175B (s 2048, b 1, h 12288, a 96, t 1, no recomputation)
 * gives 2048·12288·(34 + 80) = 2,868,903,936 bytes.
 *
 * @param o the layer setting (do not modify it)
 * @returns bytes one GPU keeps for this layer's backward pass (an integer)
 * @throws RangeError as above
 */
export function activationBytesPerLayer(o: LayerSetting): number {
  return notImplemented("2.3");
}

import { notImplemented } from "../harness/index.js";

/** A model's layers as one GPU holds them (Korthikanti et al. 2022 notation). */
export interface LayerStack {
  /** b, sequences per micro-batch */
  microBatch: number;
  /** h */
  hiddenSize: number;
  /** a */
  numHeads: number;
  /** L, layers on this GPU */
  numLayers: number;
  /** t (>= 1, must divide numHeads) */
  tensorParallel: number;
  sequenceParallel: boolean;
  recompute: "none" | "selective" | "full";
}

/**
 * Exercise 2.3 — the longest sequence whose activations fit.
 *
 * What: the largest sequence length s (tokens) for which the activations that
 * one GPU stores for the backward pass of `numLayers` GPT layers take at most
 * `budgetBytes`: the inverse of the page's count of activation bytes.
 * Convention: the page's "Activations" section, after Korthikanti et al.
 * 2022 (§4.1, Table 2): 16-bit activations and 1-byte dropout masks; per
 * layer sbh(34 + 5as/h) with no parallelism; with tensor parallelism t the
 * 24 and the 5as/h are split by t and the 10 are not; sequence parallelism
 * splits the 10 too; selective recomputation drops the 5as/h term; full
 * recomputation keeps only the layer input, 2sbh, and 2sbh/t with sequence
 * parallelism (the input is split along s). The bytes of the L layers are
 * L times a layer's bytes, where a layer's bytes are the ceiling of the
 * exact count (a rational whose only denominator is t), rounded once, at the
 * end. The activations fit when their bytes are ≤ budgetBytes (equal fits).
 * Input: `o` (not modified); budgetBytes, a safe integer >= 0.
 * Output: s, an integer >= 0 (0 when not one token fits).
 * Errors (RangeError, the message names the field): `tensorParallel (7) must
 * divide numHeads (96)`; `numLayers must be an integer >= 1, got 0` (the same
 * for microBatch, hiddenSize, numHeads, tensorParallel); `budgetBytes must be
 * a safe integer >= 0, got -1`.
 * Example: GPT-3 175B's 96 layers (b 1, h 12288, a 96) with t = 8, sequence
 * parallelism and selective recomputation fit 80 GiB up to s = 17,133.
 *
 * @param o the layers on one GPU
 * @param budgetBytes bytes available for stored activations
 * @returns the longest sequence that fits
 * @throws RangeError as above
 */
export function longestSequence(o: LayerStack, budgetBytes: number): number {
  return notImplemented("2.3");
}

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
 * Korthikanti et al. 2022, Table 2, with s, b, h, a, t as in {@link LayerSetting}:
 * - no recomputation: sbh·(10 + 24/t + 5as/(ht)); with sequence parallelism sbh·(34/t + 5as/(ht));
 * - selective recomputation: the same without the 5as/(ht) term;
 * - full recomputation: only the layer's input, 2sbh (2sbh/t with sequence parallelism).
 * With t = 1 the first line is the classic sbh·(34 + 5as/h).
 * Return Math.ceil of the bytes, computed with products before divisions,
 * e.g. 10·sbh + 24·sbh/t + 5·a·s²·b/t: written as sbh·(34 + 5as/h), floating
 * point gives 116·(34 + 5/116) = 3949.0000000000005, whose ceiling is one
 * byte too many. Throw a RangeError whose message contains
 * "tensorParallel" when t does not divide numHeads.
 * Check yourself: GPT-3 175B (s 2048, b 1, h 12288, a 96, t 1) gives 2048·12288·114 bytes.
 *
 * @param o the layer setting (do not modify it)
 * @returns bytes one GPU keeps for this layer's backward pass (an integer)
 * @throws RangeError when tensorParallel does not divide numHeads
 */
export function activationBytesPerLayer(o: LayerSetting): number {
  return notImplemented("2.3");
}

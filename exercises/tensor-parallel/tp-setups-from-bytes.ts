import { notImplemented } from "../harness/index.js";

/** Bytes one rank sent in one pass, by collective. */
export interface CollectiveBytes { allReduce: number; allGather: number; reduceScatter: number }
/** Bytes one rank sent per layer and training step, forward and backward. */
export interface TpBytes { forward: CollectiveBytes; backward: CollectiveBytes }
/** One layer of the run: N = s·b tokens, h, the FFN size, the heads (a query heads, G KV heads of d features), bytes per activation element. */
export interface TpLayer { tokens: number; hiddenSize: number; ffnHiddenSize: number; numHeads: number; numKvHeads: number; headDim: number; bytesPerElement: number }
/** A tensor-parallel setup. */
export interface TpSetup { T: number; sequenceParallel: boolean; recompute: "none" | "full" }

/**
 * Exercise 6.2 — what did this run do? Read a profiler's byte counts.
 *
 * What: a profiler measured the bytes one rank of a Megatron-LM run sent per
 * transformer layer and training step, by pass (forward, backward) and by
 * collective (all-reduce, all-gather, reduce-scatter). Return every setup
 * that sends exactly those bytes: the tensor-parallel size T, whether
 * sequence parallelism was on, and whether the backward recomputed the whole
 * layer ("full") or not ("none": selective recomputation sends the same).
 * Convention: the page's "Communication per layer": ring collectives (an
 * all-reduce of n elements sends 2(T−1)/T·n per rank, an all-gather or a
 * reduce-scatter (T−1)/T·n), Megatron-LM's collectives (f and g; sequence
 * parallelism's all-gathers and reduce-scatters with the column layer's
 * input gathered again in backward; above G KV heads the all-gather of the
 * QKV activation, (N, (a + 2G)·d), and its reduce-scatter in backward), and
 * full recomputation running the layer's forward again, collectives
 * included, during backward. T ranges over 1 … maxT among the sizes
 * Megatron accepts for the layer ("Which T fit a model": T divides the heads
 * and the FFN, the KV heads are a multiple or a divisor of T, and above them
 * the fused QKV width splits into T blocks); sequence parallelism needs
 * T > 1 and tokens divisible by T. Bytes match to a relative 1e−9.
 * Input: `measured` (numbers >= 0); `layer`; `maxT` (default 64). Not modified.
 * Output: a new array of setups, sorted by T, then sequence parallelism off
 * before on, then "none" before "full"; at T = 1, nothing is sent and the
 * setup is { T: 1, sequenceParallel: false, recompute: "none" }; [] when no
 * setup sends these bytes.
 * Errors (RangeError): `measured.forward.allGather must be a finite number
 * >= 0, got -1` (each field by its path); `maxT must be an integer >= 1, got 0`.
 * Example: for the layer { tokens: 4, hiddenSize: 2, ffnHiddenSize: 8,
 * numHeads: 2, numKvHeads: 2, headDim: 1, bytesPerElement: 4 }, forward
 * all-reduce 64 bytes and backward all-reduce 128 (nothing else) give
 * [{ T: 2, sequenceParallel: false, recompute: "full" }].
 *
 * @param measured bytes one rank sent per layer and step
 * @param layer the layer's sizes
 * @param maxT the largest T to consider
 * @returns every setup that sends exactly these bytes
 * @throws {RangeError} as above
 */
export function tpSetupsFromBytes(measured: TpBytes, layer: TpLayer, maxT?: number): TpSetup[] {
  return notImplemented("6.2");
}

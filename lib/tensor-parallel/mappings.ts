import type { TpComm } from "./comm.js";

/**
 * The conjugate operators of Megatron-LM (Shoeybi et al. 2019, §3, Figure 3)
 * and the sequence-parallel pair (Korthikanti et al. 2022, §4.2.2), each as a
 * forward and a backward on T per-rank buffers.
 *
 * | operator | forward | backward | Megatron-LM mappings.py |
 * |---|---|---|---|
 * | f | identity | all-reduce | `copy_to_tensor_model_parallel_region` |
 * | g | all-reduce | identity | `reduce_from_tensor_model_parallel_region` |
 * | ḡ (sequence parallel) | all-gather (rows) | reduce-scatter | `gather_from_sequence_parallel_region` |
 * | ḡ′ (sequence parallel) | reduce-scatter (rows) | all-gather | `reduce_scatter_to_sequence_parallel_region` |
 *
 * f sits before the column-parallel layer of a block: every rank needs the whole
 * input, and the input's gradient is the sum of the T ranks' partial gradients.
 * g sits after the row-parallel layer: the output is the sum of T partial products.
 * @see Shoeybi et al. 2019, *Megatron-LM*, §3 and Figure 3; Megatron-LM megatron/core/tensor_parallel/mappings.py
 */
export const MAPPINGS = ["f", "g", "sp-gather", "sp-reduce-scatter"] as const;

/**
 * f, forward: the identity (each rank already holds the replicated input; a copy per rank is returned).
 * @param xs per-rank inputs, all equal
 * @returns new per-rank copies
 * @example fForward([new Float32Array([1])]) // [Float32Array [1]]
 * @see Megatron-LM mappings.py `_CopyToModelParallelRegion`
 */
export function fForward(xs: readonly Float32Array[]): Float32Array[] {
  return xs.map((x) => x.slice());
}

/**
 * f, backward: all-reduce of the per-rank partial input gradients.
 * @param comm the group (its log records one all-reduce, pass "backward", op "f")
 * @param dxs per-rank partial gradients, same length
 * @returns the sum, on every rank
 * @example fBackward(new TpComm(2), [new Float32Array([1]), new Float32Array([2])]) // [[3], [3]]
 * @see Megatron-LM mappings.py `_CopyToModelParallelRegion.backward`
 */
export function fBackward(comm: TpComm, dxs: readonly Float32Array[]): Float32Array[] {
  return comm.allReduce(dxs, "backward", "f");
}

/**
 * g, forward: all-reduce of the per-rank partial outputs.
 * @param comm the group (its log records one all-reduce, pass "forward", op "g")
 * @param ys per-rank partial outputs, same length
 * @returns the sum, on every rank
 * @example gForward(new TpComm(2), [new Float32Array([1]), new Float32Array([2])]) // [[3], [3]]
 * @see Megatron-LM mappings.py `_ReduceFromModelParallelRegion`
 */
export function gForward(comm: TpComm, ys: readonly Float32Array[]): Float32Array[] {
  return comm.allReduce(ys, "forward", "g");
}

/**
 * g, backward: the identity (the output gradient is already replicated).
 * @param dys per-rank output gradients, all equal
 * @returns new per-rank copies
 * @example gBackward([new Float32Array([1])]) // [Float32Array [1]]
 * @see Megatron-LM mappings.py `_ReduceFromModelParallelRegion.backward`
 */
export function gBackward(dys: readonly Float32Array[]): Float32Array[] {
  return dys.map((d) => d.slice());
}

/**
 * Sequence parallelism, entering a TP region: all-gather of the row blocks
 * (rank r holds rows r·N/T … (r+1)·N/T − 1 of an (N, cols) matrix).
 * Backward of the same operator is {@link spReduceScatter}.
 * @param comm the group
 * @param shards per-rank row blocks (N/T, cols), row-major
 * @param pass which pass issues it (default "forward")
 * @returns the (N, cols) matrix on every rank
 * @example spAllGather(new TpComm(2), [new Float32Array([1, 2]), new Float32Array([3, 4])]) // [[1, 2, 3, 4], [1, 2, 3, 4]]
 * @see Megatron-LM mappings.py `_GatherFromSequenceParallelRegion`; Korthikanti et al. 2022 §4.2.2
 */
export function spAllGather(comm: TpComm, shards: readonly Float32Array[], pass: "forward" | "backward" = "forward"): Float32Array[] {
  return comm.allGather(shards, pass, "sp-gather");
}

/**
 * Sequence parallelism, leaving a TP region: reduce-scatter of per-rank
 * partial (N, cols) matrices into row blocks (N/T, cols).
 * @param comm the group
 * @param parts per-rank partial sums (N, cols); N·cols divisible by T
 * @param pass which pass issues it (default "forward")
 * @returns rank r's row block of the sum
 * @throws RangeError `reduce-scatter needs a length divisible by T = 2, got 3`
 * @example spReduceScatter(new TpComm(2), [new Float32Array([1, 2]), new Float32Array([3, 4])]) // [[4], [6]]
 * @see Megatron-LM mappings.py `_ReduceScatterToSequenceParallelRegion`; Korthikanti et al. 2022 §4.2.2
 */
export function spReduceScatter(comm: TpComm, parts: readonly Float32Array[], pass: "forward" | "backward" = "forward"): Float32Array[] {
  return comm.reduceScatter(parts, pass, "sp-reduce-scatter");
}

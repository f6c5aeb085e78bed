import { notImplemented } from "../harness/index.js";

/** What is offloaded, and the cluster. */
export interface HostModelSetup {
  /** ZeRO stage, with `offload_optimizer` to the CPU. */
  stage: 2 | 3;
  /** Stage 3: `offload_param` to the CPU too (default false). */
  offloadParams?: boolean;
  /** Stage 3: the model built under `deepspeed.zero.Init` (default true, DeepSpeed's default). */
  zeroInit?: boolean;
  gpusPerNode: number;
  numNodes: number;
}

/**
 * Exercise 9.3 — how large a model can a node's host memory offload?
 *
 * What: the largest parameter count Ψ whose CPU memory, as DeepSpeed's own
 * estimator counts it, fits in `hostBytes` on a node: the inverse of the
 * page's "Host memory: the plain count and DeepSpeed's estimators".
 * Convention: the CPU side of `estimate_zero2_model_states_mem_needs`
 * (stage 2, cpu_offload) and `estimate_zero3_model_states_mem_needs`
 * (stage 3, optimizer offload, with or without parameter offload, with or
 * without zero.Init), at DeepSpeed commit edaa722, as the page describes them:
 * bytes per parameter × Ψ × `additional_buffer_factor` 1.5, computed in
 * floating point in the order Ψ × bytes × 1.5 and truncated to an integer
 * (Python's `int()`), with the page's max(4·…, …) terms. The estimators'
 * names: num_gpus_per_node = gpusPerNode, num_nodes = numNodes, total_gpus =
 * gpusPerNode × numNodes, and `gpus_factor = 1 / num_nodes`. Bytes per
 * parameter: stage 2, max(4 × total_gpus, 16); stage 3 with zero.Init,
 * 16 × gpus_factor; stage 3 without it, max(4 × num_gpus_per_node,
 * 16 × gpus_factor); with offloadParams the 16 becomes 18 in both
 * (estimate_zero3_model_states_mem_needs, deepspeed/runtime/zero/stage3.py,
 * the same at deepspeedai/DeepSpeed commit ea78ab6), the product taken in
 * Python's order Ψ × 18 × gpus_factor × 1.5. The states fit when those bytes
 * are ≤ hostBytes.
 * Input: hostBytes, a safe integer >= 0; `setup`.
 * Output: Ψ, an integer >= 0.
 * Errors (RangeError): `hostBytes must be a safe integer >= 0, got -1`;
 * `stage must be 2 or 3, got 1`; `offloadParams needs stage 3`;
 * `gpusPerNode must be an integer >= 1, got 0` (and numNodes).
 * Example: largestHostModel(2 ** 40, { stage: 3, gpusPerNode: 8, numNodes: 1 })
 * → 45,812,984,490 (1 TiB at 16 × 1.5 bytes per parameter).
 *
 * @param hostBytes host memory of one node
 * @param setup the stage, the offloads and the cluster
 * @returns the largest Ψ
 * @throws {RangeError} as above
 */
export function largestHostModel(hostBytes: number, setup: HostModelSetup): number {
  return notImplemented("9.3");
}

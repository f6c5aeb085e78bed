/**
 * The inverse of DeepSpeed's host-memory estimators: the largest model whose
 * offloaded model states a node's host memory holds, as the estimators count.
 */
import { estimateZero2ModelStatesMemNeeds, estimateZero3ModelStatesMemNeeds } from "../memory/deepspeedEstimators.js";

/** What is offloaded, and where: DeepSpeed's ZeRO stage with `offload_optimizer` to the CPU, and `offload_param` (stage 3 only). */
export interface HostModelSetup {
  stage: 2 | 3;
  /** Stage 3: parameters offloaded too (default false). */
  offloadParams?: boolean;
  /** Stage 3: the model built under deepspeed.zero.Init (default true). */
  zeroInit?: boolean;
  gpusPerNode: number;
  numNodes: number;
}

/**
 * The largest Ψ whose CPU bytes, as DeepSpeed's estimator computes them (Python's `int()` of Ψ × bytes per
 * parameter × 1.5), are at most `hostBytes`: the CPU side of estimate_zero2_model_states_mem_needs with
 * cpu_offload, or of estimate_zero3_model_states_mem_needs with optimizer offload (and parameter offload);
 * a search over Ψ, as the product rounds in floating point and its truncation decides at the boundary.
 * @param hostBytes host memory per node, a safe integer >= 0
 * @param setup the stage, the offloads and the cluster
 * @returns Ψ, an integer >= 0
 * @throws {RangeError} `hostBytes must be a safe integer >= 0, got -1`; `stage must be 2 or 3, got 1`; `offloadParams needs stage 3`;
 *   `gpusPerNode must be an integer >= 1, got 0`; `numNodes must be an integer >= 1, got 0`
 * @example largestHostModel(2 ** 40, { stage: 3, gpusPerNode: 8, numNodes: 1 }) // 45812984490: 16 bytes × 1.5 per parameter in 1 TiB
 * @see DeepSpeed deepspeed/runtime/zero/stage_1_and_2.py `estimate_zero2_model_states_mem_needs` and stage3.py `estimate_zero3_model_states_mem_needs` (edaa722)
 */
export function largestHostModel(hostBytes: number, setup: HostModelSetup): number {
  if (!Number.isSafeInteger(hostBytes) || hostBytes < 0) throw new RangeError(`hostBytes must be a safe integer >= 0, got ${hostBytes}`);
  if (setup.stage !== 2 && setup.stage !== 3) throw new RangeError(`stage must be 2 or 3, got ${setup.stage}`);
  if (setup.offloadParams && setup.stage !== 3) throw new RangeError("offloadParams needs stage 3");
  // the estimators name these num_gpus_per_node and num_nodes; the errors name this function's fields
  for (const k of ["gpusPerNode", "numNodes"] as const) if (!Number.isSafeInteger(setup[k]) || setup[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${setup[k]}`);
  const s = { numGpusPerNode: setup.gpusPerNode, numNodes: setup.numNodes };
  const cpu = (psi: number) => (setup.stage === 2
    ? estimateZero2ModelStatesMemNeeds(psi, true, s).cpuBytes
    : estimateZero3ModelStatesMemNeeds(psi, 0, { ...s, cpuOffload: true, cpuOffloadParams: setup.offloadParams ?? false, zeroInit: setup.zeroInit ?? true }).cpuBytes);
  let lo = 0, hi = 1;
  while (cpu(hi) <= hostBytes) { lo = hi; hi *= 2; }
  while (hi - lo > 1) { const mid = Math.floor((lo + hi) / 2); if (cpu(mid) <= hostBytes) lo = mid; else hi = mid; }
  return lo;
}

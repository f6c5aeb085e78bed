import type { ModelArch } from "../memory/index.js";
import type { Cluster } from "./clusterPresets.js";
import { DEFAULT_MICRO_BATCHES, layouts, type PlanSpace } from "./enumeratePlans.js";

/**
 * The global batches nearest to `globalBatch` for which the search has a well-formed plan: a
 * global batch B is one when some micro-batch b and layout's data-parallel size d make b·d divide
 * B (accumulation B/(b·d), as the frameworks require: DeepSpeed's train_batch_size =
 * micro × accumulation × d, Megatron's global batch a multiple of micro × d).
 * @param arch the model
 * @param cluster the cluster
 * @param globalBatch B, sequences per step
 * @param space the search's micro-batches, t and p (default: all)
 * @returns `{below, above}`: the largest valid batch ≤ B (null if none) and the smallest ≥ B
 * @throws nothing
 * @example nearestGlobalBatches(llama2_7b, clusterOf("a100-80gb", 3, 1, "net-200g", 2 ** 41), 64) // { below: 63, above: 66 }
 * @see DeepSpeed runtime/config.py (`_batch_assertion`); Megatron-LM megatron/core/num_microbatches_calculator.py at d98e8a6
 */
export function nearestGlobalBatches(arch: ModelArch, cluster: Cluster, globalBatch: number, space: PlanSpace = {}): { below: number | null; above: number } {
  const units = layouts(arch, cluster, space).flatMap(({ d }) => (space.microBatches ?? DEFAULT_MICRO_BATCHES).map((b) => b * d));
  let below: number | null = null, above = Infinity;
  for (const u of units) {
    const down = Math.floor(globalBatch / u) * u;
    if (down >= u && (below === null || down > below)) below = down;
    above = Math.min(above, Math.ceil(globalBatch / u) * u);
  }
  return { below, above };
}

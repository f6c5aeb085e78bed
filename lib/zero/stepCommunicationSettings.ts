/**
 * The data-parallel settings the page's communication table compares, each as `zeroStepCommunication` counts it
 * and as `trainZero` runs it on the simulated World.
 */
import type { StepCommunicationOptions } from "./zeroStepCommunication.js";
import type { ZeroConfig } from "./trainZero.js";

/** One row: its label, the closed form's options and the simulation's config. */
export interface StepCommunicationSetting {
  label: string;
  closed: Omit<StepCommunicationOptions, "dataParallel" | "numParams" | "gradAccumSteps">;
  simulated: Pick<ZeroConfig, "stage" | "noSync" | "coalesceGradReduction" | "multiRankBucketAllreduce">;
}

/**
 * DDP with and without `no_sync`, ZeRO-1/2 in the paper's design (reduce-scatter) and with DeepSpeed's default bucket
 * all-reduce, ZeRO-2/3 inside `coalesce_grad_reduction()`, and ZeRO-3: the rows of the page's table, in order.
 * @example STEP_COMMUNICATION_SETTINGS.length // 9
 * @see DeepSpeed edaa722 `runtime/engine.py` (`allreduce_gradients`, `no_sync`, `coalesce_grad_reduction`), `runtime/zero/config.py`
 *   (`use_multi_rank_bucket_allreduce`); transformers `trainer.py` (`no_sync` on all but the last micro-batch)
 */
export const STEP_COMMUNICATION_SETTINGS: readonly StepCommunicationSetting[] = [
  { label: "DDP with no_sync (HF Trainer); DeepSpeed stage 0", closed: { stage: 0 }, simulated: { stage: 0 } },
  { label: "DDP, all-reduce after every micro-batch", closed: { stage: 0, noSync: false }, simulated: { stage: 0, noSync: false } },
  { label: "ZeRO-1, the paper's design (use_multi_rank_bucket_allreduce: false)", closed: { stage: 1, multiRankBucketAllreduce: false }, simulated: { stage: 1 } },
  { label: "ZeRO-1, DeepSpeed's default", closed: { stage: 1 }, simulated: { stage: 1, multiRankBucketAllreduce: true } },
  { label: "ZeRO-2, the paper's design (use_multi_rank_bucket_allreduce: false)", closed: { stage: 2, multiRankBucketAllreduce: false }, simulated: { stage: 2 } },
  { label: "ZeRO-2, DeepSpeed's default", closed: { stage: 2 }, simulated: { stage: 2, multiRankBucketAllreduce: true } },
  { label: "ZeRO-2, DeepSpeed's default inside coalesce_grad_reduction()", closed: { stage: 2, coalesceGradReduction: true }, simulated: { stage: 2, multiRankBucketAllreduce: true, coalesceGradReduction: true } },
  { label: "ZeRO-3", closed: { stage: 3 }, simulated: { stage: 3 } },
  { label: "ZeRO-3 inside coalesce_grad_reduction()", closed: { stage: 3, coalesceGradReduction: true }, simulated: { stage: 3, coalesceGradReduction: true } },
];

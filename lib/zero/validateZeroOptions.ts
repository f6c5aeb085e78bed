/**
 * The options of the ZeRO simulation, named after DeepSpeed's
 * `zero_optimization` keys, and their checks.
 */
import type { TrainPrecision } from "../amp/castArray.js";

/** A ZeRO-DP stage: 0 = DDP, 1 = optimizer states, 2 = + gradients, 3 = + parameters partitioned. */
export type ZeroStage = 0 | 1 | 2 | 3;

/**
 * DeepSpeed's knobs, in elements (DeepSpeed counts these sizes in elements, not bytes).
 * @see DeepSpeed configuration docs, "ZeRO Optimizations for FP16 Training"
 */
export interface ZeroKnobs {
  /** Gradients reduced per collective (default 5e8 as DeepSpeed). */
  reduce_bucket_size: number;
  /** Stages 1–2: parameters all-gathered per collective after the step (default 5e8). */
  allgather_bucket_size: number;
  /** DeepSpeed overlaps the reduction with backward (default: true at stage 3, false below); here: a second bucket buffer is allocated (double buffering). */
  overlap_comm?: boolean;
  /** DeepSpeed copies gradients into a contiguous buffer; here: a bucket buffer of reduce_bucket_size elements is allocated. */
  contiguous_gradients: boolean;
  /** Stage 3: parameters of the next units gathered ahead of use (default 5e7). */
  stage3_prefetch_bucket_size: number;
  /** Stage 3: at most this many gathered parameters live at once, counting prefetched ones (default 1e9). */
  stage3_max_live_parameters: number;
  /** Stage 3: tensors with fewer elements than this stay whole on every rank (default 1e5). */
  stage3_param_persistence_threshold: number;
}

/**
 * DeepSpeed's defaults for the knobs (release 0.19.6, `deepspeed/runtime/zero/config.py`); `overlap_comm`
 * has none here because DeepSpeed's depends on the stage (true at stage 3 only: its validator `overlap_comm_valid`).
 * @example ZERO_DEFAULTS.reduce_bucket_size // 500000000
 * @see DeepSpeed `deepspeed/runtime/zero/config.py` (DeepSpeedZeroConfig field defaults)
 */
export const ZERO_DEFAULTS: Readonly<ZeroKnobs> = Object.freeze({
  reduce_bucket_size: 5e8,
  allgather_bucket_size: 5e8,
  contiguous_gradients: true,
  stage3_prefetch_bucket_size: 5e7,
  stage3_max_live_parameters: 1e9,
  stage3_param_persistence_threshold: 1e5,
});

/**
 * Checks the knobs a caller gives and fills in DeepSpeed's defaults (overlap_comm: true at stage 3 only).
 * @param knobs any subset of {@link ZeroKnobs}
 * @param stage the ZeRO stage (for overlap_comm's default)
 * @returns all knobs, overlap_comm decided
 * @throws RangeError naming the field: `reduce_bucket_size must be an integer >= 1 element, got 0`;
 *   `stage3_param_persistence_threshold must be an integer >= 0, got -1`; `overlap_comm must be true or false, got "yes"`
 * @example validateZeroKnobs({ reduce_bucket_size: 1000 }).allgather_bucket_size // 500000000
 * @see DeepSpeed configuration docs, "ZeRO Optimizations for FP16 Training"
 */
export function validateZeroKnobs(knobs: Partial<ZeroKnobs> = {}, stage: ZeroStage = 0): Required<ZeroKnobs> {
  const k = { ...ZERO_DEFAULTS, ...knobs, overlap_comm: knobs.overlap_comm ?? stage === 3 };
  for (const f of ["reduce_bucket_size", "allgather_bucket_size", "stage3_prefetch_bucket_size", "stage3_max_live_parameters"] as const) {
    if (!Number.isInteger(k[f]) || k[f] < 1) throw new RangeError(`${f} must be an integer >= 1 element, got ${String(k[f])}`);
  }
  if (!Number.isInteger(k.stage3_param_persistence_threshold) || k.stage3_param_persistence_threshold < 0) {
    throw new RangeError(`stage3_param_persistence_threshold must be an integer >= 0, got ${String(k.stage3_param_persistence_threshold)}`);
  }
  for (const f of ["overlap_comm", "contiguous_gradients"] as const) {
    if (typeof (k[f] as unknown) !== "boolean") throw new RangeError(`${f} must be true or false, got ${JSON.stringify(k[f])}`);
  }
  return k;
}

/**
 * Checks a stage.
 * @param stage 0, 1, 2 or 3
 * @returns the stage
 * @throws RangeError `stage must be 0, 1, 2 or 3, got 4`
 * @example checkStage(3) // 3
 * @see Rajbhandari et al. 2020, ZeRO, §5 (P_os, P_os+g, P_os+g+p)
 */
export function checkStage(stage: number): ZeroStage {
  if (![0, 1, 2, 3].includes(stage)) throw new RangeError(`stage must be 0, 1, 2 or 3, got ${String(stage)}`);
  return stage as ZeroStage;
}

/**
 * Bytes of one element in a training precision.
 * @param p "fp32" | "fp16" | "bf16"
 * @returns 4 or 2
 * @example elementBytes("bf16") // 2
 * @see IEEE 754-2008 (binary16, binary32); Kalamkar et al. 2019 (bfloat16)
 */
export function elementBytes(p: TrainPrecision): number {
  return p === "fp32" ? 4 : 2;
}

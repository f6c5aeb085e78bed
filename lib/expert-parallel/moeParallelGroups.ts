import { maskedRankGroups } from "./maskedRankGroups.js";

/**
 * The sizes of a Megatron-LM run with experts.
 * @see the sources of {@link moeParallelGroups}
 */
export interface MoeParallelSizes {
  /** All ranks. */
  worldSize: number;
  /** `--tensor-model-parallel-size` (attention and dense layers). */
  tp: number;
  /** `--pipeline-model-parallel-size`. */
  pp: number;
  /** `--context-parallel-size` (default 1). */
  cp?: number;
  /** `--expert-model-parallel-size`: ranks the experts of a layer are spread over. */
  ep: number;
  /** `--expert-tensor-parallel-size`: ranks each expert's matrices are split over (default tp). */
  etp?: number;
}

/**
 * Every group of a run, as lists of ranks.
 * @see the sources of {@link moeParallelGroups}
 */
export interface MoeParallelGroups {
  /** Data-parallel size of the dense part: world / (tp·cp·pp). */
  dp: number;
  /** Expert-data-parallel size: world / (etp·ep·pp). */
  expertDp: number;
  tensor: number[][];
  pipeline: number[][];
  /** Where the dense (attention, router, norms, embeddings) gradients are reduced: the data × context group. */
  dataContext: number[][];
  expertTensor: number[][];
  /** The all-to-all's group. */
  expert: number[][];
  /** Where the experts' gradients are reduced. */
  expertData: number[][];
}

/**
 * The process groups of a Megatron-LM run with experts. The dense layers use the grid tp-cp-dp-pp
 * (order `tp-cp-ep-dp-pp` with ep = 1); the experts reuse the same ranks on a second grid etp-ep-edp-pp,
 * so a layer's E experts are spread over `ep` ranks and each expert is replicated over the expert-data-parallel
 * group of world/(etp·ep·pp) ranks, whose all-reduce (or reduce-scatter) sums that expert's gradient.
 *
 * @param s sizes
 * @returns sizes dp, expertDp, and every group
 * @throws {RangeError} `worldSize (12) must be divisible by tp·cp·pp = 8`; `worldSize (8) must be divisible by etp·ep·pp = 16`;
 *   `tp must be an integer >= 1, got 0` (likewise pp, cp, ep, etp)
 * @example moeParallelGroups({ worldSize: 8, tp: 1, pp: 1, ep: 4 }).expertData // [[0, 4], [1, 5], [2, 6], [3, 7]]
 * @see Megatron-LM `megatron/core/parallel_state.py` at d98e8a6 (`initialize_model_parallel`: decoder and expert `RankGenerator`s, order "tp-cp-ep-dp-pp";
 *   expert_data_parallel_size = world_size // (expert_tensor_parallel_size · expert_model_parallel_size · pipeline_model_parallel_size));
 *   Rajbhandari et al. 2022, *DeepSpeed-MoE* (expert parallelism with expert data parallelism); DeepSpeed `deepspeed/moe/layer.py` (`MoE(ep_size=…)`)
 */
export function moeParallelGroups(s: MoeParallelSizes): MoeParallelGroups {
  const cp = s.cp ?? 1, etp = s.etp ?? s.tp;
  for (const [k, v] of [["worldSize", s.worldSize], ["tp", s.tp], ["pp", s.pp], ["cp", cp], ["ep", s.ep], ["etp", etp]] as const) {
    if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  }
  if (s.worldSize % (s.tp * cp * s.pp) !== 0) throw new RangeError(`worldSize (${s.worldSize}) must be divisible by tp·cp·pp = ${s.tp * cp * s.pp}`);
  if (s.worldSize % (etp * s.ep * s.pp) !== 0) throw new RangeError(`worldSize (${s.worldSize}) must be divisible by etp·ep·pp = ${etp * s.ep * s.pp}`);
  const dp = s.worldSize / (s.tp * cp * s.pp), expertDp = s.worldSize / (etp * s.ep * s.pp);
  const dense = [s.tp, cp, dp, s.pp], expert = [etp, s.ep, expertDp, s.pp];
  const d = (m: boolean[]) => maskedRankGroups(dense, m), e = (m: boolean[]) => maskedRankGroups(expert, m);
  return {
    dp, expertDp,
    tensor: d([true, false, false, false]), pipeline: d([false, false, false, true]), dataContext: d([false, true, true, false]),
    expertTensor: e([true, false, false, false]), expert: e([false, true, false, false]), expertData: e([false, false, true, false]),
  };
}

import { bytesPerParam, parameterCount, type ModelArch, type OptimizerName, type Precision } from "../memory/index.js";

/**
 * An MoE model's parameters, split as expert parallelism sees them.
 * @see the sources of {@link moeMemoryPerGpu}
 */
export interface MoeParameterSplit {
  /** All parameters (e.g. lib/memory's parameterCount(...).total). */
  totalParams: number;
  /** The routed experts of every layer (shared experts, if any, count as dense). */
  expertParams: number;
  /** E, routed experts per MoE layer. */
  numExperts: number;
  /** k, experts per token. */
  topK: number;
}

/**
 * The parameters one token goes through: the total minus the routed experts it is not sent to,
 * total − expertParams·(E − k)/E.
 * @param s the split
 * @returns a parameter count
 * @throws {RangeError} `expertParams (50) must be between 0 and totalParams (40)`; `topK must be an integer in [1, numExperts = 8], got 9`
 * @example activeParameters({ totalParams: 46702792704, expertParams: 45097156608, numExperts: 8, topK: 2 }) // 12879925248 (Mixtral-8x7B: "13B active")
 * @see Jiang et al. 2024, *Mixtral of Experts* §2 (47B parameters, 13B active per token); DeepSeek-AI 2024, *DeepSeek-V3 Technical Report* §1 (671B total, 37B activated)
 */
export function activeParameters(s: MoeParameterSplit): number {
  checkSplit(s);
  return s.totalParams - (s.expertParams * (s.numExperts - s.topK)) / s.numExperts;
}

/**
 * The split of a model read from its config.json, counted by lib/memory's parameterCount (the routed experts apart;
 * shared experts and routers count as dense).
 * @param arch the architecture from lib/memory's parseModelConfig (it must have experts)
 * @returns total and routed-expert parameters, E and k
 * @throws {RangeError} `the model has no routed experts (model_type "llama")`
 * @example moeParameterSplit(parseModelConfig(mixtral)).expertParams // 45097156608 = 32 layers × 8 × 3 × 4096 × 14336
 * @see lib/memory parameterCount (Hugging Face `modeling_mixtral.py`, `modeling_deepseek_v3.py`)
 */
export function moeParameterSplit(arch: ModelArch): MoeParameterSplit {
  if (!arch.moe || arch.moe.numExperts === 0) throw new RangeError(`the model has no routed experts (model_type ${JSON.stringify(arch.modelType)})`);
  const b = parameterCount(arch);
  return { totalParams: b.total, expertParams: b.experts, numExperts: arch.moe.numExperts, topK: arch.moe.topK };
}

function checkSplit(s: MoeParameterSplit): void {
  if (!(s.totalParams >= 0) || !Number.isFinite(s.totalParams)) throw new RangeError(`totalParams must be a finite number >= 0, got ${s.totalParams}`);
  if (!(s.expertParams >= 0 && s.expertParams <= s.totalParams)) throw new RangeError(`expertParams (${s.expertParams}) must be between 0 and totalParams (${s.totalParams})`);
  if (!Number.isInteger(s.numExperts) || s.numExperts < 1) throw new RangeError(`numExperts must be an integer >= 1, got ${s.numExperts}`);
  if (!Number.isInteger(s.topK) || s.topK < 1 || s.topK > s.numExperts) throw new RangeError(`topK must be an integer in [1, numExperts = ${s.numExperts}], got ${s.topK}`);
}

/**
 * A layout's sizes and the training precision.
 * @see the sources of {@link moeMemoryPerGpu}
 */
export interface MoeMemoryLayout {
  tp: number;
  pp: number;
  ep: number;
  /** Default tp. */
  etp?: number;
  /** Data-parallel size of the dense part (with context parallelism folded in). */
  dp: number;
  /** Megatron's distributed optimizer (ZeRO-1): optimizer states sharded over dp (dense) and over the expert-data-parallel group (experts). */
  distributedOptimizer?: boolean;
  precision?: Precision;
  optimizer?: OptimizerName;
}

/**
 * Model-state bytes per GPU of an MoE model, with its split.
 * @see the sources of {@link moeMemoryPerGpu}
 */
export interface MoeMemoryPerGpu {
  /** Dense parameters on one GPU: (total − experts)/(tp·pp). */
  denseParams: number;
  /** Expert parameters on one GPU: experts/(etp·ep·pp). */
  expertParams: number;
  /** Expert-data-parallel size: dp·tp/(etp·ep) (the same ranks regrouped). */
  expertDp: number;
  parameterBytes: number;
  gradientBytes: number;
  optimizerBytes: number;
  totalBytes: number;
}

/**
 * Weights, gradients and optimizer states per GPU of an MoE model under TP, PP, EP (and ETP) with data parallelism,
 * counting every part evenly over the stages and ranks that split it (embeddings and heads included in the dense part).
 * Dense parameters are split over tp·pp, experts over etp·ep·pp; with the distributed optimizer the dense
 * optimizer states are also divided by dp and the experts' by the expert-data-parallel size dp·tp/(etp·ep).
 *
 * @param s the model's split
 * @param l the layout (precision bf16 and AdamW by default: 2 + 2 + 12 bytes per parameter)
 * @returns the per-GPU counts and bytes
 * @throws {RangeError} `dp·tp (4) must be divisible by etp·ep = 8`; those of activeParameters' check
 * @example moeMemoryPerGpu({ totalParams: 46702792704, expertParams: 45097156608, numExperts: 8, topK: 2 }, { tp: 1, pp: 1, ep: 8, dp: 8 }).expertParams // 5637144576 (one expert per GPU)
 * @see Rajbhandari et al. 2019, *ZeRO* §3.1 (2 + 2 + 12 bytes per parameter); Megatron-LM parallel_state.py at d98e8a6 (expert-data-parallel size); lib/memory bytesPerParam
 */
export function moeMemoryPerGpu(s: MoeParameterSplit, l: MoeMemoryLayout): MoeMemoryPerGpu {
  checkSplit(s);
  const etp = l.etp ?? l.tp;
  for (const [k, v] of [["tp", l.tp], ["pp", l.pp], ["ep", l.ep], ["etp", etp], ["dp", l.dp]] as const) if (!Number.isInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  if ((l.dp * l.tp) % (etp * l.ep) !== 0) throw new RangeError(`dp·tp (${l.dp * l.tp}) must be divisible by etp·ep = ${etp * l.ep}`);
  const expertDp = (l.dp * l.tp) / (etp * l.ep);
  const denseParams = (s.totalParams - s.expertParams) / (l.tp * l.pp), expertParams = s.expertParams / (etp * l.ep * l.pp);
  const b = bytesPerParam(l.precision ?? "bf16", l.optimizer ?? "adamw");
  const shard = l.distributedOptimizer ? [l.dp, expertDp] : [1, 1];
  const parameterBytes = (denseParams + expertParams) * b.parameters, gradientBytes = (denseParams + expertParams) * b.gradients;
  const optimizerBytes = (denseParams / shard[0] + expertParams / shard[1]) * b.optimizerStates;
  return { denseParams, expertParams, expertDp, parameterBytes, gradientBytes, optimizerBytes, totalBytes: parameterBytes + gradientBytes + optimizerBytes };
}

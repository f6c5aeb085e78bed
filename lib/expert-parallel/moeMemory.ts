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

/**
 * What an MoE block (router, routed and shared experts) and, for comparison, the dense GPT MLP of
 * Korthikanti et al. keep for the backward pass on one GPU.
 * @see the sources of {@link moeActivationBytes}
 */
export interface MoeActivationBytes {
  /** The MoE block's stored tensors: the router's input and probabilities, the k·n dispatched token copies, their first GEMM's output and the activation's output, and the same for the shared experts. */
  moe: number;
  /** The 4h GPT MLP's share of Korthikanti et al.'s sbh·34: its input and dropout mask (2e + 1 bytes per token and channel, split by t only with sequence parallelism) and its two 4h-wide tensors (8e, split by t). */
  denseMlp: number;
}

/**
 * Activation bytes of one MoE block on one GPU, for a micro-batch of n tokens (b·s/C) under tensor (expert
 * tensor) parallelism t and balanced routing: each GPU's local experts hold k·n token copies in all, whatever
 * the expert-parallel size (the expert grid regroups the same tokens), so
 *
 *   moe = rows·h·e + rows·E·4 + k·n·(h + (u + 1)·I_e/t)·e + [I_s > 0] n·(h + (u + 1)·I_s/t)·e,
 *
 * with rows = n/t under sequence parallelism (else n), u = 2 for a gated MLP (gate and up) and 1 otherwise, fp32
 * router probabilities; beside the dense GPT MLP that chapter 2's per-layer count holds in its place,
 * denseMlp = rows·h·(2e + 1) + 8e·n·h/t (Korthikanti et al.: the MLP's input and dropout mask, and its two 4h-wide tensors).
 * The planner adds moe − denseMlp per MoE layer to chapter 2's estimate.
 * @param o n tokens, h, E, k, I_e, I_s, gated, t, sequence parallelism, bytes per element e
 * @returns {moe, denseMlp} in bytes
 * @throws {RangeError} `tokens must be an integer >= 1, got 0` (likewise hiddenSize, numExperts, tensorParallel); `topK must be an integer in [1, numExperts = 8], got 9`
 * @example moeActivationBytes({ tokens: 4096, hiddenSize: 4096, numExperts: 8, topK: 2, expertIntermediateSize: 14336, sharedIntermediateSize: 0, gated: true, tensorParallel: 1, sequenceParallel: false, bytesPerElement: 2 }).moe
 *   // 4096·4096·2 + 4096·8·4 + 2·4096·(4096 + 3·14336)·2 = 805,437,440: Mixtral's block keeps 2.3 × the dense MLP's 352,321,536
 * @see Korthikanti et al. 2022, §4.1 (the MLP's 19·sbh of the 34·sbh); Megatron-LM d98e8a6 `core/transformer/moe/experts.py` (`TEGroupedMLP`: fc1, activation, fc2
 *   over the permuted tokens) and `token_dispatcher.py` (the k copies gathered per expert); Jiang et al. 2024, *Mixtral of Experts*, §2
 */
export function moeActivationBytes(o: { tokens: number; hiddenSize: number; numExperts: number; topK: number; expertIntermediateSize: number; sharedIntermediateSize: number; gated: boolean; tensorParallel: number; sequenceParallel: boolean; bytesPerElement: number }): MoeActivationBytes {
  for (const [k, v] of [["tokens", o.tokens], ["hiddenSize", o.hiddenSize], ["numExperts", o.numExperts], ["tensorParallel", o.tensorParallel]] as const) {
    if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${k} must be an integer >= 1, got ${v}`);
  }
  if (!Number.isInteger(o.topK) || o.topK < 1 || o.topK > o.numExperts) throw new RangeError(`topK must be an integer in [1, numExperts = ${o.numExperts}], got ${o.topK}`);
  const { tokens: n, hiddenSize: h, topK: k, tensorParallel: t, bytesPerElement: e } = o;
  const rows = o.sequenceParallel ? n / t : n, u = o.gated ? 2 : 1;
  const shared = o.sharedIntermediateSize > 0 ? n * (h + ((u + 1) * o.sharedIntermediateSize) / t) * e : 0;
  const moe = rows * h * e + rows * o.numExperts * 4 + k * n * (h + ((u + 1) * o.expertIntermediateSize) / t) * e + shared;
  const denseMlp = rows * h * (2 * e + 1) + (8 * e * n * h) / t;
  return { moe: Math.ceil(moe), denseMlp: Math.ceil(denseMlp) };
}

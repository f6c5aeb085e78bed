import { estimateMemory, inFlightChunks, peakBytes, type MemoryEstimate, type ModelArch, type TransientLine } from "../memory/index.js";
import { moeActivationBytes, moeMemoryPerGpu, moeParameterSplit } from "../expert-parallel/moeMemory.js";
import { cpActivationBytes } from "../context-parallel/cpActivationBytes.js";
import { palmFlopsPerToken } from "../perf/index.js";
import { DELAYED_SCALING_DEFAULTS } from "../amp/fp8/DelayedScaling.js";
import { layoutRule } from "./layoutRule.js";
import { memo } from "./memo.js";
import { DEFAULT_MEMORY_HEADROOM, usableMemoryBytes } from "./memoryHeadroom.js";
import { megatronExtraStateBytes, planRuntime } from "./planRuntime.js";
import { parameterCount } from "../memory/index.js";
import { rejectionReason } from "./rejectionReason.js";
import type { Cluster } from "./clusterPresets.js";
import { planLabel, planSizes, type Plan, type Workload } from "./planLabel.js";
import { stepTime, type StepTime, type StepTimeOptions } from "./stepTime.js";

/**
 * Options of {@link evaluatePlan}: the step-time assumptions and a price.
 * @see {@link evaluatePlan}
 */
export interface EvaluateOptions extends StepTimeOptions {
  /** Price of one GPU-hour in any currency; gives `costPerMillionTokens` (omitted: no cost). */
  pricePerGpuHour?: number;
  /** Fraction of each GPU's memory kept free for the CUDA context, NCCL buffers and fragmentation (default {@link DEFAULT_MEMORY_HEADROOM}). */
  memoryHeadroom?: number;
}

/**
 * A plan, judged: memory per GPU (chapter 2's estimate with its peak), host
 * memory, step time by cause, throughput, MFU and cost, and why it was
 * rejected when it was.
 * @see {@link evaluatePlan}
 */
export interface PlanResult {
  plan: Plan;
  label: string;
  /** True when the plan runs: a framework accepts it, its peak fits the GPU and its offload fits the host. */
  fits: boolean;
  /** Why it does not run, e.g. "needs 93.10 GiB > 80.00 GiB per GPU: largest part activations (41.20 GiB)". */
  reason?: string;
  /** Bytes a GPU needs at its peak, minus the memory a plan may use (the GPU's less the headroom; > 0: over by that much). */
  overBytes: number;
  memory: MemoryEstimate;
  time: StepTime;
  /** Tokens per second, all GPUs. */
  tokensPerS: number;
  /** Model-FLOP utilisation as PaLM defines it (6N + 12·L·H·Q·T per token) at the predicted rate, over the cluster's dense 16-bit peak. */
  mfu: number;
  /** Cost of a million tokens at `pricePerGpuHour`, when given. */
  costPerMillionTokens?: number;
}

/**
 * Judges one plan on a cluster: memory from {@link estimateMemory} (the peak,
 * with the transient lines: the layer being recomputed, ZeRO-3's gathered
 * layer, the fp32 logits; under 1F1B the first stage keeps min(m, p)
 * micro-batches of its L/p layers: L layers' worth of one micro-batch when
 * m ≥ p, Korthikanti et al. 2022 §4.2.3; the interleaved schedule's chunks
 * when `runtime.virtualStages` > 1), Megatron's own gradient bytes for a plan it
 * runs (fp32 unless `runtime.gradReduceInBf16`), host memory for offload (each GPU's CPU bytes × GPUs per node),
 * step time from {@link stepTime}, and throughput. Rejected, with the reason:
 * pipeline parallelism with ZeRO-2 or ZeRO-3 (DeepSpeed's pipeline engine
 * refuses them: gradients must stay whole across micro-batches); a peak above
 * the GPU's memory less the headroom ({@link DEFAULT_MEMORY_HEADROOM}); offload above the host's memory.
 * MFU counts PaLM's model FLOPs (6N + 12·L·H·Q·T per token) over the dense 16-bit peak.
 * @param arch the model
 * @param plan the plan
 * @param cluster the cluster
 * @param workload batch, sequence length, precision and optimizer
 * @param options step-time assumptions and price (see {@link EvaluateOptions})
 * @returns the judged plan
 * @throws RangeError `pricePerGpuHour must be a finite number >= 0, got -1`, `memoryHeadroom must be a number in [0, 1), got 1`, and the errors of estimateMemory and stepTime
 * @example evaluatePlan(llama2_70b, plan, clusterPreset("8x-a100-80gb"), workload).reason
 *   // "needs 160.92 GiB > 72.00 GiB usable per GPU (80.00 GiB less 10 % headroom): largest part optimizer states (97.61 GiB)" (a ZeRO-0 plan)
 * @see Rajbhandari et al. 2019 (ZeRO); Korthikanti et al. 2022 (activations); DeepSpeed runtime/pipe/engine.py (the ZeRO-2/3 assertion)
 */
export function evaluatePlan(arch: ModelArch, plan: Plan, cluster: Cluster, workload: Workload, options: EvaluateOptions = {}): PlanResult {
  const price = options.pricePerGpuHour;
  if (price !== undefined && (!Number.isFinite(price) || price < 0)) throw new RangeError(`pricePerGpuHour must be a finite number >= 0, got ${price}`);
  const { d, t, p, C, ep, gpus: N } = planSizes(plan);
  const moe = arch.moe && arch.moe.numMoeLayers > 0 ? arch.moe : undefined;
  const rule = C > 1 || ep > 1 || plan.fp8 || moe ? layoutRule(plan, arch, cluster, workload) : undefined;
  if (rule) throw new RangeError(`${planLabel(plan)}: ${rule}`);
  // Plans that differ only in FP8 or the experts' split share chapter 2's estimate (beyondThreeD adds what they change).
  const megatron = planRuntime(plan, options.runtime) === "megatron";
  // Interleaving's memory only where Megatron runs it (m a multiple of p); a searched plan with the run's v that is not is sized as 1F1B.
  const v = p > 1 && plan.gradAccum % p === 0 ? options.runtime?.virtualStages ?? 1 : 1;
  const estimate = memo(options.cache, `mem ${t} ${p} ${C} ${N} ${plan.zeroStage} ${plan.offload} ${plan.microBatch} ${plan.recompute} ${plan.sequenceParallel} ${plan.attention} ${plan.gradAccum} ${megatron} ${v}`, () => estimateMemory({
    arch, numGpus: N, zeroStage: plan.zeroStage, offload: plan.offload, precision: workload.precision, optimizer: workload.optimizer,
    microBatch: plan.microBatch, seqLen: workload.seqLen / C, recompute: plan.recompute, tensorParallel: t,
    pipelineParallel: p, sequenceParallel: plan.sequenceParallel, attention: plan.attention,
    microBatches: plan.gradAccum, loss: megatron ? "megatron" : "hf",
    ...(v > 1 ? { pipelineSchedule: "interleaved" as const, virtualStages: v } : { pipelineSchedule: "1f1b" as const }),
  }));
  // Expert parallelism: the experts split over t·ep·p, their optimizer states over the expert-data-parallel group (chapter 14).
  const split = ep > 1 ? moeMemoryPerGpu(memo(options.cache, "moe split", () => moeParameterSplit(arch)), { tp: t, pp: p, ep, dp: d * C, distributedOptimizer: plan.zeroStage === 1, precision: workload.precision, optimizer: workload.optimizer }) : undefined;
  const paramsOnGpu = split ? Math.ceil(split.denseParams + split.expertParams) : Math.ceil(memo(options.cache, "parameters", () => parameterCount(arch)).total / (t * p));
  // Megatron-LM keeps fp32 main gradients (and, for fp16, fp32 copies at the step): its own bytes per parameter.
  const extra = megatron ? paramsOnGpu * megatronExtraStateBytes(workload.precision, plan.zeroStage, d * C, options.runtime?.gradReduceInBf16) : 0;
  let memory: MemoryEstimate = extra === 0 ? estimate : {
    ...estimate,
    perGpu: { ...estimate.perGpu, gradients: estimate.perGpu.gradients + extra, total: estimate.perGpu.total + extra },
    peak: { ...estimate.peak, total: estimate.peak.total + extra },
  };
  if (moe || plan.fp8 || split || C > 1) memory = beyondThreeD(arch, plan, workload, estimate, { extra, paramsOnGpu, split, allGather: options.runtime?.cpCommType === "allgather" });
  const headroom = options.memoryHeadroom ?? DEFAULT_MEMORY_HEADROOM;
  const overBytes = memory.peak.total - usableMemoryBytes(cluster.gpu.memoryBytes, headroom);
  const reason = rejectionReason(plan, memory, cluster, headroom);
  const tokens = workload.globalBatch * workload.seqLen;
  const judge = () => {
    const time = stepTime(arch, plan, cluster, workload, options);
    const tokensPerS = tokens / time.totalS;
    const mfu = (palmFlopsPerToken(arch, workload.seqLen) * tokensPerS) / (N * cluster.gpu.peakFlops16);
    return { time, tokensPerS, mfu, ...(price !== undefined ? { costPerMillionTokens: ((N * price) / 3600) * time.totalS * (1e6 / tokens) } : {}) };
  };
  const head = { plan, label: planLabel(plan), fits: reason === undefined, ...(reason ? { reason } : {}), overBytes, memory };
  if (reason === undefined) return { ...head, ...judge() };
  // A rejected plan is timed only when someone reads its time (a search rejects most plans and reads none of their times).
  let judged: ReturnType<typeof judge> | undefined;
  const lazy = <K extends keyof ReturnType<typeof judge>>(k: K) => ({ enumerable: true, get: () => (judged ??= judge())[k] });
  return Object.defineProperties(head, {
    time: lazy("time"), tokensPerS: lazy("tokensPerS"), mfu: lazy("mfu"), ...(price !== undefined ? { costPerMillionTokens: lazy("costPerMillionTokens") } : {}),
  }) as PlanResult;
}

/** Bytes of one amax history: Transformer Engine's DelayedScaling keeps amax_history_len (1024) fp32 values per FP8 tensor (chapter 4's recipe). */
const AMAX_HISTORY_BYTES = DELAYED_SCALING_DEFAULTS.amaxHistoryLen * 4;

/**
 * The memory of a plan beyond chapter 2's 3D estimate: the experts' model states under expert parallelism
 * (lib/expert-parallel's moeMemoryPerGpu), the MoE blocks' activations in place of the dense MLP's (moeActivationBytes),
 * context parallelism's key/value buffers while a layer's attention runs (lib/context-parallel's cpActivationBytes; chapter 2's
 * estimate already holds the rank's s/C tokens), and FP8's weight copies with their amax histories.
 */
function beyondThreeD(arch: ModelArch, plan: Plan, workload: Workload, estimate: MemoryEstimate, o: { extra: number; paramsOnGpu: number; split?: ReturnType<typeof moeMemoryPerGpu>; allGather: boolean }): MemoryEstimate {
  const { t, p, C } = planSizes(plan);
  const e = workload.precision === "fp32" ? 4 : 2;
  let { parameters, gradients, optimizerStates, activations } = estimate.perGpu;
  if (o.split) ({ parameterBytes: parameters, gradientBytes: gradients, optimizerBytes: optimizerStates } = o.split);
  [parameters, gradients, optimizerStates] = [parameters, gradients + o.extra, optimizerStates].map(Math.ceil);
  const lines: TransientLine[] = [...estimate.peak.lines];
  const m = arch.moe;
  if (m && m.numMoeLayers > 0) {
    const a = moeActivationBytes({
      tokens: (plan.microBatch * workload.seqLen) / C, hiddenSize: arch.hiddenSize, numExperts: m.numExperts, topK: m.topK, expertIntermediateSize: m.expertIntermediateSize,
      sharedIntermediateSize: m.sharedIntermediateSize, gated: arch.mlp === "gated", tensorParallel: t, sequenceParallel: plan.sequenceParallel, bytesPerElement: e,
    });
    const delta = a.moe - a.denseMlp;
    if (plan.recompute === "full") {
      lines.push({ name: "moeExperts", bytes: delta, phase: "layer", what: "the experts' token copies in the layer being recomputed, beyond a dense MLP's", source: "lib/expert-parallel moeActivationBytes (Korthikanti et al. 2022 §4.1 for the dense MLP it replaces)" });
    } else {
      const inFlight = inFlightChunks({ numLayers: arch.numLayers, pipelineParallel: p, microBatches: plan.gradAccum }) * (arch.numLayers / p);
      activations += Math.ceil(delta * inFlight * (m.numMoeLayers / arch.numLayers));
    }
  }
  if (C > 1) {
    const kv = cpActivationBytes({
      seqLen: workload.seqLen, cpSize: C, microBatch: plan.microBatch, hiddenSize: arch.hiddenSize, numHeads: arch.numHeads, numKvHeads: arch.numKvHeads,
      tensorParallel: t, sequenceParallel: plan.sequenceParallel, scheme: o.allGather ? "all-gather" : "ring", bytesPerElement: e as 2 | 4,
    }).kvBuffers;
    lines.push({ name: "contextParallelKv", bytes: kv, phase: "layer", what: o.allGather ? "the whole sequence's K and V, gathered for one layer's attention" : "the ring's K and V blocks in flight during one layer's attention", source: "lib/context-parallel cpActivationBytes (Liu et al. 2023 §3; Dubey et al. 2024 §3.3.2)" });
  }
  if (plan.fp8) {
    const linears = (arch.numLayers / p) * (4 + (m && m.numMoeLayers > 0 ? 2 * m.numExperts / (plan.expertParallel ?? 1) : 0));
    lines.push({
      name: "fp8Weights", bytes: 2 * o.paramsOnGpu + 3 * linears * AMAX_HISTORY_BYTES, phase: "always",
      what: "FP8 copies of the weights (the value and its transpose) and the amax histories",
      source: "Transformer Engine d0067d0 `pytorch/module/linear.py` (weights quantized row- and column-wise, cached across micro-batches) and `common/recipe` (amax_history_len 1024)",
    });
  }
  const total = parameters + gradients + optimizerStates + estimate.perGpu.gradientBuckets + activations;
  return { ...estimate, perGpu: { ...estimate.perGpu, parameters, gradients, optimizerStates, activations, total }, peak: { lines, total: peakBytes(total, lines) } };
}

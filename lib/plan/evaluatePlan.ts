import { estimateMemory, type MemoryEstimate, type ModelArch } from "../memory/index.js";
import { palmFlopsPerToken } from "../perf/index.js";
import { DEFAULT_MEMORY_HEADROOM, usableMemoryBytes } from "./memoryHeadroom.js";
import { megatronExtraStateBytes, planRuntime } from "./planRuntime.js";
import { parameterCount } from "../memory/index.js";
import { rejectionReason } from "./rejectionReason.js";
import type { Cluster } from "./clusterPresets.js";
import { planLabel, type Plan, type Workload } from "./planLabel.js";
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
 * m ≥ p, Korthikanti et al. 2022 §4.2.3), host memory for offload (each GPU's CPU bytes × GPUs per node),
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
  const N = plan.dataParallel * plan.tensorParallel * plan.pipelineParallel;
  const estimate = estimateMemory({
    arch, numGpus: N, zeroStage: plan.zeroStage, offload: plan.offload, precision: workload.precision, optimizer: workload.optimizer,
    microBatch: plan.microBatch, seqLen: workload.seqLen, recompute: plan.recompute, tensorParallel: plan.tensorParallel,
    pipelineParallel: plan.pipelineParallel, sequenceParallel: plan.sequenceParallel, attention: plan.attention,
    microBatches: plan.gradAccum, pipelineSchedule: "1f1b",
  });
  // Megatron-LM keeps fp32 main gradients (and, for fp16, fp32 copies at the step): its own bytes per parameter.
  const extra = planRuntime(plan) === "megatron"
    ? Math.ceil(parameterCount(arch).total / (plan.tensorParallel * plan.pipelineParallel)) * megatronExtraStateBytes(workload.precision, plan.zeroStage, plan.dataParallel) : 0;
  const memory: MemoryEstimate = extra === 0 ? estimate : {
    ...estimate,
    perGpu: { ...estimate.perGpu, gradients: estimate.perGpu.gradients + extra, total: estimate.perGpu.total + extra },
    peak: { ...estimate.peak, total: estimate.peak.total + extra },
  };
  const time = stepTime(arch, plan, cluster, workload, options);
  const tokens = workload.globalBatch * workload.seqLen;
  const tokensPerS = tokens / time.totalS;
  const mfu = (palmFlopsPerToken(arch, workload.seqLen) * tokensPerS) / (N * cluster.gpu.peakFlops16);
  const headroom = options.memoryHeadroom ?? DEFAULT_MEMORY_HEADROOM;
  const overBytes = memory.peak.total - usableMemoryBytes(cluster.gpu.memoryBytes, headroom);
  const reason = rejectionReason(plan, memory, cluster, headroom);
  return {
    plan, label: planLabel(plan), fits: reason === undefined, ...(reason ? { reason } : {}), overBytes, memory, time, tokensPerS, mfu,
    ...(price !== undefined ? { costPerMillionTokens: ((N * price) / 3600) * time.totalS * (1e6 / tokens) } : {}),
  };
}

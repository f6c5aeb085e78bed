import { achievedLink, collectiveCost, groupCostModel, membersPerNode, messageTimeS, NCCL_BUS_EFFICIENCY, type NodeTopology } from "../collectives/index.js";
import { parameterCount, type ModelArch } from "../memory/index.js";
import { ADAM_BYTES_PER_ELEMENT, DEFAULT_OFFLOAD_HARDWARE } from "../offload/index.js";
import { memoryTimeS } from "../perf/index.js";
import type { Cluster } from "./clusterPresets.js";
import { dataParallelCommTime } from "./dataParallelCommTime.js";
import { gpuRoofline } from "../perf/gpuPresets.js";
import { microBatchTime, type TensorParallelRuntime } from "./microBatchTime.js";
import type { Plan, Workload } from "./planLabel.js";
import { planRuntime } from "./planRuntime.js";

/**
 * The framework switches that change a step's time. Defaults: what the planner's exports
 * write (DeepSpeed `overlap_comm: true`; Megatron `--overlap-grad-reduce --overlap-param-gather`)
 * and the frameworks' own defaults otherwise.
 * @see {@link stepTime}
 */
export interface RuntimeOptions extends Partial<TensorParallelRuntime> {
  /** Gradient reduction overlaps backward (default true). */
  overlapGradReduce?: boolean;
  /** Megatron's distributed optimizer hides the parameter all-gather behind the next forward (default true; DeepSpeed has no such option). */
  overlapParamGather?: boolean;
  /** DeepSpeed's `use_multi_rank_bucket_allreduce` (default true). */
  bucketAllReduce?: boolean;
  /** Megatron `--grad-reduce-in-bf16` (default false: bf16 gradients are reduced in fp32). */
  gradReduceInBf16?: boolean;
  /** Megatron's pipeline scatter/gather: each tensor-parallel rank sends 1/t of the stage boundary over its own adapter (default true). */
  scatterGather?: boolean;
  /** v, model chunks per pipeline rank (interleaved 1F1B); default 1. */
  virtualStages?: number;
  /** Hidden and attention dropout (default: the GPT-2 family has it). */
  dropout?: boolean;
}

/**
 * Assumptions of the step-time model that are not properties of the hardware.
 * @see {@link stepTime}
 */
/**
 * SMs a network collective holds while it runs beside compute: DeepSeek-V3 dedicates 20 of the
 * H800's 132 SMs to communication and finds them "sufficient to fully utilize the bandwidths of IB
 * and NVLink"; NCCL likewise runs one thread block per channel. Hidden data-parallel communication
 * is therefore not free: the compute beside it runs on the other SMs. (Tensor-parallel overlaps
 * inside a node are left out: NeMo's tuned Transformer Engine configurations give them from 2 to 24
 * SMs, too wide a range to pick from.)
 * @example OVERLAP_COMM_SMS / 132 // 0.15 of an H100
 * @see DeepSeek-AI 2024, *DeepSeek-V3 Technical Report*, §3.2.2 and §3.5.1; NCCL documentation (`NCCL_MAX_NCHANNELS`: a channel is a CUDA block);
 *   NVIDIA NeMo `nemo/collections/llm/recipes/tp_overlap_configs/userbuffers.py` (num_sm of the tensor-parallel overlaps)
 */
export const OVERLAP_COMM_SMS = 20;

export interface StepTimeOptions {
  /** Parameters per second that one GPU's share of the host updates with CPU Adam (default: chapter 9's host rate, shared by the GPUs of a node). */
  cpuAdamParamsPerS?: number;
  /** Framework switches ({@link RuntimeOptions}). */
  runtime?: RuntimeOptions;
}

/**
 * One optimizer step of a plan, in seconds, by cause. `totalS` is the sum of the exposed
 * terms (`computeS + recomputeS + tpCommS + pipelineBubbleS + pipelineSendS + dataParallelExposedS
 * + overlapSlowdownS + optimizerS + offloadExposedS`); the `…HiddenS` terms are the parts hidden behind computation.
 * @see {@link stepTime}
 */
export interface StepTime {
  /** Forward and backward kernels of the busiest stage, all micro-batches, on the roofline. */
  computeS: number;
  /** The recomputed forward. */
  recomputeS: number;
  /** Tensor-parallel collectives on the critical path (exposed), and those hidden behind GEMMs. */
  tpCommS: number;
  tpCommHiddenS: number;
  /** The 1F1B bubble: (p − 1)/v micro-batch times. */
  pipelineBubbleS: number;
  /** Point-to-point sends on the critical path. */
  pipelineSendS: number;
  /** Data-parallel (ZeRO) collectives that no computation hides, and those hidden. */
  dataParallelExposedS: number;
  dataParallelHiddenS: number;
  /** The optimizer step on the GPU (memory-bound: bytes of the states over HBM bandwidth). */
  optimizerS: number;
  /** Compute slowed while hidden data-parallel collectives hold {@link OVERLAP_COMM_SMS} of the GPU's SMs: hidden time × SMs held / SMs. */
  overlapSlowdownS: number;
  /** Offload transfers and the CPU optimizer step that nothing hides, and those hidden. */
  offloadExposedS: number;
  offloadHiddenS: number;
  totalS: number;
  /** Where `computeS` goes. */
  breakdown: { gemmS: number; attentionS: number; elementwiseS: number; edgeS: number };
  /** What the model assumes, one sentence each, for the page and the CLI. */
  assumptions: string[];
}

const commBytes = (w: Workload) => (w.precision === "fp32" ? 4 : 2);

/** Optimizer bytes read and written per parameter on the GPU: Adam 28 (chapter 9), SGD with momentum 20, SGD 12. */
const OPTIMIZER_BYTES = { adamw: ADAM_BYTES_PER_ELEMENT, "sgd-momentum": 20, sgd: 12 } as const;

/**
 * Time of one optimizer step of a plan, by cause:
 * - compute of the busiest pipeline stage on the GPU's roofline (GEMMs by shape, attention
 *   eager or fused, elementwise kernels by bytes: {@link microBatchTime}), m micro-batches;
 * - tensor-parallel collectives with Megatron's overlaps, on the tensor-parallel group's link;
 * - 1F1B: a bubble of (p − 1)/v micro-batch times; Megatron's blocking send/receive pairs,
 *   two boundary messages per micro-batch on the critical path (v > 1: the fill and drain only,
 *   as `overlap_p2p_comm` overlaps the rest), each 1/t of the boundary tensor with scatter/gather;
 * - data parallelism as DeepSpeed (or DDP) or Megatron-LM issues it (lib/plan's planRuntime: Megatron for t·p > 1 with ZeRO-0 or 1)
 *   ({@link dataParallelCommTime}), on the group's link across nodes by lib/collectives'
 *   multi-adapter rule; Megatron reduces bf16 gradients in fp32;
 * - hidden data-parallel collectives slow the compute beside them by the SMs they hold ({@link OVERLAP_COMM_SMS});
 * - the optimizer step over HBM, and ZeRO-Offload's PCIe transfers and CPU Adam.
 * Links run at NCCL's measured bus efficiency (lib/collectives NCCL_BUS_EFFICIENCY).
 * @param arch the model
 * @param plan the plan
 * @param cluster links and GPU
 * @param workload batch, sequence length, precision and optimizer
 * @param options see {@link StepTimeOptions}
 * @returns the breakdown; all terms finite and ≥ 0
 * @throws RangeError `cpuAdamParamsPerS must be a finite number > 0, got -1`, `runtime.virtualStages must be an integer >= 1 dividing the stage's layers, got 3`,
 *   and the errors of the functions it calls
 * @example stepTime(llama2_7b, plan, clusterPreset("8x-a100-80gb"), { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" }).totalS
 * @see Narayanan et al. 2021 (§3: the costs of p, t, d; §4.1 scatter/gather); Megatron-LM d98e8a6 `core/pipeline_parallel/schedules.py`
 *   (`forward_backward_pipelining_without_interleaving`: blocking `send_forward_recv_backward`); Ren et al. 2021, ZeRO-Offload §4
 */
export function stepTime(arch: ModelArch, plan: Plan, cluster: Cluster, workload: Workload, options: StepTimeOptions = {}): StepTime {
  const cpuAdam = options.cpuAdamParamsPerS ?? DEFAULT_OFFLOAD_HARDWARE.cpuAdamElementsPerS / cluster.gpusPerNode;
  if (!Number.isFinite(cpuAdam) || cpuAdam <= 0) throw new RangeError(`cpuAdamParamsPerS must be a finite number > 0, got ${cpuAdam}`);
  const rt = options.runtime ?? {};
  const { dataParallel: d, tensorParallel: t, pipelineParallel: p, gradAccum: m } = plan;
  const v = rt.virtualStages ?? 1;
  if (!Number.isSafeInteger(v) || v < 1 || (v > 1 && Math.ceil(arch.numLayers / p) % v !== 0)) {
    throw new RangeError(`runtime.virtualStages must be an integer >= 1 dividing the stage's layers, got ${v}`);
  }
  const megatron = planRuntime(plan) === "megatron";
  const G = cluster.gpusPerNode;
  const topology: NodeTopology = {
    gpusPerNode: G,
    intraNode: achievedLink(cluster.intraNode, NCCL_BUS_EFFICIENCY.nvlink),
    interNodePerGpu: achievedLink(cluster.interNode, NCCL_BUS_EFFICIENCY.network),
  };
  const e = commBytes(workload);
  const r = gpuRoofline(cluster.gpu, workload.precision);
  const tpLink = groupCostModel(topology, t, membersPerNode(t, 1, G));
  const mb = microBatchTime(arch, plan, workload.seqLen, r, tpLink, { tpBackwardOverlap: rt.tpBackwardOverlap ?? true, tpCommOverlap: rt.tpCommOverlap ?? false, balanceEdgeStages: rt.balanceEdgeStages ?? false }, { bytesPerElement: e, dropout: rt.dropout });
  const perMicroBatchS = mb.computeS + mb.recomputeS + mb.tpExposedS;

  // Pipeline: the bubble and the boundary messages.
  const pipelineBubbleS = p > 1 ? ((p - 1) / v) * perMicroBatchS : 0;
  let pipelineSendS = 0;
  if (p > 1) {
    const shard = t > 1 && (plan.sequenceParallel || (rt.scatterGather ?? true)) ? t : 1;
    const crossNodes = t * d >= G;
    const link = crossNodes ? topology.interNodePerGpu : topology.intraNode;
    const boundary = plan.microBatch * workload.seqLen * arch.hiddenSize;
    let msg = messageTimeS((boundary * e) / shard, link);
    if (shard > 1 && !plan.sequenceParallel) msg += collectiveCost("all-gather", boundary, t, tpLink, e).timeS; // rematerialised over NVLink
    pipelineSendS = (v > 1 ? 2 * (p - 1) : 2 * (m + p - 1)) * msg;
  }

  // Data parallelism on this stage's parameters.
  const psi = parameterCount(arch).total;
  const shardParams = Math.ceil(psi / (t * p));
  let dataParallelExposedS = 0, dataParallelHiddenS = 0;
  if (d > 1) {
    const dpLink = groupCostModel(topology, d, membersPerNode(d, t, G));
    const gradFp32 = megatron && workload.precision === "bf16" && !(rt.gradReduceInBf16 ?? false);
    ({ exposedS: dataParallelExposedS, hiddenS: dataParallelHiddenS } = dataParallelCommTime({
      zeroStage: plan.zeroStage, shardParams, dataParallel: d, microBatches: m, link: dpLink, bytesPerElement: e,
      backwardPerMicroBatchS: mb.backwardS, busyPerMicroBatchS: perMicroBatchS,
      bucketAllReduce: megatron && plan.zeroStage === 1 ? false : rt.bucketAllReduce ?? true,
      overlapGradReduce: rt.overlapGradReduce ?? true,
      overlapParamGather: megatron && plan.zeroStage === 1 ? rt.overlapParamGather ?? true : false,
      gradBytesPerElement: gradFp32 ? 4 : e,
    }));
  }

  // The optimizer step on the GPU (or ZeRO-Offload's on the host).
  const partition = Math.ceil(plan.zeroStage >= 1 ? shardParams / d : shardParams);
  const optimizerS = plan.offload === "none" ? memoryTimeS(partition * OPTIMIZER_BYTES[workload.optimizer], r) : 0;
  let offloadExposedS = 0, offloadHiddenS = 0;
  if (plan.offload !== "none") {
    const gradsDown = messageTimeS(partition * e, cluster.pcie);
    const hiddenGrads = Math.min(gradsDown, mb.backwardS);
    offloadHiddenS += hiddenGrads;
    offloadExposedS += gradsDown - hiddenGrads + partition / cpuAdam + messageTimeS(partition * e, cluster.pcie);
    if (plan.offload === "optimizer+params") {
      const perMicroBatch = 2 * messageTimeS(partition * e, cluster.pcie);
      const hidden = Math.min(perMicroBatch, perMicroBatchS);
      offloadHiddenS += m * hidden;
      offloadExposedS += m * (perMicroBatch - hidden);
    }
  }

  const computeS = m * mb.computeS, recomputeS = m * mb.recomputeS, tpCommS = m * mb.tpExposedS;
  const tpCommHiddenS = m * mb.tpHiddenS;
  const overlapSlowdownS = (dataParallelHiddenS * OVERLAP_COMM_SMS) / cluster.gpu.numSMs;
  const totalS = computeS + recomputeS + tpCommS + pipelineBubbleS + pipelineSendS + dataParallelExposedS + overlapSlowdownS + optimizerS + offloadExposedS;
  const scale = (x: number) => m * x;
  const assumptions = [
    `GEMMs at ${(r.matmulEfficiency * 100).toFixed(1)} % of the ${+(r.peakFlops / 1e12).toFixed(1)} TFLOP/s peak times their wave efficiency; ${plan.attention === "flash" ? `FlashAttention at ${(r.attentionEfficiency * 100).toFixed(0)} %` : "eager attention's s × s scores through HBM"}; elementwise kernels at the HBM bandwidth`,
    ...(t > 1 ? [`tensor-parallel ${rt.tpBackwardOverlap ?? true ? "backward collectives overlapped with the weight-gradient GEMMs" : "collectives not overlapped"}${rt.tpCommOverlap ? ", forward ones with --tp-comm-overlap" : ", forward ones exposed"}`] : []),
    ...(p > 1 ? [`1F1B${v > 1 ? ` interleaved over ${v} chunks` : ""}; bubble ${v > 1 ? "(p − 1)/v" : "p − 1"} micro-batch times; ${v > 1 ? "sends overlapped but for fill and drain" : "blocking send/receive pairs"}`] : []),
    ...(d > 1 ? [`data-parallel group ${t * d <= G ? "inside a node" : `across nodes (${membersPerNode(d, t, G)} per node, ${membersPerNode(d, t, G)} adapters)`}; ${megatron ? "Megatron-LM" : t * p > 1 ? "Megatron-DeepSpeed (ZeRO)" : "DeepSpeed/DDP"} collectives${megatron && workload.precision === "bf16" && !(rt.gradReduceInBf16 ?? false) ? ", gradients reduced in fp32" : ""}`] : []),
    ...(plan.offload !== "none" ? [`CPU Adam at ${cpuAdam.toExponential(1)} parameters/s per GPU; no delayed parameter update`] : []),
  ];
  return {
    computeS, recomputeS, tpCommS, tpCommHiddenS, pipelineBubbleS, pipelineSendS, dataParallelExposedS, dataParallelHiddenS,
    overlapSlowdownS, optimizerS, offloadExposedS, offloadHiddenS, totalS,
    breakdown: { gemmS: scale(mb.breakdown.gemmS), attentionS: scale(mb.breakdown.attentionS), elementwiseS: scale(mb.breakdown.elementwiseS), edgeS: scale(mb.breakdown.edgeS) },
    assumptions,
  };
}

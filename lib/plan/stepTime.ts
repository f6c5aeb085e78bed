import { achievedLink, collectiveCost, groupCostModel, membersPerNode, messageTimeS, NCCL_BUS_EFFICIENCY, type NodeTopology } from "../collectives/index.js";
import { parameterCount, type ModelArch } from "../memory/index.js";
import { ADAM_BYTES_PER_ELEMENT, DEFAULT_OFFLOAD_HARDWARE } from "../offload/index.js";
import { memoryTimeS } from "../perf/index.js";
import type { Cluster } from "./clusterPresets.js";
import { dataParallelCommTime } from "./dataParallelCommTime.js";
import { expertParallelCommTime } from "./expertParallelCommTime.js";
import { contextParallelCommTime, type CpCommType } from "./contextParallelCommTime.js";
import { gpuFp8Roofline, gpuRoofline } from "../perf/gpuPresets.js";
import { microBatchTime, type TensorParallelRuntime } from "./microBatchTime.js";
import { planSizes, type Plan, type Workload } from "./planLabel.js";
import { planRuntime } from "./planRuntime.js";
import { memo } from "./memo.js";

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
  /** Megatron `--cp-comm-type`: "p2p" (the ring, its default) or "allgather" (Llama 3's). */
  cpCommType?: CpCommType;
  /** The framework the plan was read from (a Megatron-LM launch); default: {@link planRuntime}'s guess from t, p and the ZeRO stage. */
  framework?: "megatron" | "deepspeed";
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
  /**
   * A memo of the parts many plans share (one micro-batch's time, the data-parallel collectives), for a search that
   * judges thousands of plans of ONE model, cluster, workload and set of options: searchPlans makes one per search.
   * Results are the same with or without it.
   */
  cache?: Map<string, unknown>;
}

/**
 * One optimizer step of a plan, in seconds, by cause. `totalS` is the sum of the exposed
 * terms (`computeS + recomputeS + tpCommS + pipelineBubbleS + pipelineSendS + dataParallelExposedS
 * + overlapSlowdownS + optimizerS + offloadExposedS + contextParallelCommS + expertParallelCommS`); the `…HiddenS` terms are the parts hidden behind computation.
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
  /** Context parallelism's key/value exchange that attention does not hide, and the part it hides (0 with C = 1). */
  contextParallelCommS: number;
  contextParallelHiddenS: number;
  /** Expert parallelism's all-to-alls (dispatch and combine, forward and backward), on the critical path (0 with ep = 1). */
  expertParallelCommS: number;
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
  const megatron = planRuntime(plan, rt) === "megatron";
  const { C, ep } = planSizes(plan);
  const dC = d * C; // the data-parallel group of the dense parameters: Megatron reduces over DP × CP
  const G = cluster.gpusPerNode;
  const topology: NodeTopology = {
    gpusPerNode: G,
    intraNode: achievedLink(cluster.intraNode, NCCL_BUS_EFFICIENCY.nvlink),
    interNodePerGpu: achievedLink(cluster.interNode, NCCL_BUS_EFFICIENCY.network),
  };
  const e = commBytes(workload);
  const r = gpuRoofline(cluster.gpu, workload.precision);
  const tpLink = groupCostModel(topology, t, membersPerNode(t, 1, G));
  const mbKey = `${t} ${p} ${C} ${ep} ${plan.microBatch} ${plan.sequenceParallel} ${plan.attention} ${plan.recompute} ${plan.fp8 ?? false}`;
  const mb = memo(options.cache, `mb ${mbKey}`, () => microBatchTime(arch, plan, workload.seqLen, r, tpLink,
    { tpBackwardOverlap: rt.tpBackwardOverlap ?? true, tpCommOverlap: rt.tpCommOverlap ?? false, balanceEdgeStages: rt.balanceEdgeStages ?? false },
    { bytesPerElement: e, dropout: rt.dropout, cache: options.cache, ...(plan.fp8 ? { fp8: gpuFp8Roofline(cluster.gpu) } : {}) }));
  const tokens = (plan.microBatch * workload.seqLen) / C; // one rank's tokens per micro-batch

  // Expert parallelism: chapter 14's all-to-alls, on the critical path.
  const expertPerMicroBatchS = ep > 1 && mb.moeLayers > 0 ? memo(options.cache, `ep ${mbKey}`, () => expertParallelCommTime({
    tokens: Math.ceil(plan.sequenceParallel ? tokens / t : tokens), hiddenSize: arch.hiddenSize, topK: arch.moe!.topK, expertParallel: ep, stride: t,
    topology, moeLayers: mb.moeLayers, bytesPerElement: e, fullRecompute: plan.recompute === "full",
  }).perMicroBatchS) : 0;
  // Context parallelism: chapter 13's ring (or all-gather) on the CP group, t ranks apart (Megatron's order tp-cp-…).
  const cpPerNode = membersPerNode(C, t, G);
  const cp = C > 1 ? memo(options.cache, `cp ${mbKey}`, () => contextParallelCommTime({
    commType: rt.cpCommType ?? "p2p", seqLen: workload.seqLen, contextParallel: C, microBatch: plan.microBatch, numHeads: arch.numHeads, numKvHeads: arch.numKvHeads,
    headDim: arch.headDim, tensorParallel: t, bytesPerElement: e, attentionFlopsPerS: r.peakFlops * r.attentionEfficiency,
    ringLink: C <= cpPerNode ? topology.intraNode : topology.interNodePerGpu, groupLink: groupCostModel(topology, C, cpPerNode),
    layers: mb.layers, fullRecompute: plan.recompute === "full", cache: options.cache,
  })) : undefined;
  const contextPerMicroBatchS = cp?.exposedS ?? 0, contextHiddenPerMicroBatchS = cp?.hiddenS ?? 0;
  const perMicroBatchS = mb.computeS + mb.recomputeS + mb.tpExposedS + contextPerMicroBatchS + expertPerMicroBatchS;

  // Pipeline: the bubble and the boundary messages (Megatron's order tp-cp-ep-dp-pp: stages t·C·d ranks apart).
  const pipelineBubbleS = p > 1 ? ((p - 1) / v) * perMicroBatchS : 0;
  let pipelineSendS = 0;
  if (p > 1) {
    const shard = t > 1 && (plan.sequenceParallel || (rt.scatterGather ?? true)) ? t : 1;
    const crossNodes = t * dC >= G;
    const link = crossNodes ? topology.interNodePerGpu : topology.intraNode;
    const boundary = tokens * arch.hiddenSize;
    let msg = messageTimeS((boundary * e) / shard, link);
    if (shard > 1 && !plan.sequenceParallel) msg += collectiveCost("all-gather", boundary, t, tpLink, e).timeS; // rematerialised over NVLink
    pipelineSendS = (v > 1 ? 2 * (p - 1) : 2 * (m + p - 1)) * msg;
  }

  // Data parallelism on this stage's parameters: the dense part over d·C ranks, the experts (under expert
  // parallelism) over their expert-data-parallel group of d·C/ep ranks, ep·t apart (lib/expert-parallel moeParallelGroups).
  const count = memo(options.cache, "parameters", () => parameterCount(arch));
  const experts = ep > 1 ? count.experts : 0;
  const shardParams = Math.ceil((count.total - experts) / (t * p));
  const expertShard = Math.ceil(experts / (t * ep * p)), expertDp = dC / ep;
  let dataParallelExposedS = 0, dataParallelHiddenS = 0;
  if (dC > 1) {
    const dpLink = groupCostModel(topology, dC, membersPerNode(dC, t, G));
    const gradFp32 = megatron && workload.precision === "bf16" && !(rt.gradReduceInBf16 ?? false);
    ({ exposedS: dataParallelExposedS, hiddenS: dataParallelHiddenS } = memo(options.cache, `dp ${mbKey} ${plan.zeroStage} ${d} ${m} ${megatron}`, () => dataParallelCommTime({
      zeroStage: plan.zeroStage, shardParams, dataParallel: dC, microBatches: m, link: dpLink, bytesPerElement: e,
      backwardPerMicroBatchS: mb.backwardS, busyPerMicroBatchS: perMicroBatchS,
      bucketAllReduce: megatron && plan.zeroStage === 1 ? false : rt.bucketAllReduce ?? true,
      overlapGradReduce: rt.overlapGradReduce ?? true,
      overlapParamGather: megatron && plan.zeroStage === 1 ? rt.overlapParamGather ?? true : false,
      gradBytesPerElement: gradFp32 ? 4 : e,
      ...(experts > 0 ? { expertGroup: { shardParams: expertShard, dataParallel: expertDp, link: groupCostModel(topology, expertDp, membersPerNode(expertDp, t * ep, G)) } } : {}),
    })));
  }

  // The optimizer step on the GPU (or ZeRO-Offload's on the host).
  const partition = Math.ceil(plan.zeroStage >= 1 ? shardParams / dC : shardParams) + (experts > 0 ? Math.ceil(plan.zeroStage >= 1 ? expertShard / expertDp : expertShard) : 0);
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

  // FP8: Transformer Engine casts each weight once per step (the first micro-batch), to the FP8 value and its transpose.
  const fp8CastS = plan.fp8 ? memoryTimeS((shardParams + expertShard) * (e + 2), r) : 0;
  const computeS = m * mb.computeS + fp8CastS, recomputeS = m * mb.recomputeS, tpCommS = m * mb.tpExposedS;
  const tpCommHiddenS = m * mb.tpHiddenS;
  const contextParallelCommS = m * contextPerMicroBatchS, contextParallelHiddenS = m * contextHiddenPerMicroBatchS, expertParallelCommS = m * expertPerMicroBatchS;
  const overlapSlowdownS = ((dataParallelHiddenS + contextParallelHiddenS) * OVERLAP_COMM_SMS) / cluster.gpu.numSMs;
  const totalS = computeS + recomputeS + tpCommS + pipelineBubbleS + pipelineSendS + dataParallelExposedS + overlapSlowdownS + optimizerS + offloadExposedS + contextParallelCommS + expertParallelCommS;
  const scale = (x: number) => m * x;
  const dpPerNode = membersPerNode(dC, t, G);
  // Written out only when read (a search judges thousands of plans and reads the best plan's).
  const assumptions = (): string[] => [
    `GEMMs at ${(r.matmulEfficiency * 100).toFixed(1)} % of the ${+(r.peakFlops / 1e12).toFixed(1)} TFLOP/s peak times their wave efficiency; ${plan.attention === "flash" ? `FlashAttention at ${(r.attentionEfficiency * 100).toFixed(0)} %` : "eager attention's s × s scores through HBM"}; elementwise kernels at the HBM bandwidth`,
    ...(plan.fp8 ? [`FP8 linears (Transformer Engine's recipe) at ${(cluster.gpu.fp8MatmulEfficiency ?? cluster.gpu.matmulEfficiency).fraction * 100 > 0 ? ((cluster.gpu.fp8MatmulEfficiency ?? cluster.gpu.matmulEfficiency).fraction * 100).toFixed(1) : "?"} % of the ${+(cluster.gpu.peakFlops.fp8! / 1e12).toFixed(1)} TFLOP/s FP8 peak${cluster.gpu.fp8MatmulEfficiency ? "" : " (the bf16 fraction: no FP8 measurement)"}, every GEMM input and output gradient cast, weights cast once per step`] : []),
    ...(t > 1 ? [`tensor-parallel ${rt.tpBackwardOverlap ?? true ? "backward collectives overlapped with the weight-gradient GEMMs" : "collectives not overlapped"}${rt.tpCommOverlap ? ", forward ones with --tp-comm-overlap" : ", forward ones exposed"}`] : []),
    ...(p > 1 ? [`1F1B${v > 1 ? ` interleaved over ${v} chunks` : ""}; bubble ${v > 1 ? "(p − 1)/v" : "p − 1"} micro-batch times; ${v > 1 ? "sends overlapped but for fill and drain" : "blocking send/receive pairs"}`] : []),
    ...(dC > 1 ? [`data-parallel group${C > 1 ? ` (d × C = ${d} × ${C})` : ""} ${t * dC <= G ? "inside a node" : `across nodes (${dpPerNode} per node, ${dpPerNode} adapters)`}; ${megatron ? "Megatron-LM" : t * p > 1 ? "Megatron-DeepSpeed (ZeRO)" : "DeepSpeed/DDP"} collectives${megatron && workload.precision === "bf16" && !(rt.gradReduceInBf16 ?? false) ? ", gradients reduced in fp32" : ""}`] : []),
    ...(C > 1 ? [`context parallelism over ${C} ranks (${cpPerNode} per node), ${rt.cpCommType === "allgather" ? "K and V all-gathered before attention, exposed" : "ring attention on a zig-zag split, K and V sent behind the blocks' compute"}`] : []),
    ...(ep > 1 ? [`experts over ${ep} ranks (${membersPerNode(ep, t, G)} per node), balanced routing, dispatch and combine all-to-alls exposed; expert gradients reduced over ${expertDp} expert-data-parallel rank${expertDp > 1 ? "s" : ""}`] : []),
    ...(plan.offload !== "none" ? [`CPU Adam at ${cpuAdam.toExponential(1)} parameters/s per GPU; no delayed parameter update`] : []),
  ];
  let written: string[] | undefined;
  return {
    computeS, recomputeS, tpCommS, tpCommHiddenS, pipelineBubbleS, pipelineSendS, dataParallelExposedS, dataParallelHiddenS,
    overlapSlowdownS, optimizerS, offloadExposedS, offloadHiddenS, contextParallelCommS, contextParallelHiddenS, expertParallelCommS, totalS,
    breakdown: { gemmS: scale(mb.breakdown.gemmS), attentionS: scale(mb.breakdown.attentionS), elementwiseS: scale(mb.breakdown.elementwiseS) + fp8CastS, edgeS: scale(mb.breakdown.edgeS) },
    get assumptions() { return (written ??= assumptions()); },
  };
}

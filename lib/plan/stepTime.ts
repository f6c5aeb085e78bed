import { collectiveCost, messageTimeS, type CostModel } from "../collectives/index.js";
import { parameterCount, trainingFlopsPerToken, type ModelArch } from "../memory/index.js";
import { dataParallelCommTime } from "./dataParallelCommTime.js";
import { DEFAULT_OFFLOAD_HARDWARE } from "../offload/offloadHardware.js";
import { closedFormBubble } from "../pipeline-parallel/index.js";
import { tpCommPerLayer } from "../tensor-parallel/index.js";
import type { Cluster } from "./clusterPresets.js";
import type { Plan, Workload } from "./planLabel.js";

/**
 * Assumptions of the step-time model that are not properties of the hardware.
 * @see {@link stepTime}
 */
export interface StepTimeOptions {
  /**
   * Fraction of the GPU's peak that the model's matmuls reach while nothing
   * waits (default 0.6, an assumption: Narayanan et al. 2021 measure 43–52 % of
   * peak for whole steps in Table 1, bubble and communication included).
   */
  computeEfficiency?: number;
  /**
   * Parameters per second that one GPU's share of the host updates with CPU
   * Adam (default: chapter 9's host rate, `DEFAULT_OFFLOAD_HARDWARE.cpuAdamElementsPerS`,
   * a memory-bandwidth ceiling, shared by the GPUs of a node; the offload page measures your own).
   */
  cpuAdamParamsPerS?: number;
}

/**
 * One optimizer step of a plan, in seconds, by cause. `totalS` is the sum of
 * the exposed terms (`computeS + recomputeS + tpCommS + pipelineBubbleS +
 * pipelineSendS + dataParallelExposedS + offloadExposedS`); the `…HiddenS` terms
 * are the parts hidden behind computation, listed so that nothing is counted twice or lost.
 * @see {@link stepTime}
 */
export interface StepTime {
  /** Model FLOPs (6Ψ per token) at the assumed efficiency, per GPU. */
  computeS: number;
  /** The extra forward of full recomputation (2Ψ per token). */
  recomputeS: number;
  /** Tensor-parallel collectives (on the critical path: between dependent matmuls). */
  tpCommS: number;
  /** The 1F1B bubble: (p − 1)/m of the busy time. */
  pipelineBubbleS: number;
  /** Point-to-point sends of the pipeline fill and drain (the rest overlaps). */
  pipelineSendS: number;
  /** Data-parallel (ZeRO) collectives that no computation hides. */
  dataParallelExposedS: number;
  /** Data-parallel collectives hidden behind backward (or, with ZeRO-3 prefetch, behind each micro-batch). */
  dataParallelHiddenS: number;
  /** Offload transfers and the CPU optimizer step that nothing hides. */
  offloadExposedS: number;
  offloadHiddenS: number;
  totalS: number;
  /** What the model assumes, one sentence each, for the page and the CLI. */
  assumptions: string[];
}

function checkFraction(name: string, v: number): number {
  if (!Number.isFinite(v) || v <= 0 || v > 1) throw new RangeError(`${name} must be in (0, 1], got ${v}`);
  return v;
}

/** Bytes of one gradient or 16-bit parameter element as DeepSpeed communicates it. */
const commBytes = (w: Workload) => (w.precision === "fp32" ? 4 : 2);

/**
 * The data-parallel group spans t·d consecutive ranks (Megatron orders ranks
 * tensor-parallel first, then data-parallel, then pipeline), so it stays inside
 * a node while t·d ≤ GPUs per node.
 */
function dataParallelLink(plan: Plan, c: Cluster): CostModel {
  return plan.tensorParallel * plan.dataParallel <= c.gpusPerNode ? c.intraNode : c.interNode;
}

/**
 * Time of one optimizer step of a plan, by cause, from the course's cost
 * models: compute from FLOPs per token (chapter 2's 6Ψ, 8Ψ with full
 * recomputation) at an assumed efficiency; tensor-parallel collectives per
 * layer and micro-batch from chapter 6 ({@link tpCommPerLayer}), timed with the
 * α-β model of chapter 5 ({@link collectiveCost}) on the intra-node link and
 * not overlapped; the 1F1B bubble from chapter 7 ({@link closedFormBubble});
 * pipeline sends of the fill and drain; ZeRO's data-parallel collectives
 * (stage 0–1: one all-reduce of the 16-bit gradients per step, hidden behind
 * the last micro-batch's backward as DDP's buckets hide it; stage 2: a
 * reduce-scatter per micro-batch behind its backward and one all-gather of the
 * parameters after the step; stage 3: per micro-batch an all-gather before
 * forward, one before backward and a reduce-scatter, each hidden behind that
 * micro-batch's computation as far as it lasts — ZeRO §7's 3Ψ per pass);
 * offload as PCIe transfers of the 16-bit gradients and parameters plus the
 * CPU Adam step (no delayed update), the gradient transfer hidden behind backward.
 * Every exposed term adds to `totalS`; every hidden term is reported beside it.
 * @param arch the model (Ψ, layers, hidden size)
 * @param plan the plan (see {@link Plan})
 * @param cluster links and GPU peak
 * @param workload batch and sequence length
 * @param options see {@link StepTimeOptions}
 * @returns the breakdown; all terms finite and ≥ 0
 * @throws RangeError `computeEfficiency must be in (0, 1], got 0`, `cpuAdamParamsPerS must be a finite number > 0, got -1`,
 *   and the errors of the cost functions it calls
 * @example stepTime(llama2_7b, { dataParallel: 8, tensorParallel: 1, pipelineParallel: 1, zeroStage: 2, offload: "none", recompute: "full", sequenceParallel: false, attention: "flash", microBatch: 4, gradAccum: 2 }, clusterPreset("8x-a100-80gb"), { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" }).totalS
 * @see Narayanan et al. 2021 (§3: the three parallelisms' costs); Rajbhandari et al. 2019, ZeRO §7 (2Ψ, 3Ψ); Ren et al. 2021, ZeRO-Offload §4
 */
export function stepTime(arch: ModelArch, plan: Plan, cluster: Cluster, workload: Workload, options: StepTimeOptions = {}): StepTime {
  const eff = checkFraction("computeEfficiency", options.computeEfficiency ?? 0.6);
  const cpuAdam = options.cpuAdamParamsPerS ?? DEFAULT_OFFLOAD_HARDWARE.cpuAdamElementsPerS / cluster.gpusPerNode;
  if (!Number.isFinite(cpuAdam) || cpuAdam <= 0) throw new RangeError(`cpuAdamParamsPerS must be a finite number > 0, got ${cpuAdam}`);
  const { dataParallel: d, tensorParallel: t, pipelineParallel: p, microBatch: b, gradAccum: m } = plan;
  const N = d * t * p;
  const psi = parameterCount(arch).total;
  const tokens = workload.globalBatch * workload.seqLen;
  const flopsPerGpuS = cluster.gpu.peakFlops16 * eff;
  const computeS = (trainingFlopsPerToken(psi, "none") * tokens) / N / flopsPerGpuS;
  const recomputeS = ((trainingFlopsPerToken(psi, plan.recompute) - trainingFlopsPerToken(psi, "none")) * tokens) / N / flopsPerGpuS;
  const busyPerMicroBatch = (computeS + recomputeS) / m;
  const backwardPerMicroBatch = (computeS * (2 / 3)) / m; // backward is 4Ψ of the 6Ψ per token
  const bytes = commBytes(workload);

  // Tensor parallelism: every layer of this stage, every micro-batch; the recomputed forward repeats the forward collectives.
  let tpCommS = 0;
  if (t > 1) {
    const rows = tpCommPerLayer({ tokens: b * workload.seqLen, hiddenSize: arch.hiddenSize, T: t, sequenceParallel: plan.sequenceParallel, bytesPerElement: bytes });
    let perLayer = 0;
    for (const r of rows) {
      const kind = r.collective === "all-reduce" ? "ring-all-reduce" : r.collective;
      const one = collectiveCost(kind, r.elements, t, cluster.intraNode, bytes).timeS;
      const repeats = r.pass === "forward" && plan.recompute === "full" ? 2 : 1;
      perLayer += one * r.count * repeats;
    }
    tpCommS = perLayer * (arch.numLayers / p) * m;
  }

  // Pipeline: the 1F1B bubble over the busy time, and the sends of fill and drain.
  const busyS = computeS + recomputeS + tpCommS;
  const pipelineBubbleS = p > 1 ? closedFormBubble("1f1b", p, m) * busyS : 0;
  let pipelineSendS = 0;
  if (p > 1) {
    const activationBytes = (b * workload.seqLen * arch.hiddenSize * bytes) / (plan.sequenceParallel ? t : 1);
    const link = N <= cluster.gpusPerNode ? cluster.intraNode : cluster.interNode;
    pipelineSendS = 2 * (p - 1) * messageTimeS(activationBytes, link);
  }

  // Data parallelism (ZeRO): the 16-bit gradients (and, at stage 3, parameters) of this model shard.
  const shard = Math.ceil(psi / (t * p));
  let dataParallelExposedS = 0;
  let dataParallelHiddenS = 0;
  if (d > 1) {
    ({ exposedS: dataParallelExposedS, hiddenS: dataParallelHiddenS } = dataParallelCommTime({
      zeroStage: plan.zeroStage, shardParams: shard, dataParallel: d, microBatches: m, link: dataParallelLink(plan, cluster),
      bytesPerElement: bytes, backwardPerMicroBatchS: backwardPerMicroBatch, busyPerMicroBatchS: busyPerMicroBatch,
    }));
  }

  // Offload: ZeRO-Offload's transfers over PCIe and the CPU Adam step of this rank's partition.
  let offloadExposedS = 0;
  let offloadHiddenS = 0;
  if (plan.offload !== "none") {
    const partition = Math.ceil(shard / d);
    const gradsDown = messageTimeS(partition * bytes, cluster.pcie);
    const hiddenGrads = Math.min(gradsDown, backwardPerMicroBatch);
    offloadHiddenS += hiddenGrads;
    offloadExposedS += gradsDown - hiddenGrads + partition / cpuAdam + messageTimeS(partition * bytes, cluster.pcie);
    if (plan.offload === "optimizer+params") {
      // Every micro-batch brings the parameter partition in for forward and again for backward.
      const perMicroBatch = 2 * messageTimeS(partition * bytes, cluster.pcie);
      const hidden = Math.min(perMicroBatch, busyPerMicroBatch);
      offloadHiddenS += m * hidden;
      offloadExposedS += m * (perMicroBatch - hidden);
    }
  }

  const totalS = computeS + recomputeS + tpCommS + pipelineBubbleS + pipelineSendS + dataParallelExposedS + offloadExposedS;
  const assumptions = [
    `matmuls at ${(eff * 100).toFixed(0)} % of the GPU's dense 16-bit peak`,
    "tensor-parallel collectives are not overlapped (they sit between dependent matmuls)",
    ...(p > 1 ? ["1F1B schedule; only the fill and drain sends are exposed"] : []),
    ...(d > 1 ? [`data-parallel group ${t * d <= cluster.gpusPerNode ? "inside a node" : "across nodes"}; gradients reduced in ${bytes * 8}-bit`] : []),
    ...(plan.offload !== "none" ? [`CPU Adam at ${cpuAdam.toExponential(1)} parameters/s per GPU; no delayed parameter update`] : []),
  ];
  return { computeS, recomputeS, tpCommS, pipelineBubbleS, pipelineSendS, dataParallelExposedS, dataParallelHiddenS, offloadExposedS, offloadHiddenS, totalS, assumptions };
}

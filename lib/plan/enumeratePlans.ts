import type { ModelArch, Offload, Recompute, ZeroStage } from "../memory/index.js";
import type { Attention } from "../memory/index.js";
import { checkCluster, type Cluster } from "./clusterPresets.js";
import type { Plan, Workload } from "./planLabel.js";
import { tpModelConfig, validTensorParallelSizes } from "../tensor-parallel/config.js";

/**
 * What the search may choose. Every field is optional; omitted means "all".
 * @see {@link enumeratePlans}
 */
export interface PlanSpace {
  zeroStages?: readonly ZeroStage[];
  offloads?: readonly Offload[];
  recomputes?: readonly Recompute[];
  attentions?: readonly Attention[];
  sequenceParallel?: readonly boolean[];
  /** Micro-batch sizes to try (default the powers of two up to 64 that divide the batch). */
  microBatches?: readonly number[];
  /** Tensor-parallel sizes to try (default every divisor of gpusPerNode); sizes Megatron-LM refuses for the model ({@link validTensorParallelSizes}) are dropped. */
  tensorParallel?: readonly number[];
  /** Pipeline-parallel sizes to try (default every divisor of the layer count). */
  pipelineParallel?: readonly number[];
}

function divisors(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}

function positiveInt(name: string, v: number): number {
  if (!Number.isSafeInteger(v) || v < 1) throw new RangeError(`${name} must be an integer >= 1, got ${v}`);
  return v;
}

/**
 * Checks a workload and returns it.
 * @param w the workload
 * @returns `w`
 * @throws RangeError `workload.globalBatch must be an integer >= 1, got 0`, `workload.seqLen …`,
 *   `workload.precision must be fp32, fp16 or bf16, got "fp8"`, `workload.optimizer must be adamw, sgd-momentum or sgd, got "lion"`
 * @example checkWorkload({ globalBatch: 512, seqLen: 2048, precision: "bf16", optimizer: "adamw" }).seqLen // 2048
 * @see {@link Workload}
 */
export function checkWorkload(w: Workload): Workload {
  positiveInt("workload.globalBatch", w.globalBatch);
  positiveInt("workload.seqLen", w.seqLen);
  if (!["fp32", "fp16", "bf16"].includes(w.precision)) throw new RangeError(`workload.precision must be fp32, fp16 or bf16, got ${JSON.stringify(w.precision)}`);
  if (!["adamw", "sgd-momentum", "sgd"].includes(w.optimizer)) throw new RangeError(`workload.optimizer must be adamw, sgd-momentum or sgd, got ${JSON.stringify(w.optimizer)}`);
  return w;
}

/**
 * Every plan of the search space that is well formed for this model, cluster
 * and workload: tensor-parallel size inside a node and one that Megatron-LM accepts
 * for the model (chapter 6's rule, {@link validTensorParallelSizes}: it divides the
 * query heads and the FFN, and the KV heads are a multiple or a divisor of it, as
 * since Megatron commit f7dfb99), pipeline size dividing the
 * layers, t·p dividing the GPU count (d = N/(t·p)), micro-batch b with
 * b·d dividing the global batch (accumulation m = B/(b·d)), offload of
 * parameters only with ZeRO-3, optimizer offload only with ZeRO ≥ 1 (as
 * DeepSpeed requires), sequence parallelism only with t > 1, and no selective
 * recomputation beside FlashAttention (which recomputes the attention core
 * itself: the pair is the plan without recomputation).
 * Plans that are well formed but do not fit, or that a framework refuses,
 * are kept: {@link evaluatePlan} rejects them with a reason.
 * @param arch the model
 * @param cluster the cluster (all its GPUs are used)
 * @param workload the global batch and sequence length
 * @param space restrictions of the search (default: everything)
 * @returns the plans, in a fixed order (t, p, b, stage, offload, recompute, attention, sp)
 * @throws RangeError from {@link checkCluster} and {@link checkWorkload}, `the model is a mixture of experts (mixtral: …)`,
 *   `workload.seqLen (8192) exceeds the model's n_positions (1024): …` (a learned position table), and
 *   `space.microBatches must hold integers >= 1, got 0`
 * @example enumeratePlans(llama2_7b, clusterPreset("8x-a100-80gb"), { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" }).length
 * @see Narayanan et al. 2021, §3 (Takeaway #1: t up to the GPUs of a node); DeepSpeed config docs (offload_param needs stage 3);
 *   Megatron-LM megatron/core/transformer/transformer_config.py at d98e8a6 (the head checks)
 */
export function enumeratePlans(arch: ModelArch, cluster: Cluster, workload: Workload, space: PlanSpace = {}): Plan[] {
  checkCluster(cluster);
  checkWorkload(workload);
  if (arch.moe && arch.moe.numMoeLayers > 0) {
    throw new RangeError(`the model is a mixture of experts (${arch.modelType}: ${arch.moe.numExperts} experts, ${arch.moe.topK} per token): the planner does not model expert parallelism or the experts' compute yet; npm run estimate gives its memory`);
  }
  if (arch.learnedPositions > 0 && workload.seqLen > arch.learnedPositions) {
    throw new RangeError(`workload.seqLen (${workload.seqLen}) exceeds the model's n_positions (${arch.learnedPositions}): its learned position table has no rows beyond that`);
  }
  const N = cluster.gpusPerNode * cluster.nodes;
  const validT = validTensorParallelSizes(tpModelConfig(arch), cluster.gpusPerNode);
  const tps = (space.tensorParallel ?? divisors(cluster.gpusPerNode)).filter((t) => validT.includes(t));
  const pps = (space.pipelineParallel ?? divisors(arch.numLayers)).filter((p) => arch.numLayers % p === 0);
  const mbs = space.microBatches ?? [1, 2, 4, 8, 16, 32, 64];
  for (const b of mbs) if (!Number.isSafeInteger(b) || b < 1) throw new RangeError(`space.microBatches must hold integers >= 1, got ${b}`);
  const stages = space.zeroStages ?? [0, 1, 2, 3];
  const offloads = space.offloads ?? ["none", "optimizer", "optimizer+params"];
  const recomputes = space.recomputes ?? ["none", "selective", "full"];
  const attentions = space.attentions ?? ["eager", "flash"];
  const sps = space.sequenceParallel ?? [false, true];
  const plans: Plan[] = [];
  for (const t of tps) for (const p of pps) {
    if (N % (t * p) !== 0) continue;
    const d = N / (t * p);
    for (const b of mbs) {
      if (workload.globalBatch % (b * d) !== 0) continue;
      const m = workload.globalBatch / (b * d);
      for (const z of stages) for (const o of offloads) {
        if (o === "optimizer" && z < 1) continue;
        if (o === "optimizer+params" && z !== 3) continue;
        for (const r of recomputes) for (const a of attentions) for (const sp of sps) {
          if (sp && t === 1) continue;
          // FlashAttention already recomputes the attention core in backward: with it, selective is "none".
          if (a === "flash" && r === "selective" && recomputes.includes("none")) continue;
          plans.push({ dataParallel: d, tensorParallel: t, pipelineParallel: p, zeroStage: z, offload: o, recompute: r, sequenceParallel: sp, attention: a, microBatch: b, gradAccum: m });
        }
      }
    }
  }
  return plans;
}

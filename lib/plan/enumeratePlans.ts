import type { ModelArch, Offload, Recompute, ZeroStage } from "../memory/index.js";
import type { Attention } from "../memory/index.js";
import { checkCluster, type Cluster } from "./clusterPresets.js";
import type { Plan, Workload } from "./planLabel.js";
import { layoutRule } from "./layoutRule.js";
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
  /** Context-parallel sizes C to try (default the powers of two, 1 included, whose load-balanced split leaves each of a rank's two chunks at least {@link MIN_CP_CHUNK} tokens). */
  contextParallel?: readonly number[];
  /** Expert-parallel sizes to try (default: every divisor of the experts for an MoE model; [1] for a dense one, which never searches more). */
  expertParallel?: readonly number[];
  /** FP8 GEMMs off and on (default [false, true] on a GPU with FP8 tensor cores and a 16-bit workload, else [false]). */
  fp8?: readonly boolean[];
}

/**
 * The fewest tokens of one chunk of the load-balanced context-parallel split (each rank holds two chunks of
 * s/(2C)) the default search tries: one FlashAttention tile of 128 query rows; a shorter chunk leaves the
 * kernel's tiles part empty and has nothing to hide the ring behind.
 * @example 4096 / (2 * 16) >= MIN_CP_CHUNK // true: C = 16 is the largest default C at s = 4096
 * @see Dao 2023, *FlashAttention-2*, §3.3 (block sizes {64, 128} × {64, 128}); Megatron-LM d98e8a6 `megatron/training/arguments.py` (the 2·C split)
 */
export const MIN_CP_CHUNK = 128;

/**
 * The space of a 3D planner: no context or expert parallelism, no FP8. Merged into a space, it gives back the
 * plans (and the ranking) of the planner before it searched five dimensions.
 * @example enumeratePlans(arch, cluster, workload, { ...space, ...THREE_D_SPACE }).every((p) => !p.contextParallel) // true
 * @see {@link enumeratePlans}
 */
export const THREE_D_SPACE: Readonly<Pick<PlanSpace, "contextParallel" | "expertParallel" | "fp8">> = Object.freeze({ contextParallel: [1], expertParallel: [1], fp8: [false] });

function divisors(n: number): number[] {
  const out: number[] = [];
  for (let d = 1; d <= n; d++) if (n % d === 0) out.push(d);
  return out;
}

/** Micro-batch sizes the search tries by default: the powers of two up to 64. */
export const DEFAULT_MICRO_BATCHES: readonly number[] = [1, 2, 4, 8, 16, 32, 64];

/**
 * The (t, p, d) layouts the search tries: t a divisor of the GPUs of a node that Megatron-LM accepts for the
 * model (chapter 6's rule), p a divisor of the layers, t·p dividing the GPU count, d = N/(t·p).
 * @param arch the model
 * @param cluster the cluster (all its GPUs are used)
 * @param space restrictions of t and p (default: all)
 * @returns the layouts in the order of t, then p
 * @throws nothing (the cluster is checked by the caller)
 * @example layouts(llama2_7b, clusterPreset("8x-a100-80gb")).map((l) => l.d) // [8, 4, 2, 1, 4, 2, 1, …]
 * @see Narayanan et al. 2021, §3; Megatron-LM megatron/core/transformer/transformer_config.py at d98e8a6 (the head checks)
 */
export function layouts(arch: ModelArch, cluster: Cluster, space: Pick<PlanSpace, "tensorParallel" | "pipelineParallel"> = {}): { t: number; p: number; d: number }[] {
  const N = cluster.gpusPerNode * cluster.nodes;
  const validT = validTensorParallelSizes(tpModelConfig(arch), cluster.gpusPerNode);
  const tps = (space.tensorParallel ?? divisors(cluster.gpusPerNode)).filter((t) => validT.includes(t));
  const pps = (space.pipelineParallel ?? divisors(arch.numLayers)).filter((p) => arch.numLayers % p === 0);
  return tps.flatMap((t) => pps.filter((p) => N % (t * p) === 0).map((p) => ({ t, p, d: N / (t * p) })));
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
 * since Megatron commit f7dfb99), pipeline size dividing the layers, context-parallel
 * size C, t·p·C dividing the GPU count (d = N/(t·p·C)), expert-parallel size ep (MoE only),
 * micro-batch b with b·d dividing the global batch (accumulation m = B/(b·d)), offload of
 * parameters only with ZeRO-3, optimizer offload only with ZeRO ≥ 1 (as
 * DeepSpeed requires), sequence parallelism only with t > 1, no selective
 * recomputation beside FlashAttention (which recomputes the attention core
 * itself: the pair is the plan without recomputation), FP8 on or off; and for the
 * dimensions beyond three, the rules of {@link layoutRule} (Megatron-LM's: s a multiple of 2·C,
 * fused attention with C > 1, ep dividing the experts and d·C, ZeRO 0 or 1 without offload,
 * sequence parallelism for an MoE model with t > 1; FP8 tensor cores).
 * One dominated choice is pruned: C > 1 with an even micro-batch b, when b/2 and C/2 are also in the
 * space, is the plan (2d, C/2, b/2) with the same tokens per rank (b·s/C), the same GEMMs, attention FLOPs,
 * micro-batches and gradient reduction, and a ring of half the ranks that sends the same block per step
 * behind twice the compute: it can never be faster, nor need less memory. So with powers of two, C > 1
 * is searched with b = 1 only: context parallelism is for sequences one GPU cannot hold.
 * Plans that are well formed but do not fit, or that a framework refuses,
 * are kept: {@link evaluatePlan} rejects them with a reason.
 * @param arch the model
 * @param cluster the cluster (all its GPUs are used)
 * @param workload the global batch and sequence length
 * @param space restrictions of the search (default: everything; {@link THREE_D_SPACE} for the 3D planner's)
 * @returns the plans, in a fixed order (t, p, C, ep, b, stage, offload, recompute, attention, sp, fp8); a 3D plan has no
 *   `contextParallel`, `expertParallel` or `fp8` field, so with {@link THREE_D_SPACE} the list is the 3D planner's, in its order
 * @throws RangeError from {@link checkCluster} and {@link checkWorkload},
 *   `workload.seqLen (8192) exceeds the model's n_positions (1024): …` (a learned position table), and
 *   `space.microBatches must hold integers >= 1, got 0` (likewise contextParallel, expertParallel)
 * @example enumeratePlans(llama2_7b, clusterPreset("8x-a100-80gb"), { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" }).length
 * @see Narayanan et al. 2021, §3 (Takeaway #1: t up to the GPUs of a node); DeepSpeed config docs (offload_param needs stage 3);
 *   Megatron-LM megatron/core/transformer/transformer_config.py at d98e8a6 (the head checks); {@link layoutRule} (the rules beyond three dimensions)
 */
export function enumeratePlans(arch: ModelArch, cluster: Cluster, workload: Workload, space: PlanSpace = {}): Plan[] {
  checkCluster(cluster);
  checkWorkload(workload);
  if (arch.learnedPositions > 0 && workload.seqLen > arch.learnedPositions) {
    throw new RangeError(`workload.seqLen (${workload.seqLen}) exceeds the model's n_positions (${arch.learnedPositions}): its learned position table has no rows beyond that`);
  }
  const N = cluster.gpusPerNode * cluster.nodes;
  const s = workload.seqLen;
  const moe = arch.moe && arch.moe.numMoeLayers > 0 ? arch.moe : undefined;
  const mbs = space.microBatches ?? DEFAULT_MICRO_BATCHES;
  const ints = (name: string, xs: readonly number[]) => { for (const x of xs) if (!Number.isSafeInteger(x) || x < 1) throw new RangeError(`space.${name} must hold integers >= 1, got ${x}`); return xs; };
  ints("microBatches", mbs);
  const cps = ints("contextParallel", space.contextParallel ?? divisors(N).filter((C) => (C & (C - 1)) === 0 && (C === 1 || s / (2 * C) >= MIN_CP_CHUNK)));
  // A dense model never searches expert parallelism.
  const eps = ints("expertParallel", space.expertParallel ?? (moe ? divisors(moe.numExperts) : [1])).filter((ep) => ep === 1 || moe !== undefined);
  const fp8s = space.fp8 ?? (cluster.gpu.peakFlops.fp8 && workload.precision !== "fp32" ? [false, true] : [false]);
  const stages = space.zeroStages ?? [0, 1, 2, 3];
  const offloads = space.offloads ?? ["none", "optimizer", "optimizer+params"];
  const recomputes = space.recomputes ?? ["none", "selective", "full"];
  const attentions = space.attentions ?? ["eager", "flash"];
  const sps = space.sequenceParallel ?? [false, true];
  const plans: Plan[] = [];
  for (const { t, p } of layouts(arch, cluster, space)) for (const C of cps) {
    if (N % (t * p * C) !== 0) continue;
    const d = N / (t * p * C);
    for (const ep of eps) for (const b of mbs) {
      if (workload.globalBatch % (b * d) !== 0) continue;
      if (C > 1 && b % 2 === 0 && mbs.includes(b / 2) && cps.includes(C / 2)) continue; // dominated by (2d, C/2, b/2)
      const m = workload.globalBatch / (b * d);
      for (const z of stages) for (const o of offloads) {
        if (o === "optimizer" && z < 1) continue;
        if (o === "optimizer+params" && z !== 3) continue;
        for (const r of recomputes) for (const a of attentions) for (const sp of sps) {
          if (sp && t === 1) continue;
          // FlashAttention already recomputes the attention core in backward: with it, selective is "none".
          if (a === "flash" && r === "selective" && recomputes.includes("none")) continue;
          for (const f8 of fp8s) {
            const plan: Plan = { dataParallel: d, tensorParallel: t, pipelineParallel: p, zeroStage: z, offload: o, recompute: r, sequenceParallel: sp, attention: a, microBatch: b, gradAccum: m };
            if (C > 1) plan.contextParallel = C;
            if (ep > 1) plan.expertParallel = ep;
            if (f8) plan.fp8 = true;
            if ((C > 1 || ep > 1 || f8 || moe) && layoutRule(plan, arch, cluster, workload) !== undefined) continue;
            plans.push(plan);
          }
        }
      }
    }
  }
  return plans;
}

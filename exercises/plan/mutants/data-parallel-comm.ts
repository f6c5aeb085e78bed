import { collectiveCost } from "../../../lib/collectives/index.js";
import { dataParallelCommTime as lib } from "../../../lib/plan/index.js";
import type { dataParallelCommTime } from "../data-parallel-comm.js";

type F = typeof dataParallelCommTime;
type O = Parameters<F>[0];
const cost = (o: O, k: "ring-all-reduce" | "reduce-scatter" | "all-gather") => collectiveCost(k, o.shardParams, o.dataParallel, o.link, o.bytesPerElement).timeS;

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "ZeRO-3 gathers once per micro-batch (2Ψ, as if backward kept the parameters)": {
    impl: (o) => {
      if (o.zeroStage !== 3 || o.dataParallel === 1) return lib(o);
      const c = cost(o, "all-gather") + cost(o, "reduce-scatter");
      const h = Math.min(c, o.busyPerMicroBatchS);
      return { hiddenS: o.microBatches * h, exposedS: o.microBatches * (c - h) };
    },
    caughtBy: "stage 3: 3Ψ per micro-batch behind forward and backward",
  },
  "DDP all-reduces after every micro-batch (no no_sync)": {
    impl: (o) => (o.zeroStage === 0 && o.dataParallel > 1 ? { hiddenS: lib(o).hiddenS * o.microBatches, exposedS: lib(o).exposedS * o.microBatches } : lib(o)),
    caughtBy: ["the stub's example", "stage 0: one all-reduce per step"],
  },
  "hides ZeRO-2's final all-gather too": {
    impl: (o) => {
      const r = lib(o);
      if (o.zeroStage !== 2 || o.dataParallel === 1) return r;
      const ag = cost(o, "all-gather");
      return { hiddenS: r.hiddenS + ag, exposedS: r.exposedS - ag };
    },
    caughtBy: "stage 2: an all-reduce per micro-batch, then an all-gather",
  },
  "forgets ZeRO-1's parameter all-gather (the old course's rule)": {
    impl: (o) => (o.zeroStage === 1 ? lib({ ...o, zeroStage: 0 }) : lib(o)),
    caughtBy: "stage 1: one all-reduce, then the parameter all-gather",
  },
  "stage 2 reduce-scatters (the paper's Ψ) instead of DeepSpeed's bucket all-reduce": {
    impl: (o) => (o.zeroStage === 2 ? lib({ ...o, bucketAllReduce: false } as typeof o) : lib(o)),
    caughtBy: "stage 2: an all-reduce per micro-batch, then an all-gather",
  },
  "hides the all-reduce behind the whole step, not the last backward": {
    impl: (o) => (o.zeroStage === 0 ? lib({ ...o, backwardPerMicroBatchS: o.busyPerMicroBatchS * o.microBatches }) : lib(o)),
    caughtBy: ["the stub's example", "stage 0: one all-reduce per step"],
  },
  "checks nothing": {
    impl: (o) => lib({ ...o, zeroStage: ([0, 1, 2, 3].includes(o.zeroStage) ? o.zeroStage : 0) as 0, microBatches: Math.max(1, Math.floor(o.microBatches) || 1),
      backwardPerMicroBatchS: Math.max(0, o.backwardPerMicroBatchS) || 0, busyPerMicroBatchS: Math.max(0, o.busyPerMicroBatchS) || 0 }),
    caughtBy: "one rank, and bad input by name",
  },
};

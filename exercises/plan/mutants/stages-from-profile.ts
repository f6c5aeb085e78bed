import { collectiveCost } from "../../../lib/collectives/index.js";
import { stagesFromProfile as lib, dataParallelCommTime } from "../../../lib/plan/index.js";
import type { stagesFromProfile, RunWithoutStage, CommProfile } from "../stages-from-profile.js";

type F = typeof stagesFromProfile;
type Model = (o: RunWithoutStage, z: 0 | 1 | 2 | 3) => { exposedS: number; hiddenS: number };
const libModel: Model = (o, zeroStage) => dataParallelCommTime({ ...o, zeroStage });
const cost = (o: RunWithoutStage, k: "ring-all-reduce" | "reduce-scatter" | "all-gather") => collectiveCost(k, o.shardParams, o.dataParallel, o.link, o.bytesPerElement).timeS;

function by(model: Model, agrees = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.01 * Math.max(a, b), 1e-5), first = false): F {
  return (o, p) => {
    lib(o, p); // the reference's input checks
    const out = ([0, 1, 2, 3] as const).filter((z) => { const t = model(o, z); return agrees(t.exposedS, p.exposedS) && agrees(t.hiddenS, p.hiddenS); });
    return first ? out.slice(0, 1) : out;
  };
}

export const mutants: Record<string, { impl: F; caughtBy: string | string[] }> = {
  "ZeRO-2 reduces once per step, like stage 1": {
    impl: by((o, z) => libModel(o, z === 2 ? 1 : z)),
    caughtBy: ["the stub's example", "random runs, each stage's profile with up to 0.9 % of noise", "stages that look alike: one micro-batch, one rank, communication that hides entirely"],
  },
  "ZeRO-3 moves 2Ψ per micro-batch (one gather)": {
    impl: by((o, z) => {
      if (z !== 3 || o.dataParallel === 1) return libModel(o, z);
      const c = cost(o, "all-gather") + cost(o, "reduce-scatter"), h = Math.min(c, o.busyPerMicroBatchS);
      return { hiddenS: o.microBatches * h, exposedS: o.microBatches * (c - h) };
    }),
    caughtBy: "random runs, each stage's profile with up to 0.9 % of noise",
  },
  "stage 1's all-gather hidden behind the next forward (Megatron's --overlap-param-gather, not DeepSpeed)": {
    impl: by((o, z) => dataParallelCommTime({ ...o, zeroStage: z, overlapParamGather: true })),
    caughtBy: ["the stub's example", "random runs, each stage's profile with up to 0.9 % of noise"],
  },
  "the paper's reduce-scatter for stages 1–2 (Ψ, not DeepSpeed's bucket all-reduce)": {
    impl: by((o, z) => dataParallelCommTime({ ...o, zeroStage: z, bucketAllReduce: false })),
    caughtBy: ["the stub's example", "random runs, each stage's profile with up to 0.9 % of noise"],
  },
  "noise relative to the measured number only": {
    impl: by(libModel, (a, b) => Math.abs(a - b) <= Math.max(0.01 * b, 1e-5)),
    caughtBy: "at the edge of the noise: 1 % of the larger, or 10 µs",
  },
  "no absolute floor of 10 µs": {
    impl: by(libModel, (a, b) => Math.abs(a - b) <= 0.01 * Math.max(a, b)),
    caughtBy: ["stages that look alike: one micro-batch, one rank, communication that hides entirely", "at the edge of the noise: 1 % of the larger, or 10 µs"],
  },
  "returns only the first stage that agrees": {
    impl: by(libModel, undefined, true),
    caughtBy: ["random runs, each stage's profile with up to 0.9 % of noise", "stages that look alike: one micro-batch, one rank, communication that hides entirely"],
  },
  "accepts a negative measurement": {
    impl: (o, p: CommProfile) => (p.exposedS < 0 ? [] : lib(o, p)),
    caughtBy: "bad input names the field",
  },
};

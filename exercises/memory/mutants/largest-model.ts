import type { largestModel } from "../largest-model.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof largestModel;
type Stage = 0 | 1 | 2 | 3;

interface Options { noPadding?: boolean; strict?: boolean; stageShift?: boolean; closedForm?: boolean; noCheck?: boolean; gib?: boolean }

/** Bytes per GPU of Ψ's states (written for the mutants). */
function bytes(psi: number, n: number, stage: Stage, o: Options): number {
  const part = o.noPadding ? psi / n : Math.ceil(psi / n);
  const s = o.stageShift ? Math.min(3, stage + 1) : stage;
  return (s >= 3 ? 2 * part : 2 * psi) + (s >= 2 ? 2 * part : 2 * psi) + (s >= 1 ? 12 * part : 12 * psi);
}

const make = (o: Options = {}): F => (numGpus, zeroStage, gpuBytes) => {
  if (!o.noCheck) {
    if (!Number.isInteger(numGpus) || numGpus < 1 || numGpus > 65536) throw new RangeError(`numGpus must be an integer in [1, 65536], got ${numGpus}`);
    if (![0, 1, 2, 3].includes(zeroStage)) throw new RangeError(`zeroStage must be 0, 1, 2 or 3, got ${zeroStage}`);
    if (!Number.isInteger(gpuBytes) || gpuBytes < 0 || gpuBytes > 2 ** 40) throw new RangeError(`gpuBytes must be an integer in [0, 2^40], got ${gpuBytes}`);
  }
  if (o.closedForm) {
    const per = (zeroStage >= 3 ? 2 / numGpus : 2) + (zeroStage >= 2 ? 2 / numGpus : 2) + (zeroStage >= 1 ? 12 / numGpus : 12);
    return Math.floor(gpuBytes / per);
  }
  const fits = (p: number) => (o.strict ? bytes(p, numGpus, zeroStage, o) < gpuBytes : bytes(p, numGpus, zeroStage, o) <= gpuBytes);
  let lo = 0, hi = 1;
  while (fits(hi)) hi *= 2;
  while (hi - lo > 1) { const mid = Math.floor((lo + hi) / 2); if (fits(mid)) lo = mid; else hi = mid; }
  return lo;
};

export const mutants: Record<string, Mutant<F>> = {
  "bytes divided instead of elements padded (Ψ/N)": { impl: make({ noPadding: true }), caughtBy: ["partitions are whole elements, padded", "exactly at the limit: equal fits, one byte less does not"] },
  "the closed form gpuBytes / (bytes per parameter), floored": { impl: make({ closedForm: true }), caughtBy: ["partitions are whole elements, padded", "trillion-parameter answers are exact integers"] },
  "states that fit exactly are refused (< instead of ≤)": { impl: make({ strict: true }), caughtBy: "exactly at the limit: equal fits, one byte less does not" },
  "each stage partitions one state too many": { impl: make({ stageShift: true }), caughtBy: ["ZeRO Table 2: 2B, 7.6B, 14.4B (64 × 32 GB)", "random clusters"] },
  "no check of the arguments": { impl: make({ noCheck: true }), caughtBy: "bad input: RangeError naming the argument" },
};

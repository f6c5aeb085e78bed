import type { Mutant } from "../../harness/index.js";
import type { accumulateMicroBatches, MicroBatchGradient } from "../accumulate-micro-batches.js";

type F = typeof accumulateMicroBatches;

/** The right weighting, with the validation of the contract; `variant` changes one thing. */
function window(micro: MicroBatchGradient[], variant: { zeroTimesNaN?: boolean; errorClass?: ErrorConstructor; validate?: boolean } = {}): number[] {
  const E = variant.errorClass ?? RangeError;
  if (micro.length === 0) throw new E("no micro-batch");
  const P = micro[0].meanGrad.length;
  if (variant.validate !== false) micro.forEach((m) => {
    if (!Number.isInteger(m.numTokens) || m.numTokens < 0) throw new E("bad numTokens");
    if (m.meanGrad.length !== P) throw new E("bad meanGrad length");
  });
  const total = micro.reduce((s, m) => s + m.numTokens, 0);
  if (total === 0) throw new E("no tokens");
  // zeroTimesNaN: replaces NaN by 0 and weights every micro-batch, so an empty one contributes 0 · its values
  const live = variant.zeroTimesNaN ? micro.map((m) => ({ ...m, meanGrad: m.meanGrad.map((g) => (Number.isNaN(g) ? 0 : g)) })) : micro.filter((m) => m.numTokens > 0);
  return Array.from({ length: P }, (_, p) => live.reduce((s, m) => s + m.numTokens * m.meanGrad[p], 0) / total);
}

export const mutants: Record<string, Mutant<F>> = {
  "mean of the micro-batch means (loss / accumulation_steps)": {
    impl: (micro) => {
      const P = micro[0].meanGrad.length, live = micro.filter((m) => m.numTokens > 0);
      if (live.length === 0) throw new RangeError("no tokens");
      return Array.from({ length: P }, (_, p) => live.reduce((s, m) => s + m.meanGrad[p], 0) / live.length);
    },
    caughtBy: ["the stub's example", "variable lengths (the 2024 bug)"],
  },
  "does not skip all-padding micro-batches (NaN leaks in)": {
    impl: (micro) => {
      const P = micro[0].meanGrad.length, total = micro.reduce((s, m) => s + m.numTokens, 0);
      if (total === 0) throw new RangeError("no tokens");
      return Array.from({ length: P }, (_, p) => micro.reduce((s, m) => s + m.numTokens * m.meanGrad[p], 0) / total);
    },
    caughtBy: "all-padding micro-batches",
  },
  "sums the weighted means but divides by K instead of the token count": {
    impl: (micro) => {
      const P = micro[0].meanGrad.length, live = micro.filter((m) => m.numTokens > 0);
      if (live.length === 0) throw new RangeError("no tokens");
      return Array.from({ length: P }, (_, p) => live.reduce((s, m) => s + m.numTokens * m.meanGrad[p], 0) / micro.length);
    },
    caughtBy: ["the stub's example", "worked example"],
  },
  "turns NaN into 0 instead of leaving empty micro-batches out (0 · Infinity is NaN)": { impl: (micro) => window(micro, { zeroTimesNaN: true }), caughtBy: "special values" },
  "throws a plain Error instead of a RangeError": { impl: (micro) => window(micro, { errorClass: Error }), caughtBy: "bad windows throw RangeError" },
  "does not validate token counts and lengths": { impl: (micro) => window(micro, { validate: false }), caughtBy: "bad windows throw RangeError" },
};

import type { accumulateMicroBatches } from "../accumulate-micro-batches.js";

export const mutants: Record<string, typeof accumulateMicroBatches> = {
  "mean of the micro-batch means (loss / accumulation_steps)": (micro) => {
    const P = micro[0].meanGrad.length, live = micro.filter((m) => m.numTokens > 0);
    if (live.length === 0) throw new RangeError("no tokens");
    return Array.from({ length: P }, (_, p) => live.reduce((s, m) => s + m.meanGrad[p], 0) / live.length);
  },
  "does not skip all-padding micro-batches (NaN leaks in)": (micro) => {
    const P = micro[0].meanGrad.length, total = micro.reduce((s, m) => s + m.numTokens, 0);
    if (total === 0) throw new RangeError("no tokens");
    return Array.from({ length: P }, (_, p) => micro.reduce((s, m) => s + m.numTokens * m.meanGrad[p], 0) / total);
  },
  "sums the weighted means but divides by K instead of the token count": (micro) => {
    const P = micro[0].meanGrad.length, live = micro.filter((m) => m.numTokens > 0);
    if (live.length === 0) throw new RangeError("no tokens");
    return Array.from({ length: P }, (_, p) => live.reduce((s, m) => s + m.numTokens * m.meanGrad[p], 0) / micro.length);
  },
};

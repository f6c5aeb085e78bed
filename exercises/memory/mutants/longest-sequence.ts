import type { longestSequence, LayerStack } from "../longest-sequence.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof longestSequence;

interface Options { fullSpUnsplit?: boolean; noAttention?: boolean; roundTotal?: boolean; strict?: boolean; sqrt?: boolean; noCheck?: boolean; oneLayer?: boolean }

/** Bytes of L layers at sequence length s (written for the mutants, in floating point). */
function bytes(o: LayerStack, s: number, opt: Options): number {
  const { microBatch: b, hiddenSize: h, numHeads: a, tensorParallel: t, sequenceParallel: sp, recompute } = o;
  const sbh = s * b * h;
  let layer: number;
  if (recompute === "full") layer = sp && !opt.fullSpUnsplit ? (2 * sbh) / t : 2 * sbh;
  else {
    const lin = sp ? (34 * sbh) / t : 10 * sbh + (24 * sbh) / t;
    const att = recompute === "selective" || opt.noAttention ? 0 : (5 * a * s * s * b) / t;
    layer = lin + att;
  }
  const L = opt.oneLayer ? 1 : o.numLayers;
  return opt.roundTotal ? Math.ceil(L * layer) : L * Math.ceil(layer);
}

const make = (opt: Options = {}): F => (o, budgetBytes) => {
  if (!opt.noCheck) {
    for (const k of ["microBatch", "hiddenSize", "numHeads", "numLayers", "tensorParallel"] as const) {
      if (!Number.isSafeInteger(o[k]) || o[k] < 1) throw new RangeError(`${k} must be an integer >= 1, got ${o[k]}`);
    }
    if (o.numHeads % o.tensorParallel !== 0) throw new RangeError(`tensorParallel (${o.tensorParallel}) must divide numHeads (${o.numHeads})`);
    if (!Number.isSafeInteger(budgetBytes) || budgetBytes < 0) throw new RangeError(`budgetBytes must be a safe integer >= 0, got ${budgetBytes}`);
  }
  if (opt.sqrt && o.recompute === "none") {
    // solve L·(c1·s + c2·s²) = budget with the quadratic formula (no ceiling), then floor
    const { microBatch: b, hiddenSize: h, numHeads: a, tensorParallel: t, sequenceParallel: sp } = o;
    const c1 = o.numLayers * b * h * (sp ? 34 / t : 10 + 24 / t), c2 = (o.numLayers * 5 * a * b) / t;
    return Math.max(0, Math.floor((-c1 + Math.sqrt(c1 * c1 + 4 * c2 * budgetBytes)) / (2 * c2)));
  }
  const fits = (s: number) => (opt.strict ? bytes(o, s, opt) < budgetBytes : bytes(o, s, opt) <= budgetBytes);
  let lo = 0, hi = 1;
  while (fits(hi)) hi *= 2;
  while (hi - lo > 1) { const mid = Math.floor((lo + hi) / 2); if (fits(mid)) lo = mid; else hi = mid; }
  return lo;
};

export const mutants: Record<string, Mutant<F>> = {
  "full recomputation with sequence parallelism kept at 2sbh (the table's row)": { impl: make({ fullSpUnsplit: true }), caughtBy: "full recomputation with sequence parallelism keeps 2sbh/t" },
  "the attention term forgotten (linear in s)": { impl: make({ noAttention: true }), caughtBy: ["no recomputation: the attention term grows with s²", "random settings"] },
  "the L layers' total rounded instead of each layer": { impl: make({ roundTotal: true }), caughtBy: "one rounding, at the end of each layer" },
  "activations that fit exactly are refused (< instead of ≤)": { impl: make({ strict: true }), caughtBy: "exactly at the limit: equal fits, one byte less does not" },
  "the quadratic formula in floating point, without the ceiling": { impl: make({ sqrt: true }), caughtBy: "one rounding, at the end of each layer" },
  "one layer, not L": { impl: make({ oneLayer: true }), caughtBy: ["the stub's example: GPT-3 175B fills 80 GiB at s = 17,133", "random settings"] },
  "no check of the fields": { impl: make({ noCheck: true }), caughtBy: "bad input: RangeError naming the field" },
};

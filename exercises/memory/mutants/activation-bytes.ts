import type { activationBytesPerLayer, LayerSetting } from "../activation-bytes.js";
import type { Mutant } from "../../harness/index.js";

type F = typeof activationBytesPerLayer;
interface Slip { attention?: "none" | "linear"; splitAll?: boolean; fullSplit?: boolean; noThrow?: boolean; float?: boolean; plainError?: boolean; noFieldCheck?: boolean }

function validate(o: LayerSetting, m: Slip): void {
  const bad = (msg: string) => { throw m.plainError ? new Error(msg) : new RangeError(msg); };
  if (!m.noFieldCheck) {
    for (const k of ["seqLen", "microBatch", "hiddenSize", "numHeads", "tensorParallel"] as const) {
      if (!Number.isSafeInteger(o[k]) || o[k] < 1) bad(`${k} must be an integer >= 1, got ${o[k]}`);
    }
  }
  if (!m.noThrow && o.numHeads % o.tensorParallel !== 0) bad(`tensorParallel (${o.tensorParallel}) must divide numHeads (${o.numHeads})`);
}

function bytes(o: LayerSetting, m: Slip = {}): number {
  validate(o, m);
  const { seqLen: s, microBatch: b, hiddenSize: h, numHeads: a, tensorParallel: t } = o;
  const sbh = s * b * h;
  if (o.recompute === "full") return Math.ceil(o.sequenceParallel || m.fullSplit ? (2 * sbh) / t : 2 * sbh);
  if (m.float) {
    // sbh·(coefficients), each divided along the way: the float trap of the contract
    const attention = o.recompute === "selective" ? 0 : (5 * a * s) / (h * t);
    return Math.ceil(sbh * ((o.sequenceParallel ? 34 / t : 10 + 24 / t) + attention));
  }
  // exact: one numerator over t (BigInt), one rounding
  const [S, B, H, A, T] = [s, b, h, a, t].map(BigInt) as [bigint, bigint, bigint, bigint, bigint];
  const SBH = S * B * H;
  const linear = o.sequenceParallel || m.splitAll ? 34n * SBH : 10n * SBH * T + 24n * SBH;
  const attention = o.recompute === "selective" || m.attention === "none" ? 0n : m.attention === "linear" ? 5n * A * S * B : 5n * A * S * S * B;
  const num = linear + attention;
  return Number((num + T - 1n) / T);
}

export const mutants: Record<string, Mutant<F>> = {
  "forgets the 5as²b attention term": { impl: (o) => bytes(o, { attention: "none" }), caughtBy: "GPT-3 175B, no parallelism: sbh(34 + 5as/h)" },
  "writes 5asb instead of 5as²b (attention scores are s × s)": { impl: (o) => bytes(o, { attention: "linear" }), caughtBy: "GPT-3 175B, no parallelism: sbh(34 + 5as/h)" },
  "divides all 34 by t without sequence parallelism": { impl: (o) => bytes(o, { splitAll: true }), caughtBy: "tensor parallel t = 8 (Table 2)" },
  "splits the full-recompute checkpoint by t without sequence parallelism": { impl: (o) => bytes(o, { fullSplit: true }), caughtBy: "full recomputation keeps the layer input" },
  "accepts a TP size that does not divide the heads": { impl: (o) => bytes(o, { noThrow: true }), caughtBy: "bad input: RangeError naming the field" },
  "throws a plain Error instead of a RangeError": { impl: (o) => bytes(o, { plainError: true }), caughtBy: "bad input: RangeError naming the field" },
  "does not check the counts (0, NaN, fractions pass)": { impl: (o) => bytes(o, { noFieldCheck: true }), caughtBy: "bad input: RangeError naming the field" },
  "computes sbh·(34 + 5as/h) in floating point, rounding along the way": { impl: (o) => bytes(o, { float: true }), caughtBy: "exact arithmetic: one rounding, at the end" },
};
